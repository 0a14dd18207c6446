import {
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  createActor,
  type EventObject,
  fromPromise,
  type InspectionEvent,
  SimulatedClock,
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

export interface RunOptions {
  /** Performs a step through another surface (e.g. the React view); return false to fall back to the actor. */
  perform?: (step: PathStep, actor: AnyActorRef) => Promise<boolean>;
  /** Checks the surface after each step. */
  check?: (expected: AnyMachineSnapshot, actor: AnyActorRef) => void | Promise<void>;
  /** Called once the actor exists, before it starts. */
  mount?: (actor: AnyActorRef) => void | Promise<void>;
  unmount?: () => void;
  /** Wraps every step (React's act() for view runs). */
  wrap?: (step: () => Promise<void>) => Promise<void>;
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
  const actor: AnyActorRef = createActor(provided as AnyStateMachine, {
    input: path.scenario.input,
    clock,
    inspect: recordMicrosteps,
  });
  const wrap = options.wrap ?? ((fn: () => Promise<void>) => fn());
  await options.mount?.(actor);
  await wrap(async () => {
    actor.start();
    await flush();
  });
  try {
    for (const step of path.steps) {
      await wrap(async () => {
        const handled = options.perform ? await options.perform(step, actor) : false;
        if (!handled) await execute(step.event, actor, fakes, clock);
        await flush();
      });
      const actual = actor.getSnapshot() as AnyMachineSnapshot;
      const where = `after ${step.event.type} in "${path.description}"`;
      const serialize = model.serializeState ?? serializeDefault;
      if (serialize(actual) !== serialize(step.state)) {
        throw new Error(`Snapshot ${serialize(actual)} ≠ expected ${serialize(step.state)} ${where}`);
      }
      await options.check?.(step.state, actor);
    }
  } finally {
    actor.stop();
    options.unmount?.();
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
