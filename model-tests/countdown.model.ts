import { countdownMachine } from '../machines/countdown';
import type { MachineModel } from './harness';

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
};
