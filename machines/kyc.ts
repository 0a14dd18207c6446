import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { timings } from '#domain/constants';
import type { KycStatus } from '#domain/enums';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import { kycAction, kycLabel } from '#domain/kyc';
import { type KycSession, KycSessionInput } from '#domain/schemas/kyc';
import type { User } from '#domain/user';
import { validate } from '#domain/validation';
import { type ButtonProps, buttonProps, type FormProps } from './props';

/**
 * The KYC button of Account settings. Selling needs an approved identity verification; a person
 * who owns no collectible has nothing to sell, so pressing the button only explains that (the
 * blocking modal). Otherwise, by status:
 * - created or resubmission requested, with the provider's URL: back to that URL;
 * - expired, abandoned or never started: the name modal asks for the legal first and last name,
 *   a provider session is opened with them, and the person is sent to its URL;
 * - approved, declined, in review: the button does nothing.
 * The machine ends when the person is sent away (output: the URL). Back from the provider with the
 * session still open, the provider may not have decided yet: the status is read again every
 * `decisionPoll` until it changes, at most `decisionPolls` times (the decision also comes by email).
 */
export interface KycMachineInput {
  status: KycStatus;
  url: string | null;
  ownsNfts: boolean;
  /** The person just came back from the provider's hosted flow. */
  returned?: boolean;
  /** The account's names, the name modal's starting values. */
  firstName: string;
  lastName: string;
}
export interface KycContext extends KycMachineInput {
  /** Status reads made while waiting for the provider's decision. */
  polls: number;
  fieldErrors: Partial<Record<'firstName' | 'lastName', ApiErrorBody>>;
  error: ApiErrorBody | null;
}
export type KycEvent =
  | { type: 'kyc.start' }
  | { type: 'kyc.close' }
  | { type: 'kyc.firstName.change'; value: string }
  | { type: 'kyc.lastName.change'; value: string }
  | { type: 'kyc.submit' }
  /** The account changed (a fresh profile): its status, URL and collectibles. */
  | { type: 'kyc.update'; status: KycStatus; url: string | null; ownsNfts: boolean };

const names = (context: KycContext) => ({ firstName: context.firstName, lastName: context.lastName });

