/**
 * `npm run diagrams`: one statechart diagram per machine, generated from the machine definitions
 * (machines/index.ts), as Mermaid `stateDiagram-v2` in docs/machines/<id>.md (code hosts render
 * it). `npm run diagrams -- --check` writes nothing and fails when a diagram is missing, stale or
 * left over from a deleted machine: `npm test` runs it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { allMachines } from '../machines';

const DIR = 'docs/machines';

/** A Mermaid-safe id for a state node (its path, with only word characters). */
const nodeId = (node: AnyStateNode) => node.id.replace(/[^\w]/g, '_');

/** An event's label: `xstate.after.<delay>.<state>` reads "after <delay>", actor results "done/error <id>". */
function eventLabel(type: string): string {
  if (type === '') return 'always';
  const after = /^xstate\.after\.([^.]+)\./.exec(type);
  if (after) return `after ${after[1]}`;
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(type);
  if (actor) return `${actor[1]} ${actor[2]}`;
  const done = /^xstate\.done\.state\./.exec(type);
  if (done) return 'done';
  return type;
}

function guardLabel(t: AnyTransitionDefinition): string {
  const guard = t.guard as unknown;
  if (!guard) return '';
  if (typeof guard === 'string') return ` [${guard}]`;
  if (typeof guard === 'object' && guard && 'type' in guard) return ` [${String(guard.type)}]`;
  return ' [guard]';
}

/** Mermaid label text: no colon, semicolon, braces or quotes that would end it early. */
const clean = (text: string) => text.replace(/[:;{}"#]/g, ' ').trim();

/** A transition's line, drawn inside the innermost state that holds both its ends. */
interface Edge {
  scope: AnyStateNode;
  line: string;
}

/** The proper ancestors of a state node, innermost first. */
function ancestors(node: AnyStateNode): AnyStateNode[] {
  const out: AnyStateNode[] = [];
  for (let n = node.parent; n; n = n.parent) out.push(n);
  return out;
}

/** Every transition of the machine, from its source to each target (a self-loop without one). */
function edges(machine: AnyStateMachine): Edge[] {
  const out: Edge[] = [];
  const visit = (node: AnyStateNode) => {
    const transitions = [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
    for (const t of transitions) {
      const label = clean(`${eventLabel(t.eventType)}${guardLabel(t)}`);
      const targets = (t.target as AnyStateNode[] | undefined) ?? [node];
      for (const target of targets) {
        const around = new Set(ancestors(target));
        const scope = ancestors(node).find((a) => around.has(a)) ?? machine.root;
        out.push({ scope, line: `${nodeId(node)} --> ${nodeId(target)}: ${label}` });
      }
    }
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  return out;
}

function renderNode(node: AnyStateNode, indent: string, lines: string[], all: Edge[]): void {
  const children = Object.values(node.states) as AnyStateNode[];
  const id = nodeId(node);
  if (children.length === 0) {
    lines.push(`${indent}state "${node.key}" as ${id}`);
    return;
  }
  lines.push(`${indent}state "${node.key}" as ${id} {`);
  renderChildren(node, `${indent}  `, lines, all);
  lines.push(`${indent}}`);
}

/** The states inside `node`, its initial and final markers, and the transitions it holds. */
function renderChildren(node: AnyStateNode, indent: string, lines: string[], all: Edge[]): void {
  const children = Object.values(node.states) as AnyStateNode[];
  children.forEach((child, i) => {
    // The regions of a parallel state are separated by --.
    if (node.type === 'parallel' && i > 0) lines.push(`${indent}--`);
    renderNode(child, indent, lines, all);
  });
  if (node.type === 'compound' && node.initial) {
    for (const target of node.initial.target as AnyStateNode[])
      lines.push(`${indent}[*] --> ${nodeId(target)}`);
  }
  for (const child of children) {
    if (child.type === 'final') lines.push(`${indent}${nodeId(child)} --> [*]`);
  }
  for (const edge of all) if (edge.scope === node) lines.push(`${indent}${edge.line}`);
}

export function diagram(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  renderChildren(machine.root, '  ', lines, edges(machine));
  return [
    `# ${machine.id}`,
    '',
    `Generated from \`machines/\` by \`npm run diagrams\`; do not edit. \`npm test\` fails when it is out of date.`,
    '',
    '```mermaid',
    ...lines,
    '```',
    '',
  ].join('\n');
}

function index(machines: AnyStateMachine[]): string {
  return [
    '# Machines',
    '',
    'One statechart per machine, generated from the definitions in `machines/` by `npm run diagrams`.',
    '',
    ...machines.map((m) => `- [${m.id}](${m.id}.md)`),
    '',
  ].join('\n');
}

const check = process.argv.includes('--check');
const wanted = new Map<string, string>(allMachines.map((m) => [`${m.id}.md`, diagram(m)]));
wanted.set('README.md', index(allMachines));
const present = existsSync(DIR) ? readdirSync(DIR).filter((f) => f.endsWith('.md')) : [];
const problems: string[] = [];
for (const [file, text] of wanted) {
  const path = join(DIR, file);
  const current = existsSync(path) ? readFileSync(path, 'utf8') : null;
  if (current === text) continue;
  if (check) problems.push(`${path} is ${current === null ? 'missing' : 'out of date'}`);
  else {
    mkdirSync(DIR, { recursive: true });
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
  }
}
for (const file of present.filter((f) => !wanted.has(f))) {
  if (check) problems.push(`${join(DIR, file)} belongs to no machine`);
  else {
    rmSync(join(DIR, file));
    console.log(`removed ${join(DIR, file)}`);
  }
}
if (problems.length) {
  console.error(`${problems.join('\n')}\nRun \`npm run diagrams\` and commit docs/machines.`);
  process.exit(1);
}
if (check) console.log(`${wanted.size - 1} machine diagrams are up to date`);
