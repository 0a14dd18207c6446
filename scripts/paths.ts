/**
 * `npm run paths -- <machine>`: the paths that xstate/graph generates for a machine (the ones its
 * path tests run), one per line of events, each step with the state it reaches. The machine's model
 * (model-tests/<machine>.model.ts) supplies scenarios, events and fakes; a machine without one gets
 * a model read from its definition: every event it handles (without payloads), its actors' done and
 * error events and its delays, from one scenario with no input.
 *
 * `npm run paths -- <machine> --write` writes that model and a path test beside the others
 * (model-tests/<machine>.model.ts and .test.ts), ready to fill with payloads and scenarios; it
 * never overwrites a file. See docs/testing.md.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode, EventObject, StateValue } from 'xstate';
import { allMachines } from '../machines';
import { generatePaths, type MachineModel } from '../model-tests/harness';

const args = process.argv.slice(2);
const name = args.find((a) => !a.startsWith('--'));
const write = args.includes('--write');
const ids = allMachines.map((m) => m.id).sort();
const machine = allMachines.find((m) => m.id === name);
if (!machine) {
  console.error(
    `${name ? `No machine "${name}".` : 'Name a machine.'} Usage: npm run paths -- <machine> [--write]\nMachines: ${ids.join(', ')}`,
  );
  process.exit(1);
}

/** What a machine's definition tells about its events: user events, actors, delays. */
function readDefinition(m: AnyStateMachine) {
  const events = new Set<string>();
  const actors = new Set<string>();
  const visit = (node: AnyStateNode) => {
    for (const type of node.transitions.keys()) events.add(type);
    for (const invoke of node.invoke) if (typeof invoke.src === 'string') actors.add(invoke.id ?? invoke.src);
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(m.root);
  const user = [...events].filter((t) => !t.startsWith('xstate.') && t !== '*').sort();
  const internal = [...events].filter((t) => t.startsWith('xstate.after.') || t.includes('.actor.')).sort();
  return { user, internal, actors: [...actors].sort() };
}

/** The event object a model offers for an event type: actor results carry an output or an error. */
function eventFor(type: string): EventObject {
  if (type.startsWith('xstate.done.actor.')) return { type, output: undefined } as EventObject;
  if (type.startsWith('xstate.error.actor.')) return { type, error: new Error('failed') } as EventObject;
  return { type };
}

function modelFromDefinition(m: AnyStateMachine): MachineModel<AnyStateMachine> {
  const { user, internal, actors } = readDefinition(m);
  const offered = [...user, ...internal].map(eventFor);
  return {
    machine: m,
    fakes: actors,
    scenarios: [{ name: 'start', input: {} }],
    events: () => offered,
    serializeState: (s) => JSON.stringify(s.value),
  };
}

async function findModel(m: AnyStateMachine): Promise<MachineModel<AnyStateMachine> | null> {
  const file = join('model-tests', `${m.id}.model.ts`);
  if (!existsSync(file)) return null;
  const exported = (await import(join('..', file))) as Record<string, unknown>;
  const model = Object.values(exported).find(
    (value) => typeof value === 'object' && value !== null && (value as { machine?: unknown }).machine === m,
  );
  return (model as MachineModel<AnyStateMachine> | undefined) ?? null;
}

/** A state value as dotted paths: `loggedIn.profile.ready, loggedIn.renewal.waiting`. */
function stateText(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .flatMap(([key, inner]) =>
      stateText(inner as StateValue)
        .split(', ')
        .map((part) => (part ? `${key}.${part}` : key)),
    )
    .join(', ');
}

/** An event as a path line shows it: its type, and its payload in short. */
function eventText(event: EventObject): string {
  const { type, ...payload } = event as EventObject & Record<string, unknown>;
  const keys = Object.keys(payload);
  if (keys.length === 0) return type;
  const short = JSON.stringify(payload, (_, v) => (v instanceof Error ? `Error(${v.message})` : v));
  return `${type} ${short.length > 80 ? `${short.slice(0, 77)}…` : short}`;
}

async function main(m: AnyStateMachine) {
  const model = await findModel(m);
  if (write) return writeTemplate(m, model);
  const used = model ?? modelFromDefinition(m);
  console.log(
    model
      ? `${m.id}: paths from model-tests/${m.id}.model.ts`
      : `${m.id}: no model-tests/${m.id}.model.ts; paths from the definition (events without payloads, one scenario without input)`,
  );
  const paths = generatePaths(used);
  paths.forEach((path, i) => {
    console.log(`\n${i + 1}. ${path.description}`);
    const first = path.steps[0]?.state as AnyMachineSnapshot | undefined;
    if (!first) return;
    for (const step of path.steps) {
      console.log(`   ${eventText(step.event).padEnd(48)} → ${stateText(step.state.value as StateValue)}`);
    }
  });
  console.log(`\n${paths.length} paths`);
}

/** The export name and file of the machine: the file in machines/ that exports it. */
async function machineSource(m: AnyStateMachine) {
  for (const file of readdirSync('machines').filter((f) => f.endsWith('.ts') && f !== 'index.ts')) {
    const exported = (await import(`../machines/${file}`)) as Record<string, unknown>;
    const entry = Object.entries(exported).find(([, value]) => value === m);
    if (entry) return { exportName: entry[0], module: file.replace(/\.ts$/, '') };
  }
  throw new Error(`No file in machines/ exports the machine "${m.id}"`);
}

async function writeTemplate(m: AnyStateMachine, existing: MachineModel<AnyStateMachine> | null) {
  const modelFile = join('model-tests', `${m.id}.model.ts`);
  const testFile = join('model-tests', `${m.id}.test.ts`);
  if (existing || existsSync(modelFile) || existsSync(testFile)) {
    console.error(`${modelFile} or ${testFile} exists already: nothing written.`);
    process.exit(1);
  }
  const { exportName, module } = await machineSource(m);
  const { user, internal, actors } = readDefinition(m);
  const modelName = `${m.id}Model`;
  const line = (type: string) =>
    type.startsWith('xstate.done.actor.')
      ? `    { type: '${type}', output: undefined },`
      : type.startsWith('xstate.error.actor.')
        ? `    { type: '${type}', error: new Error('failed') },`
        : `    { type: '${type}' },`;
  writeFileSync(
    modelFile,
    `import { ${exportName} } from '../machines/${module}';
import type { MachineModel } from './harness';

/**
 * The ${m.id} machine's model for its path tests: give each user event the payloads worth walking
 * (one per case the machine tells apart), each actor a real output, and a scenario per input.
 */
export const ${modelName}: MachineModel<typeof ${exportName}> = {
  machine: ${exportName},
  fakes: [${actors.map((a) => `'${a}'`).join(', ')}],
  scenarios: [{ name: 'start', input: {} }],
  events: () => [
${[...user, ...internal].map(line).join('\n')}
  ],
};
`,
  );
  writeFileSync(
    testFile,
    `import { afterAll, describe, expect, it } from 'vitest';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { ${modelName} } from './${m.id}.model';

describe('${m.id} machine paths', () => {
  const paths = generatePaths(${modelName});
  it('generates paths', () => expect(paths.length).toBeGreaterThan(0));
  for (const path of paths) it(path.description, () => runPath(${modelName}, path));
  afterAll(() => flushCoverage('machine'));
});
`,
  );
  console.log(`wrote ${modelFile} and ${testFile}`);
}

await main(machine);
