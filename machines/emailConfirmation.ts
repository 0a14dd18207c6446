import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import { type ButtonProps, buttonProps } from './props';

/**
 * Confirming a new email address: the link sent to it carries a token; opening it sends the token
 * once. The token is single-use, so a failure other than a lost connection cannot be retried: the
 * user asks for a new link by changing the email again.
 */
export interface EmailConfirmationContext {
  token: string | null;
  email: string | null;
  error: ApiErrorBody | null;
}
export type EmailConfirmationEvent = { type: 'confirmation.retry' };
export interface EmailConfirmationInput {
  token: string | null;
}

const invalidLink: ApiErrorBody = {
  code: ErrorCode.EMAIL_CHANGE_INVALID,
  message: errorMessage({ code: ErrorCode.EMAIL_CHANGE_INVALID }),
};

export const emailConfirmationMachine = setup({
  types: {
    context: {} as EmailConfirmationContext,
    events: {} as EmailConfirmationEvent,
    input: {} as EmailConfirmationInput,
    tags: {} as 'busy',
  },
  actors: {
    confirmEmail: fromPromise<{ email: string }, { token: string }>(async () => {
      throw new Error('confirmEmail not provided');
    }),
  },
  actions: {
    /** Tells the session the account's email changed. */
    announceConfirmed: (_, _params: { email: string }) => {},
  },
  guards: {
    hasToken: ({ context }) => !!context.token,
    connectionLost: ({ context }) => context.error?.code === ErrorCode.NETWORK_FAILURE,
  },
}).createMachine({
  id: 'emailConfirmation',
  context: ({ input }) => ({ token: input.token, email: null, error: null }),
  initial: 'starting',
  output: ({ context }) => ({ email: context.email }),
  states: {
    starting: {
      always: [
        { guard: 'hasToken', target: 'confirming' },
        { target: 'failed', actions: assign({ error: invalidLink }) },
      ],
    },
    confirming: {
      tags: ['busy'],
      invoke: {
        id: 'confirmEmail',
        src: 'confirmEmail',
        input: ({ context }) => ({ token: context.token! }),
        onDone: {
          target: 'confirmed',
          actions: [
            assign({ email: ({ event }) => event.output.email, error: null }),
            { type: 'announceConfirmed', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    confirmed: { type: 'final' },
    failed: {
      on: { 'confirmation.retry': { guard: 'connectionLost', target: 'confirming' } },
    },
  },
});

/** What the confirmation page shows. */
export interface EmailConfirmationView {
  panel: 'confirming' | 'confirmed' | 'failed';
  title: string;
  text: string;
  busy: boolean;
  canRetry: boolean;
  /** Try again (shown while `canRetry`). */
  getRetryButtonProps: () => ButtonProps;
}

export function connectEmailConfirmation(
  snapshot: SnapshotFrom<typeof emailConfirmationMachine>,
  send: (event: EmailConfirmationEvent) => void,
): EmailConfirmationView {
  return {
    ...confirmationCopy(snapshot),
    getRetryButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'confirmation.retry' }),
        disabled: !snapshot.can({ type: 'confirmation.retry' }),
      }),
  };
}

/** The panel, its texts and flags. */
function confirmationCopy(
  snapshot: SnapshotFrom<typeof emailConfirmationMachine>,
): Omit<EmailConfirmationView, 'getRetryButtonProps'> {
  const { email, error } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  if (busy) return { panel: 'confirming', title: 'Confirming your email…', text: '', busy, canRetry: false };
  if (snapshot.status === 'done')
    return {
      panel: 'confirmed',
      title: 'Email confirmed',
      text: `${email} is now the email of your account. Use it to sign in.`,
      busy,
      canRetry: false,
    };
  return {
    panel: 'failed',
    title: 'We could not confirm your email',
    text: error ? errorMessage(error) : '',
    busy,
    canRetry: snapshot.can({ type: 'confirmation.retry' }),
  };
}
