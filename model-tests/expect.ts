import { expect } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import type { Observed } from './harness';

/** Helpers for the rule-written expectations of the models (see `Expectations` in harness.ts). */

/** The inputs of every call of the faked actor `name` so far. */
export const inputsOf = (o: Observed<AnyStateMachine>, name: string) =>
  o.calls.filter((c) => c.name === name).map((c) => c.input);

/** The state is doing `name`'s work: it is the last service called, with this input. */
export function expectWorking(o: Observed<AnyStateMachine>, name: string, input?: unknown) {
  const last = o.calls.at(-1);
  expect(last?.name, `the last service called is ${name}`).toBe(name);
  if (input !== undefined) expect(last?.input).toEqual(input);
}

/** `name` was called at least once so far (with this input when given). */
export function expectCalled(o: Observed<AnyStateMachine>, name: string, input?: unknown) {
  const inputs = inputsOf(o, name);
  expect(inputs.length, `${name} was called`).toBeGreaterThan(0);
  if (input !== undefined) expect(inputs.at(-1)).toEqual(input);
}

/** `name` was never called. */
export function expectNotCalled(o: Observed<AnyStateMachine>, name: string) {
  expect(inputsOf(o, name), `${name} was not called`).toEqual([]);
}

/** The step was this actor's outcome (`done` or `error`). */
export const after = (o: Observed<AnyStateMachine>, outcome: 'done' | 'error', name: string) =>
  o.event.type === `xstate.${outcome}.actor.${name}`;

/** The machine ended with this output. */
export function expectOutput(o: Observed<AnyStateMachine>, output: unknown) {
  expect(o.snapshot.status).toBe('done');
  expect(o.snapshot.output).toEqual(output);
}

/** How many steps so far were this actor's outcome. */
export const outcomes = (o: Observed<AnyStateMachine>, outcome: 'done' | 'error', name: string) =>
  o.history.filter((e) => e.type === `xstate.${outcome}.actor.${name}`).length;

/** The events of this type so far, the last one last. */
export const eventsOf = (o: Observed<AnyStateMachine>, type: string) =>
  o.history.filter((e) => e.type === type);

/** Whether this step entered the state at `path` (it was not active before). */
export function entered(o: Observed<AnyStateMachine>, path: string) {
  const active = (s: unknown) =>
    (s as { _nodes: Array<{ path: string[] }> })._nodes.some((n) => n.path.join('.') === path);
  return active(o.snapshot) && !active(o.before);
}
