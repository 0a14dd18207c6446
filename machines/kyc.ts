import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import type { KycStatus } from '../src/domain/enums';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '../src/domain/errors';
import { kycAction, kycLabel } from '../src/domain/kyc';
import { type KycSession, KycSessionInput } from '../src/domain/schemas/kyc';
import { validate } from '../src/domain/validation';

/**
 * The KYC button of Account settings. Selling needs an approved identity verification; a person
 * who owns no collectible has nothing to sell, so pressing the button only explains that (the
 * blocking modal). Otherwise, by status:
 * - created or resubmission requested, with the provider's URL: back to that URL;
 * - expired, abandoned or never started: the name modal asks for the legal first and last name,
 *   a provider session is opened with them, and the person is sent to its URL;
 * - approved, declined, in review: the button does nothing.
 * The machine ends when the person is sent away (output: the URL).
 */
export interface KycMachineInput {
  status: KycStatus;
  url: string | null;
  ownsNfts: boolean;
  /** The account's names, the name modal's starting values. */
  firstName: string;
  lastName: string;
}
export interface KycContext extends KycMachineInput {
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
    /** POST veriff-kyc → { url }. */
    createSession: fromPromise<KycSession, KycSessionInput>(async () => {
      throw new Error('createSession not provided');
    }),
  },
  guards: {
    ownsNoNfts: ({ context }) => !context.ownsNfts,
    canResume: ({ context }) => kycAction(context.status, context.url) === 'resume',
    canStart: ({ context }) => kycAction(context.status, context.url) === 'start',
    namesValid: ({ context }) => validate(KycSessionInput, names(context)).ok,
  },
  actions: {
    /** Sends the browser to the provider's hosted verification. */
    openVerification: (_, _params: { url: string }) => {},
  },
}).createMachine({
  id: 'kyc',
  context: ({ input }) => ({ ...input, fieldErrors: {}, error: null }),
  initial: 'idle',
  output: ({ context }) => ({ url: context.url! }),
  states: {
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
  canStart: boolean;
  /** The modal open over the row. */
  panel: 'none' | 'blocked' | 'name' | 'redirecting';
  blockedText: string;
  firstName: string;
  lastName: string;
  fieldErrors: { firstName?: string; lastName?: string };
  error: string | null;
  busy: boolean;
}

export function connectKyc(snapshot: SnapshotFrom<typeof kycMachine>): KycView {
  const { context } = snapshot;
  const panel = snapshot.matches('blocked')
    ? 'blocked'
    : snapshot.matches('naming') || snapshot.matches('creating')
      ? 'name'
      : snapshot.matches('redirecting')
        ? 'redirecting'
        : 'none';
  const message = (error: ApiErrorBody | undefined) => (error ? errorMessage(error) : undefined);
  return {
    label: kycLabel(context.status),
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
    busy: snapshot.hasTag('busy'),
  };
}
