import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import type { LinkResult } from '#domain/ports/accounts';
import { type ButtonProps, buttonProps } from './props';

/**
 * The page an emailed link opens, its action named by the link:
 *
 * - `confirmEmail` (/confirm-email?t=…): the link sent to a new email address confirms it. The token
 *   is single-use; the session hears the account's new email.
 * - `saleEmailsOff` (/unsubscribe?t=…): the link in every sale email turns sale emails off, and the
 *   one in every favorite email (a token `favorites.…`) turns favorite emails off, no sign-in needed
 *   (the dashboard's notifications turn them off too); the session hears of it when the account is
 *   the signed-in one.
 *
 * The link's token is sent once (`apply`). Only a lost connection can be retried (the token may not
 * have arrived); a link the server refuses, or one without a token, cannot: the user asks for a new
 * link (changes the email again) or uses the dashboard.
 */
export type { LinkResult } from '#domain/ports/accounts';
export type LinkAction = 'confirmEmail' | 'saleEmailsOff';
export interface LinkActionInput {
  action: LinkAction;
  token: string | null;
}
export interface LinkActionContext extends LinkActionInput {
  result: LinkResult | null;
  error: ApiErrorBody | null;
}
export type LinkActionEvent = { type: 'link.retry' };

/** The code a link without a token shows, by action. */
const invalidLinkCode: Record<LinkAction, ErrorCode> = {
  confirmEmail: ErrorCode.EMAIL_CHANGE_INVALID,
  saleEmailsOff: ErrorCode.UNSUBSCRIBE_LINK_INVALID,
};

export const linkActionMachine = setup({
  types: {
    context: {} as LinkActionContext,
    events: {} as LinkActionEvent,
    input: {} as LinkActionInput,
    output: {} as LinkResult | null,
    tags: {} as 'busy',
  },
  actors: {
    /** The link's action: POST users/email-confirmations, or POST users/sale-email-opt-outs. */
    apply: fromPromise<LinkResult, { token: string }>(async () => {
      throw new Error('apply not provided');
    }),
  },
  actions: {
    /** Tells the session what changed (the account's email, or its sale or favorite emails). */
    announce: (_, _result: LinkResult) => {},
  },
  guards: {
    hasToken: ({ context }) => !!context.token,
    connectionLost: ({ context }) => context.error?.code === ErrorCode.NETWORK_FAILURE,
  },
}).createMachine({
  id: 'linkAction',
  context: ({ input }) => ({ ...input, result: null, error: null }),
  initial: 'starting',
  output: ({ context }) => context.result,
  states: {
    starting: {
      always: [
        { guard: 'hasToken', target: 'working' },
        {
          target: 'failed',
          actions: assign({
            error: ({ context }) => {
              const code = invalidLinkCode[context.action];
              return { code, message: errorMessage({ code }) };
            },
          }),
        },
      ],
    },
    working: {
      tags: ['busy'],
      invoke: {
        id: 'apply',
        src: 'apply',
        input: ({ context }) => ({ token: context.token! }),
        onDone: {
          target: 'done',
          actions: [
            assign({ result: ({ event }) => event.output, error: null }),
            { type: 'announce', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    done: { type: 'final' },
    failed: {
      on: { 'link.retry': { guard: 'connectionLost', target: 'working' } },
    },
  },
});

/** What the link's page shows. */
export interface LinkActionView {
  panel: 'working' | 'done' | 'failed';
  title: string;
  text: string;
  busy: boolean;
  canRetry: boolean;
  /** Where the page leads on once the link is applied or failed. */
  next: { to: '/settings/account' | '/dashboard/notifications'; label: string };
  /** Try again (shown while `canRetry`). */
  getRetryButtonProps: () => ButtonProps;
}

type Words = {
  working: string;
  done: string;
  doneText: (result: LinkResult) => string;
  failed: string;
} & Pick<LinkActionView, 'next'>;

/** Each link's words: while it works, once done (from the server's answer), once failed. */
const copy: Record<LinkAction | 'favoriteEmailsOff', Words> = {
  confirmEmail: {
    working: 'Confirming your email…',
    done: 'Email confirmed',
    doneText: (result) =>
      'email' in result ? `${result.email} is now the email of your account. Use it to sign in.` : '',
    failed: 'We could not confirm your email',
    next: { to: '/settings/account', label: 'Account settings' },
  },
  saleEmailsOff: {
    working: 'Turning off sale emails…',
    done: 'Sale emails are off',
    doneText: () =>
      'We no longer email you when one of your items sells. Each sale still shows in your dashboard’s notifications, where you can turn the emails back on.',
    failed: 'We could not turn off sale emails',
    next: { to: '/dashboard/notifications', label: 'Notifications' },
  },
  favoriteEmailsOff: {
    working: 'Turning off favorite emails…',
    done: 'Favorite emails are off',
    doneText: () =>
      'We no longer email you when an item you saved drops in price or goes on sale. Each still shows in your dashboard’s notifications, where you can turn the emails back on.',
    failed: 'We could not turn off favorite emails',
    next: { to: '/dashboard/notifications', label: 'Notifications' },
  },
};

/** A `saleEmailsOff` link whose token starts `favorites.` is a favorite email's: its words say so. */
const wordsOf = ({ action, token }: LinkActionInput): Words =>
  copy[action === 'saleEmailsOff' && token?.startsWith('favorites.') ? 'favoriteEmailsOff' : action];

export function connectLinkAction(
  snapshot: SnapshotFrom<typeof linkActionMachine>,
  send: (event: LinkActionEvent) => void,
): LinkActionView {
  const { result, error } = snapshot.context;
  const words = wordsOf(snapshot.context);
  const busy = snapshot.hasTag('busy');
  const panel: LinkActionView['panel'] = busy ? 'working' : snapshot.status === 'done' ? 'done' : 'failed';
  const canRetry = snapshot.can({ type: 'link.retry' });
  return {
    panel,
    title: panel === 'working' ? words.working : panel === 'done' ? words.done : words.failed,
    text:
      panel === 'done' && result
        ? words.doneText(result)
        : panel === 'failed' && error
          ? errorMessage(error)
          : '',
    busy,
    canRetry,
    next: words.next,
    getRetryButtonProps: () =>
      buttonProps({ onClick: () => send({ type: 'link.retry' }), disabled: !canRetry }),
  };
}