export const kycMachine = setup({
  types: {
    context: {} as KycContext,
    events: {} as KycEvent,
    input: {} as KycMachineInput,
    output: {} as { url: string },
    tags: {} as 'busy',
  },
  actors: {
    /** GET users/me → the account (its KYC status and URL). */
    readStatus: fromPromise<{ user: User }>(async () => {
      throw new Error('readStatus not provided');
    }),
    /** POST veriff-kyc → { url }. */
    createSession: fromPromise<KycSession, KycSessionInput>(async () => {
      throw new Error('createSession not provided');
    }),
  },
  guards: {
    undecided: ({ context }) => !!context.returned && context.status === 'created',
    morePolls: ({ context }) => context.polls < timings.kycDecisionMaxPolls,
    ownsNoNfts: ({ context }) => !context.ownsNfts,
    canResume: ({ context }) => kycAction(context.status, context.url) === 'resume',
    canStart: ({ context }) => kycAction(context.status, context.url) === 'start',
    namesValid: ({ context }) => validate(KycSessionInput, names(context)).ok,
  },
  delays: {
    decisionPoll: timings.kycDecisionPollMs,
  },
  actions: {
    /** Tells the session the account changed (the decision arrived). */
    announceUser: (_, _params: { user: User }) => {},
    /** Sends the browser to the provider's hosted verification. */
    openVerification: (_, _params: { url: string }) => {},
  },
}).createMachine({
  id: 'kyc',
  context: ({ input }) => ({ ...input, polls: 0, fieldErrors: {}, error: null }),
  initial: 'starting',
  output: ({ context }) => ({ url: context.url! }),
  states: {
    starting: {
      always: [{ guard: 'undecided', target: 'awaitingDecision' }, { target: 'idle' }],
    },
    awaitingDecision: {
      initial: 'waiting',
      states: {
        waiting: {
          after: {
            decisionPoll: [
              {
                guard: 'morePolls',
                target: 'reading',
                actions: assign({ polls: ({ context }) => context.polls + 1 }),
              },
              { target: '#kyc.idle' },
            ],
          },
        },
        reading: {
          invoke: {
            id: 'readStatus',
            src: 'readStatus',
            onDone: [
              {
                // Still open at the provider: wait for the next read.
                guard: ({ event }) => event.output.user.kyc.status === 'created',
                target: 'waiting',
              },
              {
                target: '#kyc.idle',
                actions: [
                  assign(({ event }) => ({
                    status: event.output.user.kyc.status,
                    url: event.output.user.kyc.url,
                  })),
                  { type: 'announceUser', params: ({ event }) => event.output },
                ],
              },
            ],
            // A failed read is not a decision: try again at the next tick.
            onError: 'waiting',
          },
        },
      },
      on: {
        'kyc.update': {
          target: 'starting',
          actions: assign(({ event }) => ({
            status: event.status,
            url: event.url,
            ownsNfts: event.ownsNfts,
          })),
        },
      },
    },
    idle: {
      on: {
        'kyc.start': [
          { guard: 'ownsNoNfts', target: 'blocked' },
          { guard: 'canResume', target: 'redirecting' },
          { guard: 'canStart', target: 'naming' },
        ],
        'kyc.update': {
          actions: assign(({ event }) => ({
            status: event.status,
            url: event.url,
            ownsNfts: event.ownsNfts,
          })),
        },
      },
    },
    blocked: {
      on: { 'kyc.close': 'idle' },
    },
    naming: {
      on: {
        'kyc.firstName.change': {
          actions: assign(({ context, event }) => ({
            firstName: event.value,
            fieldErrors: { ...context.fieldErrors, firstName: undefined },
            error: null,
          })),
        },
        'kyc.lastName.change': {
          actions: assign(({ context, event }) => ({
            lastName: event.value,
            fieldErrors: { ...context.fieldErrors, lastName: undefined },
            error: null,
          })),
        },
        'kyc.submit': [
          { guard: 'namesValid', target: 'creating', actions: assign({ fieldErrors: {}, error: null }) },
          {
            actions: assign({
              fieldErrors: ({ context }) => {
                const result = validate(KycSessionInput, names(context));
                return result.ok ? {} : result.errors;
              },
            }),
          },
        ],
        'kyc.close': { target: 'idle', actions: assign({ fieldErrors: {}, error: null }) },
      },
    },
    creating: {
      tags: ['busy'],
      invoke: {
        id: 'createSession',
        src: 'createSession',
        input: ({ context }) => {
          const result = validate(KycSessionInput, names(context));
          if (!result.ok) throw new Error('names checked before creating');
          return result.value;
        },
        onDone: { target: 'redirecting', actions: assign({ url: ({ event }) => event.output.url }) },
        onError: [
          {
            // The server knows best: an account without collectibles sees the blocking modal.
            guard: ({ event }) => toErrorBody(event.error).code === ErrorCode.KYC_NO_NFTS,
            target: 'blocked',
            actions: assign({ ownsNfts: false }),
          },
          { target: 'naming', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
        ],
      },
    },
    redirecting: {
      type: 'final',
      entry: { type: 'openVerification', params: ({ context }) => ({ url: context.url! }) },
    },
  },
});

/** What the KYC row and its modals show. */
export interface KycView {
  label: string;
  /** Back from the provider, waiting for its decision. */
  awaiting: string | null;
  canStart: boolean;
  /** The modal open over the row. */
  panel: 'none' | 'blocked' | 'name' | 'redirecting';
  blockedText: string;
  firstName: string;
  lastName: string;
  fieldErrors: { firstName?: string; lastName?: string };
  error: string | null;
  busy: boolean;
  setFirstName: (value: string) => void;
  setLastName: (value: string) => void;
  /** Closes the open modal (Escape, its close button). */
  close: () => void;
  /** The row's button: start (or resume) the verification. */
  getStartButtonProps: () => ButtonProps;
  /** The modals' Close or Cancel. */
  getCloseButtonProps: () => ButtonProps;
  /** The name form: its submit continues to Veriff. */
  getFormProps: () => FormProps;
}

export function connectKyc(
  snapshot: SnapshotFrom<typeof kycMachine>,
  send: (event: KycEvent) => void,
): KycView {
  const { context } = snapshot;
  const panel = snapshot.matches('blocked')
    ? 'blocked'
    : snapshot.matches('naming') || snapshot.matches('creating')
      ? 'name'
      : snapshot.matches('redirecting')
        ? 'redirecting'
        : 'none';
  const message = (error: ApiErrorBody | undefined) => (error ? errorMessage(error) : undefined);
  const busy = snapshot.hasTag('busy');
  return {
    label: kycLabel(context.status),
    awaiting: snapshot.matches('awaitingDecision') ? 'Waiting for Veriff’s decision…' : null,
    canStart: snapshot.can({ type: 'kyc.start' }),
    panel,
    blockedText: errorMessage({ code: ErrorCode.KYC_NO_NFTS }),
    firstName: context.firstName,
    lastName: context.lastName,
    fieldErrors: {
      firstName: message(context.fieldErrors.firstName),
      lastName: message(context.fieldErrors.lastName),
    },
    error: context.error ? errorMessage(context.error) : null,
    busy,
    setFirstName: (value) => send({ type: 'kyc.firstName.change', value }),
    setLastName: (value) => send({ type: 'kyc.lastName.change', value }),
    close: () => send({ type: 'kyc.close' }),
    getStartButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'kyc.start' }),
        disabled: !snapshot.can({ type: 'kyc.start' }),
        busy: panel === 'redirecting',
      }),
    getCloseButtonProps: () => buttonProps({ onClick: () => send({ type: 'kyc.close' }), disabled: busy }),
    getFormProps: () => ({
      noValidate: true,
      onSubmit: (event) => {
        event.preventDefault();
        send({ type: 'kyc.submit' });
      },
    }),
  };
}
