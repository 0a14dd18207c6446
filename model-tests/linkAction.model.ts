import { expect } from 'vitest';
import { connectLinkAction, type LinkActionContext, linkActionMachine } from '../machines/linkAction';
import { expectOutput, expectWorking, inputsOf } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof linkActionMachine>;
const view = (o: O) => connectLinkAction(o.snapshot, () => {});

export const CONFIRM_TOKEN = 'c0nfirmation-token-0123456789';
export const NEW_EMAIL = 'grace@example.com';
export const OFF_TOKEN = '0b7f5c1e-7a0f-4c4f-9a77-3c1d2b9e8f10.c2lnbmF0dXJlLW9mLXRoZS1saW5rLTAxMjM0NTY3ODk';
export const USER_ID = '0b7f5c1e-7a0f-4c4f-9a77-3c1d2b9e8f10';
export const FAVORITES_OFF_TOKEN = `favorites.${OFF_TOKEN}`;

/** What each link's page says and what its server answers (from the SPEC's texts). */
export const LINKS = {
  confirmEmail: {
    token: CONFIRM_TOKEN,
    answer: { email: NEW_EMAIL },
    refused: 'EMAIL_CHANGE_INVALID',
    working: 'Confirming your email…',
    done: 'Email confirmed',
    doneText: `${NEW_EMAIL} is now the email of your account. Use it to sign in.`,
    failed: 'We could not confirm your email',
    next: 'Account settings',
  },
  saleEmailsOff: {
    token: OFF_TOKEN,
    answer: { userId: USER_ID, saleEmails: false },
    refused: 'UNSUBSCRIBE_LINK_INVALID',
    working: 'Turning off sale emails…',
    done: 'Sale emails are off',
    doneText:
      'We no longer email you when one of your items sells. Each sale still shows in your dashboard’s notifications, where you can turn the emails back on.',
    failed: 'We could not turn off sale emails',
    next: 'Notifications',
  },
  favoriteEmailsOff: {
    token: FAVORITES_OFF_TOKEN,
    answer: { userId: USER_ID, favoriteEmails: false },
    refused: 'UNSUBSCRIBE_LINK_INVALID',
    working: 'Turning off favorite emails…',
    done: 'Favorite emails are off',
    doneText:
      'We no longer email you when an item you saved drops in price or goes on sale. Each still shows in your dashboard’s notifications, where you can turn the emails back on.',
    failed: 'We could not turn off favorite emails',
    next: 'Notifications',
  },
} as const;

/** The link a context holds: an unsubscribe link's token `favorites.…` is a favorite email's. */
export const linkOf = ({ action, token }: LinkActionContext): keyof typeof LINKS =>
  action === 'saleEmailsOff' && token?.startsWith('favorites.') ? 'favoriteEmailsOff' : action;
const rules = (o: O) => LINKS[linkOf(o.snapshot.context)];

export const linkActionModel: MachineModel<typeof linkActionMachine> = {
  machine: linkActionMachine,
  fakes: ['apply'],
  scenarios: [
    { name: 'an email confirmation link', input: { action: 'confirmEmail', token: CONFIRM_TOKEN } },
    { name: 'an email confirmation link without a token', input: { action: 'confirmEmail', token: null } },
    { name: 'a sale email’s unsubscribe link', input: { action: 'saleEmailsOff', token: OFF_TOKEN } },
    { name: 'an unsubscribe link without a token', input: { action: 'saleEmailsOff', token: null } },
    {
      name: 'a favorite email’s unsubscribe link',
      input: { action: 'saleEmailsOff', token: FAVORITES_OFF_TOKEN },
    },
  ],
  events: (s) => {
    const action = LINKS[linkOf(s.context as LinkActionContext)];
    return [
      { type: 'link.retry' },
      { type: 'xstate.done.actor.apply', output: action.answer },
      {
        type: 'xstate.error.actor.apply',
        error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
      },
      {
        type: 'xstate.error.actor.apply',
        error: { status: 400, body: { code: action.refused, field: 'token', message: 'invalid' } },
      },
    ];
  },
  serializeState: (s) => JSON.stringify([s.value, linkOf(s.context), s.context.error?.code ?? null]),
  expect: {
    // The link's token is sent once; only a lost connection may send it again.
    working: (o) => {
      expectWorking(o, 'apply', { token: rules(o).token });
      expect(view(o)).toMatchObject({
        panel: 'working',
        title: rules(o).working,
        busy: true,
        canRetry: false,
      });
      if (o.event.type === 'link.retry') expect(o.before.context.error?.code).toBe('NETWORK_FAILURE');
    },
    // Done: the page says so, with what the server answered, and the flow outputs that answer.
    done: (o) => {
      expect(o.event.type).toBe('xstate.done.actor.apply');
      expect(view(o)).toMatchObject({ panel: 'done', title: rules(o).done, text: rules(o).doneText });
      expect(view(o).next.label).toBe(rules(o).next);
      expectOutput(o, rules(o).answer);
    },
    // Failed: the reason; Try again only after a lost connection; a link without a token is refused
    // at once with its action's message and sends nothing.
    failed: (o) => {
      const v = view(o);
      expect(v).toMatchObject({ panel: 'failed', title: rules(o).failed });
      expect(v.text).toBeTruthy();
      expect(v.canRetry).toBe(o.snapshot.context.error?.code === 'NETWORK_FAILURE');
      if (o.snapshot.context.token === null) {
        expect(o.snapshot.context.error?.code).toBe(rules(o).refused);
        expect(inputsOf(o, 'apply')).toEqual([]);
      }
    },
  },
};
