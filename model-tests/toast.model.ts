import { expect } from 'vitest';
import { toastMachine } from '../machines/toast';
import { expectOutput } from './expect';
import type { MachineModel } from './harness';

export const toastModel: MachineModel<typeof toastMachine> = {
  machine: toastMachine,
  scenarios: [
    { name: 'timed toast', input: { id: 'saved', text: 'Saved', duration: 4000 } },
    { name: 'sticky toast', input: { id: 'error', text: 'Something went wrong' } },
  ],
  events: () => [{ type: 'toast.dismiss' }, { type: 'xstate.after.toastDuration.toast.timed' }],
  expect: {
    // A toast without a duration stays until dismissed; one with a duration ends after it.
    shown: (o) => expect(o.snapshot.context.duration).toBeUndefined(),
    timed: (o) => expect(o.snapshot.context.duration).toBe(4000),
    gone: (o) => {
      if (o.event.type !== 'toast.dismiss')
        expect(o.event.type).toBe('xstate.after.toastDuration.toast.timed');
      expectOutput(o, { id: o.snapshot.context.id });
    },
  },
};
