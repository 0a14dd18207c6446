import { expect } from 'vitest';
import { connectCountdown, countdownMachine } from '../machines/countdown';
import { expectOutput } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof countdownMachine>;
const view = (o: O) => connectCountdown(o.snapshot);
/** Milliseconds left at this step: ticks fall on second boundaries, the first one at the next. */
const left = (o: O) => {
  const input = o.snapshot.context;
  const start = input.availableTime === null ? 0 : Math.max(0, input.availableTime - COUNTDOWN_NOW);
  const ticks = o.history.filter((e) => e.type.startsWith('xstate.after.tick')).length;
  return ticks === 0 ? start : Math.max(0, (Math.ceil(start / 1000) - ticks) * 1000);
};

/** A fixed "now" for the scenarios: the countdown counts ticks from it on the simulated clock. */
export const COUNTDOWN_NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

export const countdownModel: MachineModel<typeof countdownMachine> = {
  machine: countdownMachine,
  // Small remaining times keep the graph finite (one state per tick); the day count above 99 hours
  // is checked by the unit tests and by a view test of the first screen.
  scenarios: [
    {
      name: 'available drop in 2 s',
      input: { availableTime: COUNTDOWN_NOW + 2000, available: true, now: COUNTDOWN_NOW },
    },
    {
      name: 'unavailable drop in 1.5 s',
      input: { availableTime: COUNTDOWN_NOW + 1500, available: false, now: COUNTDOWN_NOW },
    },
    {
      name: 'no availableTime, available',
      input: { availableTime: null, available: true, now: COUNTDOWN_NOW },
    },
    {
      name: 'past availableTime, unavailable',
      input: { availableTime: COUNTDOWN_NOW - 60_000, available: false, now: COUNTDOWN_NOW },
    },
  ],
  events: () => [{ type: 'xstate.after.tick.countdown.counting' }],
  serializeState: (s) => JSON.stringify([s.value, s.context.remaining]),
  expect: {
    // Ticks each second while time is left, showing it with its date.
    counting: (o) => {
      expect(left(o)).toBeGreaterThan(0);
      expect(o.snapshot.context.remaining).toBe(left(o));
      expect(view(o)).toMatchObject({
        phase: 'counting',
        dateTime: new Date(o.snapshot.context.availableTime!).toISOString(),
      });
    },
    // Then live when the drop is available, pending when it is not.
    live: (o) => {
      expect(left(o)).toBe(0);
      expect(o.snapshot.context.available).toBe(true);
      expect(view(o)).toMatchObject({ phase: 'live', text: 'Live' });
      expectOutput(o, 'live');
    },
    pending: (o) => {
      expect(left(o)).toBe(0);
      expect(o.snapshot.context.available).toBe(false);
      expect(view(o)).toMatchObject({ phase: 'pending', text: 'Pending' });
      expectOutput(o, 'pending');
    },
  },
};
