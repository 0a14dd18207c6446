import { assign, enqueueActions, type SnapshotFrom, setup, stopChild } from 'xstate';
import { type ToastInput, toastMachine } from './toast';

/**
 * The shell's interface state: whether cookies are accepted, whether the sign-in prompt shows, which
 * menu is open (the main menu, the user menu, the dashboard's mobile menu), and the toasts on screen.
 */
export interface UiContext {
  /** The cookie choice remembered from an earlier visit. */
  cookiesRemembered: boolean;
  /** Toasts on screen; each runs as a child `toast:<id>` that ends itself. */
  toasts: ToastInput[];
  /**
   * Where signing in from the prompt leads back to (a path of this site, e.g. the item page with its
   * checkout to open again); null: back to the page the prompt was shown on.
   */
  signInReturn: string | null;
}
export interface UiInput {
  cookiesAccepted?: boolean;
}
export type UiEvent =
  | { type: 'ui.nav.toggle' }
  | { type: 'ui.user.toggle' }
  | { type: 'ui.dashboardMenu.toggle' }
  /** Escape, an outside click or a route change. */
  | { type: 'ui.menus.close' }
  | { type: 'ui.signup.show'; returnTo?: string }
  | { type: 'ui.signup.hide' }
  | { type: 'ui.cookies.accept' }
  | ({ type: 'ui.toast.show' } & ToastInput)
  | { type: 'ui.toast.dismiss'; id: string }
  | { type: 'xstate.done.actor.toast'; output: { id: string } };

const menu = (toggle: UiEvent['type']) => ({
  initial: 'closed' as const,
  states: {
    closed: { on: { [toggle]: 'open' } },
    open: { on: { [toggle]: 'closed', 'ui.menus.close': 'closed' } },
  },
});

export const uiMachine = setup({
  types: {
    context: {} as UiContext,
    input: {} as UiInput,
    events: {} as UiEvent,
  },
  actors: { toast: toastMachine },
  actions: {
    /** Remembers the cookie choice across visits. */
    rememberCookies: () => {},
  },
  guards: {
    cookiesAcceptedBefore: ({ context }) => context.cookiesRemembered,
    hasToast: ({ context, event }) => 'id' in event && context.toasts.some((t) => t.id === event.id),
    isNewToast: ({ context, event }) =>
      event.type === 'ui.toast.show' && !context.toasts.some((t) => t.id === event.id),
  },
}).createMachine({
  id: 'ui',
  type: 'parallel',
  context: ({ input }) => ({
    cookiesRemembered: input.cookiesAccepted ?? false,
    toasts: [],
    signInReturn: null,
  }),
  on: {
    'ui.toast.show': {
      guard: 'isNewToast',
      actions: enqueueActions(({ enqueue, event, context }) => {
        const { type: _t, ...toast } = event as Extract<UiEvent, { type: 'ui.toast.show' }>;
        enqueue.spawnChild('toast', { id: `toast:${toast.id}`, input: toast });
        enqueue.assign({ toasts: [...context.toasts, toast] });
      }),
    },
    'ui.toast.dismiss': {
      guard: 'hasToast',
      actions: [
        stopChild(({ event }) => `toast:${event.id}`),
        assign({ toasts: ({ context, event }) => context.toasts.filter((t) => t.id !== event.id) }),
      ],
    },
    /** A toast child reached its end (timed out or dismissed). */
    'xstate.done.actor.*': {
      actions: assign({
        toasts: ({ context, event }) =>
          context.toasts.filter((t) => t.id !== (event as { output?: { id?: string } }).output?.id),
      }),
    },
  },
  states: {
    navMenu: menu('ui.nav.toggle'),
    userMenu: menu('ui.user.toggle'),
    dashboardMenu: menu('ui.dashboardMenu.toggle'),
    signup: {
      initial: 'hidden',
      states: {
        hidden: {
          on: {
            'ui.signup.show': {
              target: 'shown',
              actions: assign({ signInReturn: ({ event }) => event.returnTo ?? null }),
            },
          },
        },
        shown: { on: { 'ui.signup.hide': 'hidden' } },
      },
    },
    cookies: {
      initial: 'deciding',
      states: {
        deciding: {
          always: [{ guard: 'cookiesAcceptedBefore', target: 'accepted' }, { target: 'pending' }],
        },
        pending: { on: { 'ui.cookies.accept': { target: 'accepted', actions: 'rememberCookies' } } },
        accepted: {},
      },
    },
  },
});

export type UiSnapshot = SnapshotFrom<typeof uiMachine>;

/** What the shell shows of the interface state, and what it can do with it. */
export function connectUi(s: UiSnapshot, send: (event: UiEvent) => void) {
  return {
    cookiesAccepted: s.matches({ cookies: 'accepted' }),
    /** The prompt to sign in or register before a protected action. */
    showSignup: s.matches({ signup: 'shown' }),
    /** Where signing in from the prompt leads back to; null: the page it was shown on. */
    signInReturn: s.context.signInReturn,
    navMenuOpened: s.matches({ navMenu: 'open' }),
    userMenuOpened: s.matches({ userMenu: 'open' }),
    dashboardMobileMenuOpened: s.matches({ dashboardMenu: 'open' }),
    toasts: s.context.toasts,
    toggleNav: () => send({ type: 'ui.nav.toggle' }),
    toggleUserMenu: () => send({ type: 'ui.user.toggle' }),
    /** Escape, an outside click or a route change. */
    closeMenus: () => send({ type: 'ui.menus.close' }),
    askToSignIn: () => send({ type: 'ui.signup.show' }),
    hideSignup: () => send({ type: 'ui.signup.hide' }),
    acceptCookies: () => send({ type: 'ui.cookies.accept' }),
    dismissToast: (id: string) => send({ type: 'ui.toast.dismiss', id }),
  };
}

export type UiView = ReturnType<typeof connectUi>;
