import { setup } from 'xstate';

/**
 * One toast: a text with an optional duration, shown once per id. A timed toast ends itself
 * after its duration; the ui machine removes it when it ends or when the user dismisses it.
 */
export interface ToastInput {
  id: string;
  text: string;
  /** Milliseconds; without it the toast stays until dismissed. */
  duration?: number;
}

export const toastMachine = setup({
  types: {
    context: {} as ToastInput,
    input: {} as ToastInput,
    events: {} as { type: 'toast.dismiss' },
  },
  guards: {
    timed: ({ context }) => typeof context.duration === 'number',
  },
  delays: {
    toastDuration: ({ context }) => context.duration ?? 0,
  },
}).createMachine({
  id: 'toast',
  context: ({ input }) => input,
  output: ({ context }) => ({ id: context.id }),
  initial: 'shown',
  states: {
    shown: {
      always: { guard: 'timed', target: 'timed' },
      on: { 'toast.dismiss': 'gone' },
    },
    timed: {
      after: { toastDuration: 'gone' },
      on: { 'toast.dismiss': 'gone' },
    },
    gone: { type: 'final' },
  },
});
