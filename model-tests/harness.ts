import {
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  createActor,
  type EventObject,
  fromPromise,
  type InspectionEvent,
  SimulatedClock,
  type Snapshot,
  type SnapshotFrom,
} from 'xstate';
import { TestModel } from 'xstate/graph';
import { recordTransition } from './coverage-store';
import { transitionKey } from './transitions';

/**
 * Path tests generated from a machine with xstate/graph (see docs/testing.md).
 *
 * Outside work is named in setup() and swapped here for controllable fakes: a promise actor whose
 * result is the path's `xstate.done.actor.<id>` / `xstate.error.actor.<id>` event. Delays run on a
 * SimulatedClock: an `xstate.after.<delay>.<state>` step advances the clock. Every transition taken
 * is recorded from `@xstate.microstep` inspection events for the coverage report.
 *
 * In a view run (`perform` given) every user event must be performed through the view: a missing
 * control, a disabled one or one that raises no transition on the event fails the step. Only the
 * start, actor outcomes, delays and the view test's listed `viewless` events are the harness's to run.
 */

/** Promise actors whose outcome the path decides. Convention: invoke id === actor src name. */
export class FakeActors {
  private waiting = new Map<string, Array<{ resolve: (v: unknown) => void; reject: (e: unknown) => void }>>();
  readonly calls: Array<{ name: string; input: unknown }> = [];

  constructor(readonly names: readonly string[]) {}

  implementations() {
    return Object.fromEntries(
      this.names.map((name) => [
        name,
        fromPromise(
          ({ input }) =>
            new Promise((resolve, reject) => {
              this.calls.push({ name, input });
              const list = this.waiting.get(name) ?? [];
              list.push({ resolve, reject });
              this.waiting.set(name, list);
            }),
        ),
      ]),
    );
  }

  settle(name: string, outcome: { output: unknown } | { error: unknown }) {
    const list = this.waiting.get(name);
    const next = list?.pop();
    if (!next) throw new Error(`No running "${name}" actor to settle`);
    list!.length = 0;
    if ('output' in outcome) next.resolve(outcome.output);
    else next.reject(outcome.error);
  }
}

export interface Scenario<TInput> {
  name: string;
  input?: TInput;
}

export interface MachineModel<TMachine extends AnyStateMachine> {
  machine: TMachine;
  /** Names of promise actors to fake (each invoke's id equals its src). */
  fakes?: readonly string[];
  /** Other implementations for the test run (guards that read the world, etc.). */
  provide?: Parameters<TMachine['provide']>[0];
  scenarios: Scenario<unknown>[];
  /** Events to explore from a state: user events plus actor outcomes and delays. */
  events: (snapshot: AnyMachineSnapshot) => EventObject[];
  /**
   * What makes two snapshots the same state for the graph, and what each step checks against the
   * live actor. Defaults to state value plus context; keep it finite.
   */
  serializeState?: (snapshot: AnyMachineSnapshot) => string;
  /**
   * What the rules say must hold in each state, written without the chart (see `Expectations`).
   * `runPath` checks them on the live actor after every step; `missingExpectations` names the
   * states none covers.
   */
  expect?: Expectations<TMachine>;
}

/** What a state's expectation sees: the live actor after a step and what led there. */
export interface Observed<TMachine extends AnyStateMachine> {
  /** The live actor's snapshot (never the graph's). */
  snapshot: SnapshotFrom<TMachine>;
  /** Every call of a faked actor so far, in order, with its input. */
  calls: FakeActors['calls'];
  /** The event of the step just taken (`xstate.init` after the start). */
  event: EventObject & Record<string, unknown>;
  /** The live snapshot before that step (the start's own snapshot for `xstate.init`). */
  before: SnapshotFrom<TMachine>;
  /** Every step's event so far, this one included. */
  history: Array<EventObject & Record<string, unknown>>;
}

/**
 * Expectations written from the rules, by state: the key is a state's path (`editing.name`; a
 * compound state's key holds for every state inside it) or a tag (`#busy`, for a rule shared by
 * every state carrying it). After every step, every expectation whose state is active or whose tag
 * the snapshot has runs (they throw, e.g. with vitest's `expect`, when a rule is broken).
 */
