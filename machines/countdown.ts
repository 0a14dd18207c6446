import { assign, type SnapshotFrom, setup } from 'xstate';
import { timings } from '#domain/constants';
import { countdownText, remainingUntil } from '#domain/countdown';

/**
 * A blueprint's countdown: before its availableTime it counts down, ticking every second; then it
 * shows "Live" when the blueprint can be bought (available), else "Pending". Its output is how it
 * ended ('live' or 'pending').
 *
 * `remaining` is computed once at start from `input.now` and, on each `tick`, the named action
 * `elapse` takes the tick's length off it: deterministic, so the model-based tests run it on a simulated clock.
 * In the browser, `withWallClock(Date.now)` replaces `elapse` with a re-read of the clock, so a tab
 * whose timers were throttled in the background catches up on its next tick.
 */
export interface CountdownInput {
  /** When the drop goes live (ms since epoch); null: it already is. */
  availableTime: number | null;
  /** The blueprint can be bought once live (its state is available/active). */
  available: boolean;
  /** The current time (ms since epoch); defaults to Date.now(). */
  now?: number;
}
export interface CountdownContext {
  availableTime: number | null;
  available: boolean;
  /** Milliseconds until availableTime; ≤ 0 once it has passed. */
  remaining: number;
}
export type CountdownState = 'counting' | 'live' | 'pending';
/** How a countdown ended. */
export type CountdownOutput = 'live' | 'pending';

/** Milliseconds until the text changes: the shown seconds round up, so it changes on whole seconds. */
export function untilNextSecond(remaining: number): number {
  const tick = timings.countdownTickMs;
  return ((((remaining - 1) % tick) + tick) % tick) + 1;
}

export const countdownMachine = setup({
  types: {
    context: {} as CountdownContext,
    input: {} as CountdownInput,
    output: {} as CountdownOutput,
  },
  guards: {
    liveNow: ({ context }) => context.remaining <= 0 && context.available,
    pendingNow: ({ context }) => context.remaining <= 0 && !context.available,
  },
  actions: {
    /** One tick has passed. */
    elapse: assign({ remaining: ({ context }) => context.remaining - untilNextSecond(context.remaining) }),
  },
  delays: {
    /** Every 1000 ms, on the boundaries where the shown second changes (the first tick may be shorter). */
    tick: ({ context }) => untilNextSecond(context.remaining),
  },
}).createMachine({
  id: 'countdown',
  context: ({ input }) => ({
    availableTime: input.availableTime,
    available: input.available,
    remaining: remainingUntil(input.availableTime, input.now ?? Date.now()),
  }),
  initial: 'counting',
  output: ({ event }) => event.output as CountdownOutput,
  states: {
    counting: {
      always: [
        { guard: 'liveNow', target: 'live' },
        { guard: 'pendingNow', target: 'pending' },
      ],
      after: { tick: { target: 'counting', reenter: true, actions: 'elapse' } },
    },
    live: { type: 'final', output: 'live' },
    pending: { type: 'final', output: 'pending' },
  },
});

export interface CountdownView {
  phase: CountdownState;
  /** The time left ("02:13:09", "5 days") while counting, then "Live" or "Pending". */
  text: string;
  /** When it goes live (ISO), while counting. */
  dateTime: string | null;
}

export function connectCountdown(snapshot: SnapshotFrom<typeof countdownMachine>): CountdownView {
  const { context } = snapshot;
  const phase: CountdownState = snapshot.matches('live')
    ? 'live'
    : snapshot.matches('pending')
      ? 'pending'
      : 'counting';
  return {
    phase,
    text: phase === 'counting' ? countdownText(context.remaining) : phase === 'live' ? 'Live' : 'Pending',
    dateTime:
      phase === 'counting' && context.availableTime !== null
        ? new Date(context.availableTime).toISOString()
        : null,
  };
}

/** The countdown for the browser: each tick re-reads `now()` instead of counting ticks. */
export function withWallClock(now: () => number) {
  return countdownMachine.provide({
    actions: {
      elapse: assign({ remaining: ({ context }) => remainingUntil(context.availableTime, now()) }),
    },
  });
}
