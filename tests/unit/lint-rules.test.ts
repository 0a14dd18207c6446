import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layers' import rules (biome.json, noRestrictedImports per folder), each proven by a probe: a
 * file written into the folder with one import, linted by Biome, removed again. Biome runs once
 * over every probe (its project scan takes seconds).
 */
const root = resolve(import.meta.dirname, '../..');
const biome = join(root, 'node_modules/.bin/biome');
const run = promisify(execFile);

/** The diagnostics of `category` Biome reports for each probe: [folder, source] → file. */
async function lintProbes(category: string, probes: [folder: string, source: string][]): Promise<string[][]> {
  const files = probes.map(([folder]) => join(folder, `lint-probe-${randomUUID()}.ts`));
  try {
    await Promise.all(files.map((file, i) => writeFile(join(root, file), probes[i]![1])));
    const out = await run(biome, ['lint', '--reporter=json', ...files], { cwd: root }).catch(
      (e: { stdout: string }) => e,
    );
    const report = JSON.parse(out.stdout) as {
      diagnostics: { category: string; location: { path: string } }[];
    };
    return files.map((file) =>
      report.diagnostics
        .filter((d) => d.location.path === file && d.category === category)
        .map((d) => d.category),
    );
  } finally {
    await Promise.all(files.map((file) => rm(join(root, file), { force: true })));
  }
}

const forbidden: [folder: string, what: string, source: string][] = [
  ['machines', 'the flows (src/flows)', "import { x } from '../src/flows/account';"],
  ['machines', 'a route file (src/routes)', "import { x } from '../src/routes/-guards';"],
  ['domain', 'the flows (src/flows)', "import { x } from '../src/flows/account';"],
  ['domain', 'a route file (src/routes)', "import { x } from '../src/routes/-guards';"],
  ['domain', 'XState', "import { x } from 'xstate';"],
  ['domain', 'React', "import { x } from 'react';"],
  ['src/views', 'the flows (src/flows.ts)', "import { x } from '../flows';"],
  ['src/views', 'a flow group (src/flows/)', "import { x } from '../flows/account';"],
  ['src/views', 'the runtime (src/runtime.ts)', "import { x } from '../runtime';"],
  ['server', 'the router (src/router.tsx)', "import { x } from '../src/router';"],
  ['server', 'a route file (src/routes)', "import { x } from '../src/routes/marketplace';"],
  ['server', 'the page renderer (src/entry-server.tsx)', "import { x } from '../src/entry-server';"],
];

// A probe with an allowed import: it proves a probe alone trips no rule.
const allowed: [string, string] = ['domain', "import { x } from './money';"];

describe('import rules', () => {
  let found: string[][] = [];
  beforeAll(async () => {
    found = await lintProbes(
      'lint/style/noRestrictedImports',
      [...forbidden.map(([folder, , source]) => [folder, source] as const), allowed].map(
        ([folder, source]) => [folder, `${source}\n\nexport const probe = x;\n`],
      ),
    );
  }, 60_000);

  it.each(forbidden.map((probe, i) => [...probe, i] as const))(
    '%s may not import %s',
    (_folder, _what, _source, i) => {
      expect(found[i]).toEqual(['lint/style/noRestrictedImports']);
    },
  );

  it('lets a probe with an allowed import through', () => {
    expect(found[forbidden.length]).toEqual([]);
  });
});

/** A function of `lines` lines (Biome counts its body), a blank line after each statement. */
const probeFunction = (lines: number) =>
  `export function probe() {\n${Array.from({ length: lines }, (_, i) => `  console.log(${i});\n`).join('\n')}}\n`;

/**
 * A machine's config of `states` states, one line each: one expression (an object literal), not a
 * function, so the rule does not count it, however long.
 */
const probeMachine = (states: number) =>
  `export const probe = setup({}).createMachine({\n  states: {\n${Array.from({ length: states }, (_, i) => `    s${i}: {},\n`).join('')}  },\n});\n`;

const longFunction = 'lint/complexity/noExcessiveLinesPerFunction';
// The folders the rule holds: the server and the browser code.
const lengthFolders = ['server', 'src', 'machines', 'domain'];

describe('the function length rule (biome.json: server, src, machines, domain)', () => {
  let found: string[][] = [];
  beforeAll(async () => {
    found = await lintProbes(longFunction, [
      ...lengthFolders.flatMap((folder) => [
        [folder, probeFunction(81)] as [string, string],
        [folder, probeFunction(80)] as [string, string],
      ]),
      ['machines', probeMachine(100)],
    ]);
  }, 60_000);

  it.each(lengthFolders.map((folder, i) => [folder, i] as const))(
    'refuses a function over 80 lines in %s/',
    (_folder, i) => {
      expect(found[2 * i]).toEqual([longFunction]);
    },
  );

  it.each(lengthFolders.map((folder, i) => [folder, i] as const))(
    'lets one of 80 lines through in %s/, its blank lines not counted',
    (_folder, i) => {
      expect(found[2 * i + 1]).toEqual([]);
    },
  );

  it("counts a machine's config as no function, however long", () => {
    expect(found[2 * lengthFolders.length]).toEqual([]);
  });
});