export type Expectations<TMachine extends AnyStateMachine> = Record<
  string,
  (observed: Observed<TMachine>) => void
>;

/** Key of a state node as expectations name it: its path from the root, joined with dots. */
const statePath = (node: AnyStateNode) => node.path.join('.');

/** Every active state's path and `#tag` of a snapshot, the keys whose expectations apply. */
function activeKeys(snapshot: AnyMachineSnapshot): string[] {
  const nodes = (snapshot as unknown as { _nodes: AnyStateNode[] })._nodes;
  return [
    ...nodes.filter((n) => n.path.length > 0).map(statePath),
    ...[...snapshot.tags].map((t) => `#${t}`),
  ];
}

/** Runs the expectations that apply to the live snapshot; a broken rule names the key and the step. */
export function checkExpectations<TMachine extends AnyStateMachine>(
  expectations: Expectations<TMachine>,
  observed: Observed<TMachine>,
  where: string,
) {
  for (const key of activeKeys(observed.snapshot as AnyMachineSnapshot)) {
    const rule = expectations[key];
    if (!rule) continue;
    try {
      rule(observed);
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      throw new Error(`Expectation "${key}" broken after ${where}: ${message}`, { cause });
    }
  }
}

/**
 * The gate: every leaf state of the model's machine that an actor can rest in must be covered by an
 * expectation (its own path, a compound state's around it, or a tag it or a state around it
 * carries), and every key must name a state or a tag of the machine. Returns one line per problem.
 */
export function missingExpectations(model: MachineModel<AnyStateMachine>): string[] {
  const expectations = model.expect ?? {};
  const problems: string[] = [];
  const paths = new Set<string>();
  const tags = new Set<string>();
  const visit = (node: AnyStateNode, around: AnyStateNode[]) => {
    const chain = [...around, node];
    if (node.path.length > 0) paths.add(statePath(node));
    for (const t of node.tags) tags.add(t);
    const children = Object.values(node.states) as AnyStateNode[];
    // A state that always leaves at once (an unguarded eventless transition) is never observed.
    const passing = (node.always ?? []).some((t: { guard?: unknown }) => !t.guard);
    if (children.length === 0 && node.type !== 'history' && !passing) {
      const covered = chain.some(
        (n) =>
          (n.path.length > 0 && statePath(n) in expectations) ||
          n.tags.some((t: string) => `#${t}` in expectations),
      );
      if (!covered) problems.push(`${model.machine.id}: state "${statePath(node)}" has no expectation`);
    }
    for (const child of children) visit(child, chain);
  };
  visit(model.machine.root, []);
  for (const key of Object.keys(expectations)) {
    const known = key.startsWith('#') ? tags.has(key.slice(1)) : paths.has(key);
    if (!known)
      problems.push(`${model.machine.id}: expectation "${key}" names no state or tag of the machine`);
  }
  return problems;
}

export interface PathStep {
  event: EventObject;
  state: AnyMachineSnapshot;
}
export interface GeneratedPath {
  scenario: Scenario<unknown>;
  description: string;
  steps: PathStep[];
}

/** Above this many distinct states, only shortest-path-plus-edge paths are generated. */
export const SIMPLE_PATHS_MAX_STATES = 10;

const describeEvent = (e: EventObject) => e.type;

function serializeDefault(s: AnyMachineSnapshot) {
  return JSON.stringify({ v: s.value, c: s.context });
}

/**
 * Paths that together take every transition the traversal can reach: the shortest path to each
 * state, then one step along each edge out of it. Paths that are prefixes of others are dropped.
 */
