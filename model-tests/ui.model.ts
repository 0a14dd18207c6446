import type { AnyMachineSnapshot } from 'xstate';
import { uiMachine } from '../machines/ui';
import type { MachineModel } from './harness';

export const uiModel: MachineModel<typeof uiMachine> = {
  machine: uiMachine,
  scenarios: [
    { name: 'first visit', input: {} },
    { name: 'returning visitor who accepted cookies', input: { cookiesAccepted: true } },
  ],
  events: () => [
    { type: 'ui.nav.toggle' },
    { type: 'ui.user.toggle' },
    { type: 'ui.dashboardMenu.toggle' },
    { type: 'ui.menus.close' },
    { type: 'ui.signup.show' },
    { type: 'ui.signup.hide' },
    { type: 'ui.cookies.accept' },
    { type: 'ui.toast.show', id: 'copied', text: 'Link copied', duration: 3500 },
    { type: 'ui.toast.dismiss', id: 'copied' },
  ],
  serializeState: (s: AnyMachineSnapshot) =>
    JSON.stringify([s.value, (s.context.toasts as Array<{ id: string }>).map((t) => t.id)]),
};
