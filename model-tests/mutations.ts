/**
 * Mutation proof of the model tests (docs/testing.md; not part of `npm test`): each mutation below
 * swaps a transition's target or an assigned value in a machine, the way a slip would; the machine's
 * model tests must then FAIL (the mutation is "killed"). The graph's expected snapshots come from the
 * mutated machine itself, so only the rule-written expectations of the model can kill it.
 *
 *   npx tsx model-tests/mutations.ts [machine-file-filter]
 *
 * Prints a table and exits 1 when a mutation survives. The file is restored after each run (in
 * `finally`) and must then show no change in git.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

interface Mutation {
  /** The machine's file, from the repository's root. */
  file: string;
  /** Text found exactly once in the file, and what replaces it. */
  find: string;
  replace: string;
  /** The model tests that must fail. */
  tests: string[];
  /** What the slip does, for the table. */
  what: string;
}

const logic = (machine: string) => [`model-tests/${machine}.test.ts`];

export const mutations: Mutation[] = [
  {
    what: 'removeListing: a confirmed removal skips the wallet and records at once',
    file: 'machines/removeListing.ts',
    find: "'listing.remove.confirm': { target: 'signing'",
    replace: "'listing.remove.confirm': { target: 'recording'",
    tests: logic('removeListing'),
  },
  {
    what: 'removeListing: a recorded cancellation ends as "record failed"',
    file: 'machines/removeListing.ts',
    find: "onDone: { target: 'removed', actions: 'announceRemoved' }",
    replace: "onDone: { target: 'recordFailed', actions: 'announceRemoved' }",
    tests: logic('removeListing'),
  },
  {
    what: 'listForSale: an owner without KYC goes to the price form',
    file: 'machines/listForSale.ts',
    find: "always: [{ guard: 'kycApproved', target: 'editing' }, { target: 'kycRequired' }]",
    replace: "always: [{ guard: 'kycApproved', target: 'editing' }, { target: 'editing' }]",
    tests: logic('listForSale'),
  },
  {
    what: 'listForSale: the price signed is 100 times too small',
    file: 'machines/listForSale.ts',
    find: 'assign({ priceCents: ({ context }) => parseDollars(context.price)!, error: null })',
    replace: 'assign({ priceCents: ({ context }) => parseDollars(context.price)! / 100, error: null })',
    tests: logic('listForSale'),
  },
  {
    what: 'listForSale: a failed record retries by signing again',
    file: 'machines/listForSale.ts',
    find: "'listing.retry': { target: 'recording', actions: assign({ error: null }) }",
    replace: "'listing.retry': { target: 'signing', actions: assign({ error: null }) }",
    tests: logic('listForSale'),
  },
  {
    what: 'publish: a blueprint back to a draft reads as published',
    file: 'machines/publish.ts',
    find: `          {
            target: 'failed',
            actions: assign({
              blueprint: ({ event }) => event.output,`,
    replace: `          {
            target: 'published',
            actions: assign({
              blueprint: ({ event }) => event.output,`,
    tests: logic('publish'),
  },
  {
    what: 'publish: a retry after the timeout does not start counting again',
    file: 'machines/publish.ts',
    find: "target: 'waiting',\n            actions: assign({ polls: 0, error: null }),",
    replace: "target: 'waiting',\n            actions: assign({ error: null }),",
    tests: logic('publish'),
  },
  {
    what: 'publish: each read of the blueprint counts twice',
    file: 'machines/publish.ts',
    find: 'entry: assign({ polls: ({ context }) => context.polls + 1 }),',
    replace: 'entry: assign({ polls: ({ context }) => context.polls + 2 }),',
    tests: logic('publish'),
  },
  {
    what: 'payout: a sent request does not load the list again',
    file: 'machines/payout.ts',
    find: "onDone: { target: 'loading', actions: 'announceRequested' }",
    replace: "onDone: { target: 'ready', actions: 'announceRequested' }",
    tests: logic('payout'),
  },
  {
    what: 'payout: the form opens with the funds in cents as dollars',
    file: 'machines/payout.ts',
    find: 'actions: assign({ amount: ({ context }) => centsToDecimal(context.available), error: null }),',
    replace: 'actions: assign({ amount: ({ context }) => String(context.available), error: null }),',
    tests: logic('payout'),
  },
  {
    what: 'payout: a confirmed cancellation skips the server',
    file: 'machines/payout.ts',
    find: "'payout.cancel.confirm': 'cancelling',",
    replace: "'payout.cancel.confirm': 'loading',",
    tests: logic('payout'),
  },
];

function git(...args: string[]) {
  return execFileSync('git', args, { encoding: 'utf8' });
}

function run(m: Mutation): { killed: boolean; note: string } {
  const original = readFileSync(m.file, 'utf8');
  const count = original.split(m.find).length - 1;
  if (count !== 1) return { killed: false, note: `text found ${count} times, must be once` };
  const clean = spawnSync('git', ['diff', '--quiet', '--', m.file]).status === 0;
  if (!clean) return { killed: false, note: 'file has uncommitted changes: not mutated' };
  let outcome: { killed: boolean; note: string };
  try {
    writeFileSync(m.file, original.replace(m.find, m.replace));
    const result = spawnSync('npx', ['vitest', 'run', '--project', 'web', ...m.tests], {
      encoding: 'utf8',
      env: { ...process.env, CI: '1' },
    });
    const failed = /Tests\s+.*?(\d+) failed/.exec(stripVTControlCharacters(result.stdout));
    outcome =
      result.status !== 0
        ? { killed: true, note: failed ? `${failed[1]} tests failed` : `exit ${result.status}` }
        : { killed: false, note: 'all tests passed' };
  } finally {
    writeFileSync(m.file, original);
  }
  if (spawnSync('git', ['diff', '--quiet', '--', m.file]).status !== 0) {
    console.error(git('diff', '--', m.file));
    console.error(`${m.file} was not restored`);
    process.exit(2);
  }
  return outcome;
}

const filter = process.argv[2];
const chosen = mutations.filter((m) => !filter || m.file.includes(filter));
const rows: string[] = ['| # | Mutation | Tests | Result |', '| - | -------- | ----- | ------ |'];
let survived = 0;
for (const [i, m] of chosen.entries()) {
  const { killed, note } = run(m);
  if (!killed) survived++;
  rows.push(`| ${i + 1} | ${m.what} | ${m.tests.join(', ')} | ${killed ? 'killed' : 'SURVIVED'} (${note}) |`);
  console.log(rows.at(-1));
}
console.log(`\n${rows.join('\n')}\n\n${chosen.length - survived}/${chosen.length} mutations killed`);
if (survived > 0) process.exit(1);