export function generatePaths<TMachine extends AnyStateMachine>(
  model: MachineModel<TMachine>,
): GeneratedPath[] {
  const out: GeneratedPath[] = [];
  const machine = model.provide ? model.machine.provide(model.provide as never) : model.machine;
  for (const scenario of model.scenarios) {
    const serializeState = (s: AnyMachineSnapshot) => (model.serializeState ?? serializeDefault)(s);
    const testModel = new TestModel(machine, {
      events: (s: AnyMachineSnapshot) => model.events(s).filter((e) => s.can(e)),
      serializeState: serializeState as never,
      input: scenario.input,
    } as never);
    const shortest = new Map<string, PathStep[]>();
    for (const p of testModel.getShortestPaths({ allowDuplicatePaths: true })) {
      shortest.set(serializeState(p.state as AnyMachineSnapshot), p.steps as unknown as PathStep[]);
    }
    const candidates: PathStep[][] = [];
    const adjacency = testModel.getAdjacencyMap();
    for (const [key, adj] of Object.entries(adjacency)) {
      const prefix = shortest.get(key);
      if (!prefix) continue;
      for (const edge of Object.values(adj.transitions) as Array<{ event: unknown; state: unknown }>) {
        candidates.push([
          ...prefix,
          { event: edge.event as EventObject, state: edge.state as AnyMachineSnapshot },
        ]);
      }
    }
    // Simple paths add longer journeys through the same graph; their number grows factorially with
    // the graph, so they are generated only for small graphs.
    if (Object.keys(adjacency).length <= SIMPLE_PATHS_MAX_STATES) {
      for (const p of testModel.getSimplePaths()) candidates.push(p.steps as unknown as PathStep[]);
    }
    const sig = (steps: PathStep[]) => steps.map((s) => JSON.stringify(s.event)).join('\n');
    const sigs = candidates.map(sig);
    const unique = [...new Map(candidates.map((c, i) => [sigs[i]!, c])).values()];
    const kept = unique.filter((c) => {
      const s = sig(c);
      return !unique.some((o) => o !== c && o.length > c.length && sig(o).startsWith(`${s}\n`));
    });
    for (const steps of kept) {
      out.push({
        scenario,
        steps,
        description: `${scenario.name}: ${steps.map((s) => describeEvent(s.event)).join(' → ') || '(initial)'}`,
      });
    }
  }
  return out;
}

/**
 * What a path takes on the machine itself: the key of every transition (as the coverage gate counts
 * them) and every state value, found by replaying its events with `machine.transition` and reading
 * the `@xstate.microstep` inspection events. Transitions of invoked child machines are not included
 * (their own models cover them).
 */
