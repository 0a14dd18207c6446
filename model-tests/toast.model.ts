import { toastMachine } from '../machines/toast';
import type { MachineModel } from './harness';

export const toastModel: MachineModel<typeof toastMachine> = {
  machine: toastMachine,
  scenarios: [
    { name: 'timed toast', input: { id: 'saved', text: 'Saved', duration: 4000 } },
    { name: 'sticky toast', input: { id: 'error', text: 'Something went wrong' } },
  ],
  events: () => [{ type: 'toast.dismiss' }, { type: 'xstate.after.toastDuration.toast.timed' }],
};
