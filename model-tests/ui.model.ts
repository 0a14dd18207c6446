import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { connectUi, uiMachine } from '../machines/ui';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof uiMachine>;
const view = (o: O) => connectUi(o.snapshot, () => {});
/** A menu is open after an odd number of its toggles since the menus were last closed. */
function menuOpen(o: O, toggle: string) {
  let open = false;
  for (const e of o.history) {
    if (e.type === toggle) open = !open;
    if (e.type === 'ui.menus.close') open = false;
  }
  return open;
}
const shown = (o: O) =>
  o.history.filter((e) => e.type === 'ui.signup.show' || e.type === 'ui.signup.hide').at(-1)?.type ===
  'ui.signup.show';
/** The toasts shown and not dismissed, each once. */
function toastIds(o: O) {
  const ids: string[] = [];
  for (const e of o.history) {
    if (e.type === 'ui.toast.show' && !ids.includes(e.id as string)) ids.push(e.id as string);
    if (e.type === 'ui.toast.dismiss')
      ids.splice(ids.indexOf(e.id as string) >>> 0, ids.includes(e.id as string) ? 1 : 0);
  }
  return ids;
}
/** The toasts and the sign-in return hold in every state. */
const common = (o: O) => expect(view(o).toasts.map((t) => t.id)).toEqual(toastIds(o));

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
  expect: {
    'navMenu.closed': (o) => {
      common(o);
      expect(menuOpen(o, 'ui.nav.toggle')).toBe(false);
    },
    'navMenu.open': (o) => expect(menuOpen(o, 'ui.nav.toggle')).toBe(true),
    'userMenu.closed': (o) => expect(menuOpen(o, 'ui.user.toggle')).toBe(false),
    'userMenu.open': (o) => expect(menuOpen(o, 'ui.user.toggle')).toBe(true),
    'dashboardMenu.closed': (o) => expect(menuOpen(o, 'ui.dashboardMenu.toggle')).toBe(false),
    'dashboardMenu.open': (o) => expect(menuOpen(o, 'ui.dashboardMenu.toggle')).toBe(true),
    'signup.hidden': (o) => expect(shown(o)).toBe(false),
    'signup.shown': (o) => {
      expect(shown(o)).toBe(true);
      expect(view(o).showSignup).toBe(true);
    },
    // The cookie banner until accepted, once per browser.
    'cookies.pending': (o) => {
      expect(o.snapshot.context.cookiesRemembered).toBe(false);
      expect(o.history.some((e) => e.type === 'ui.cookies.accept')).toBe(false);
    },
    'cookies.accepted': (o) => {
      expect(
        o.snapshot.context.cookiesRemembered || o.history.some((e) => e.type === 'ui.cookies.accept'),
      ).toBe(true);
      expect(view(o).cookiesAccepted).toBe(true);
    },
  },
};
