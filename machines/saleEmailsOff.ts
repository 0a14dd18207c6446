import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import type { EmailsOff } from '#domain/ports/accounts';
import { type ButtonProps, buttonProps } from './props';

/**
 * Turning sale emails (or favorite emails: a token `favorites.…`) off from the link every such email
 * carries: the link's signed token is sent once, no sign-in needed. Sending it again changes nothing, so a lost connection can be retried; a
 * link the server refuses cannot (the dashboard's notifications turn the emails off too).
 */
export interface SaleEmailsOffContext {
  token: string | null;
  error: ApiErrorBody | null;
}
export type SaleEmailsOffEvent = { type: 'saleEmailsOff.retry' };
export interface SaleEmailsOffInput {
  token: string | null;
}

const invalidLink: ApiErrorBody = {
  code: ErrorCode.UNSUBSCRIBE_LINK_INVALID,
  message: errorMessage({ code: ErrorCode.UNSUBSCRIBE_LINK_INVALID }),
};

export const saleEmailsOffMachine = setup({
  types: {
    context: {} as SaleEmailsOffContext,
    events: {} as SaleEmailsOffEvent,
    input: {} as SaleEmailsOffInput,
    tags: {} as 'busy',
  },
  actors: {
    turnOff: fromPromise<EmailsOff, { token: string }>(async () => {
      throw new Error('turnOff not provided');
    }),
  },
  actions: {
    /** Tells the session that this account's sale (or favorite) emails are off (if it is the signed-in one). */
    announceOff: (_, _params: EmailsOff) => {},
  },
  guards: {
    hasToken: ({ context }) => !!context.token,
    connectionLost: ({ context }) => context.error?.code === ErrorCode.NETWORK_FAILURE,
  },
}).createMachine({
  id: 'saleEmailsOff',
  context: ({ input }) => ({ token: input.token, error: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [
        { guard: 'hasToken', target: 'turningOff' },
        { target: 'failed', actions: assign({ error: invalidLink }) },
      ],
    },
    turningOff: {
      tags: ['busy'],
      invoke: {
        id: 'turnOff',
        src: 'turnOff',
        input: ({ context }) => ({ token: context.token! }),
        onDone: {
          target: 'off',
          actions: [assign({ error: null }), { type: 'announceOff', params: ({ event }) => event.output }],
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    off: { type: 'final' },
    failed: {
      on: { 'saleEmailsOff.retry': { guard: 'connectionLost', target: 'turningOff' } },
    },
  },
});

/** What the page shows. */
export interface SaleEmailsOffView {
  panel: 'working' | 'off' | 'failed';
  title: string;
  text: string;
  busy: boolean;
  canRetry: boolean;
  /** Try again (shown while `canRetry`). */
  getRetryButtonProps: () => ButtonProps;
}

export function connectSaleEmailsOff(
  snapshot: SnapshotFrom<typeof saleEmailsOffMachine>,
  send: (event: SaleEmailsOffEvent) => void,
): SaleEmailsOffView {
  return {
    ...saleEmailsOffCopy(snapshot),
    getRetryButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'saleEmailsOff.retry' }),
        disabled: !snapshot.can({ type: 'saleEmailsOff.retry' }),
      }),
  };
}

/** The panel, its texts and flags. */
function saleEmailsOffCopy(
  snapshot: SnapshotFrom<typeof saleEmailsOffMachine>,
): Omit<SaleEmailsOffView, 'getRetryButtonProps'> {
  const busy = snapshot.hasTag('busy');
  const favorites = snapshot.context.token?.startsWith('favorites.') ?? false;
  const list = favorites ? 'favorite emails' : 'sale emails';
  if (busy) return { panel: 'working', title: `Turning off ${list}…`, text: '', busy, canRetry: false };
  if (snapshot.status === 'done')
    return {
      panel: 'off',
      title: favorites ? 'Favorite emails are off' : 'Sale emails are off',
      text: favorites
        ? 'We no longer email you when an item you saved drops in price or goes on sale. Each still shows in your dashboard’s notifications, where you can turn the emails back on.'
        : 'We no longer email you when one of your items sells. Each sale still shows in your dashboard’s notifications, where you can turn the emails back on.',
      busy,
      canRetry: false,
    };
  const { error } = snapshot.context;
  return {
    panel: 'failed',
    title: `We could not turn off ${list}`,
    text: error ? errorMessage(error) : '',
    busy,
    canRetry: snapshot.can({ type: 'saleEmailsOff.retry' }),
  };
}