export function footprint(
  machine: AnyStateMachine,
  scenario: Scenario<unknown>,
  steps: PathStep[],
): Set<string> {
  const taken = new Set<string>();
  const self = createActor(
    fromPromise(async () => undefined),
    {
      inspect: (ev) => {
        if (ev.type !== '@xstate.microstep' || ev.actorRef !== self) return;
        for (const t of (ev as unknown as { _transitions: never[] })._transitions)
          taken.add(transitionKey(t));
      },
    },
  );
  const scope = {
    self,
    logger: () => {},
    id: '',
    sessionId: 'footprint',
    defer: () => {},
    system: self.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as never;
  let snapshot = machine.getInitialSnapshot(scope, scenario.input) as Snapshot<unknown>;
  taken.add(`state ${JSON.stringify((snapshot as AnyMachineSnapshot).value)}`);
  for (const step of steps) {
    snapshot = machine.transition(snapshot as never, step.event, scope) as Snapshot<unknown>;
    taken.add(`state ${JSON.stringify((snapshot as AnyMachineSnapshot).value)}`);
  }
  return taken;
}

/**
 * The fewest of `generatePaths`'s paths (greedy set cover, per scenario) that still take every
 * transition and reach every state value they take together. For view runs: a browser-like render
 * costs milliseconds per step, and the context variants of one transition (every field value the
 * graph tried) add time without exercising another control. The logic runs keep every path.
 */
export function coveringPaths<TMachine extends AnyStateMachine>(
  model: MachineModel<TMachine>,
): GeneratedPath[] {
  const machine = model.provide ? model.machine.provide(model.provide as never) : model.machine;
  const out: GeneratedPath[] = [];
  const all = generatePaths(model);
  for (const scenario of model.scenarios) {
    const candidates = all
      .filter((p) => p.scenario === scenario)
      .map((path) => ({ path, takes: footprint(machine, scenario, path.steps) }));
    const left = new Set(candidates.flatMap((c) => [...c.takes]));
    while (left.size > 0) {
      let best = candidates[0]!;
      let gain = -1;
      for (const c of candidates) {
        let g = 0;
        for (const k of c.takes) if (left.has(k)) g++;
        if (g > gain || (g === gain && c.path.steps.length < best.path.steps.length)) {
          best = c;
          gain = g;
        }
      }
      out.push(best.path);
      for (const k of best.takes) left.delete(k);
    }
  }
  return out;
}

/**
 * Events the harness performs itself in every run: the actor's start, the outcomes of its invoked
 * (faked) actors and its timers. Everything else is a user event.
 */
export function isUserEvent(type: string): boolean {
  return !(
    type === 'xstate.init' ||
    type.startsWith('xstate.after.') ||
    type.startsWith('xstate.done.actor.') ||
    type.startsWith('xstate.error.actor.')
  );
}

/**
 * A user event that the view under test legitimately has no control for (sent by a parent, the
 * router or a listener elsewhere, or a no-op the browser never raises). The harness sends it to the
 * actor directly; every entry says why.
 */
export interface ViewlessEvent {
  /** The event type. */
  event: string;
  /** Which steps of that type it covers (default: all); `before` is the live snapshot before the step. */
  when?: (event: EventObject & Record<string, unknown>, before: AnyMachineSnapshot) => boolean;
  /** Why no control of this view raises it. */
  reason: string;
}

export interface RunOptions {
  /**
   * Performs a user event through another surface (e.g. the React view) and returns true. A view run
   * has no fallback: returning false (no control on screen for the event) or throwing fails the step,
   * and so does a control that raises no transition on the event. Actor outcomes and delays never
   * reach `perform`; the harness executes them.
   */
  perform?: (step: PathStep, actor: AnyActorRef) => boolean | Promise<boolean>;
  /** User events this surface legitimately has no control for; the harness sends them directly. */
  viewless?: readonly ViewlessEvent[];
  /** Checks the surface after each step. */
  check?: (expected: AnyMachineSnapshot, actor: AnyActorRef) => void | Promise<void>;
  /** Called once the actor exists, before it starts. */
  mount?: (actor: AnyActorRef) => void | Promise<void>;
  unmount?: () => void;
  /**
   * Wraps the harness's part of every step (React's act() for view runs): the actor's start, actor
   * outcomes, timers, viewless events and the settling after a performed user event. `perform` runs
   * outside it, so that each gesture renders before the next (wrap raw DOM calls there in act()).
   */
  wrap?: (step: () => Promise<void>) => Promise<void>;
}

/** Viewless entries that matched at least one step (see `unusedViewless`). */
const usedViewless = new WeakSet<ViewlessEvent>();

/** The entries of `list` no step has used: a stale exception should go. */
export function unusedViewless(list: readonly ViewlessEvent[]): string[] {
  return list.filter((v) => !usedViewless.has(v)).map((v) => `${v.event}: ${v.reason}`);
}

function findViewless(
  list: readonly ViewlessEvent[] | undefined,
  event: EventObject,
  before: AnyMachineSnapshot,
) {
  const found = list?.find(
    (v) =>
      v.event === event.type && (v.when?.(event as EventObject & Record<string, unknown>, before) ?? true),
  );
  if (found) usedViewless.add(found);
  return found;
}

/** Records every transition taken by any machine actor (the root or machines it spawns). */
export function recordMicrosteps(ev: InspectionEvent) {
  if (ev.type !== '@xstate.microstep') return;
  const machineId = (ev.actorRef as unknown as { logic?: { id?: string } }).logic?.id;
  if (!machineId) return;
  for (const t of (ev as unknown as { _transitions: never[] })._transitions)
    recordTransition(machineId, transitionKey(t));
}

export const flush = () => new Promise<void>((r) => setTimeout(r, 0));

/** Runs one generated path against a live actor with fakes and a simulated clock. */
export async function runPath<TMachine extends AnyStateMachine>(
  model: MachineModel<TMachine>,
  path: GeneratedPath,
  options: RunOptions = {},
): Promise<void> {
  const fakes = new FakeActors(model.fakes ?? []);
  const provided = model.machine.provide({
    ...(model.provide as object),
    actors: { ...((model.provide as { actors?: object })?.actors ?? {}), ...fakes.implementations() },
  } as never);
  const clock = new SimulatedClock();
  // Event types on which the root actor took a transition during the current step.
  const raised: string[] = [];
  let root: AnyActorRef | undefined;
  const actor: AnyActorRef = createActor(provided as AnyStateMachine, {
    input: path.scenario.input,
    clock,
    inspect: (ev) => {
      recordMicrosteps(ev);
      if (ev.type === '@xstate.microstep' && ev.actorRef === root) {
        const transitions = (ev as unknown as { _transitions: unknown[] })._transitions;
        if (transitions.length > 0) raised.push(ev.event.type);
      }
    },
  });
  root = actor;
  const wrap = options.wrap ?? ((fn: () => Promise<void>) => fn());
  await options.mount?.(actor);
  await wrap(async () => {
    actor.start();
    await flush();
  });
  try {
    for (const [index, step] of path.steps.entries()) {
      const where = `step ${index + 1} (${step.event.type}) of "${path.description}"`;
      const before = actor.getSnapshot() as AnyMachineSnapshot;
      const throughView =
        !!options.perform &&
        isUserEvent(step.event.type) &&
        !findViewless(options.viewless, step.event, before);
      raised.length = 0;
      // A user's gestures are not wrapped: each (a testing-library event, its own act()) renders
      // before the next, as in a browser; the wrap then settles what they started.
      if (throughView) await performThroughView(options.perform!, step, actor, where);
      await wrap(async () => {
        if (!throughView) await execute(step.event, actor, fakes, clock);
        await flush();
      });
      if (throughView && !raised.includes(step.event.type)) {
        throw new Error(
          `The view did not raise user event "${step.event.type}" at ${where}: performing its control ` +
            `took no transition on it (a disabled control, or a handler that sends something else?)`,
        );
      }
      const actual = actor.getSnapshot() as AnyMachineSnapshot;
      const serialize = model.serializeState ?? serializeDefault;
      if (serialize(actual) !== serialize(step.state)) {
        throw new Error(`Snapshot ${serialize(actual)} ≠ expected ${serialize(step.state)} after ${where}`);
      }
      if (model.expect) {
        const history = path.steps.slice(0, index + 1).map((s) => s.event);
        const observed = { snapshot: actual, calls: fakes.calls, event: step.event, before, history };
        checkExpectations(model.expect, observed as never, where);
      }
      await options.check?.(step.state, actor);
    }
  } finally {
    actor.stop();
    options.unmount?.();
  }
}

/** A user event in a view run: through its control, or the step fails. */
async function performThroughView(
  perform: NonNullable<RunOptions['perform']>,
  step: PathStep,
  actor: AnyActorRef,
  where: string,
) {
  let performed: boolean;
  try {
    performed = await perform(step, actor);
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    const text = `Could not perform user event "${step.event.type}" through the view at ${where}: ${message}`;
    throw new Error(text, { cause });
  }
  if (performed !== true) {
    throw new Error(
      `No control in the view for user event "${step.event.type}" at ${where}. Add the control to the ` +
        `view, or list the event in the view test's viewless events with the reason it has none.`,
    );
  }
}

async function execute(event: EventObject, actor: AnyActorRef, fakes: FakeActors, clock: SimulatedClock) {
  const { type } = event;
  if (type === 'xstate.init') return; // the path's first step: the actor has started already
  if (type.startsWith('xstate.after.')) {
    advanceToNextTimer(clock);
  } else if (type.startsWith('xstate.done.actor.')) {
    fakes.settle(type.slice('xstate.done.actor.'.length), { output: (event as { output?: unknown }).output });
  } else if (type.startsWith('xstate.error.actor.')) {
    fakes.settle(type.slice('xstate.error.actor.'.length), { error: (event as { error?: unknown }).error });
  } else {
    actor.send(event);
  }
}

/** Moves the simulated clock to the earliest pending timer, firing it. */
function advanceToNextTimer(clock: SimulatedClock) {
  const timeouts = (clock as unknown as { timeouts: Map<number, { start: number; timeout: number }> })
    .timeouts;
  const ends = [...timeouts.values()].map((t) => t.start + t.timeout);
  if (ends.length === 0) throw new Error('A delayed transition was expected but no timer is pending');
  clock.set(Math.max(clock.now(), Math.min(...ends)));
}
