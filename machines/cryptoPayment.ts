import { type ActorRefFrom, assertEvent, assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd } from '#domain/money';
import type { CryptoChargeRequest } from '#domain/ports/checkout';
import type { CheckoutItemKind } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import { type ButtonProps, buttonProps, type CheckboxProps, type FormProps } from './props';
import { type RailOutcome, railBack, railRedirect } from './railOutcome';

export type { CryptoChargeRequest } from '#domain/ports/checkout';

/**
 * Paying for a new edition with crypto (the crypto rail of the checkout).
 *
 * The panel shows the item and its price, the coins the provider's hosted page takes (ETH, BTC, BCH,
 * USDC) and a warning about networks. Paying needs the purchase agreement and terms acknowledged:
 * without it there is no Pay. Pay opens a hosted charge for the item at the price the buyer saw
 * (POST coinbase-charges, a direct purchase); its hosted page ends the flow: the checkout sends the
 * browser there. An answer without a hosted page is CREATE_COINBASE_CHARGE.
 *
 * Each purchase attempt has one idempotency key: an attempt that failed on the network (no answer,
 * so the charge may exist) is sent again with the same key when Pay is pressed again, so a second
 * charge is never opened; a change of the acknowledgement, and any other failure (sold out, price
 * changed, another crypto charge open, provider unreachable, no hosted page, …), starts a new attempt.
 * The key comes from the `newKey` action (crypto.randomUUID; tests provide their own).
 */
export interface CryptoPaymentInput {
  item: { kind: CheckoutItemKind; id: string; title: string };
  /** The price the buyer sees, in cents (sent as expectedPrice). */
  price: number;
  /** Where the receipt goes. */
  email: string;
}
/** The crypto rail ends on the provider's hosted page (redirect), or back. */
export type CryptoPaymentOutput = RailOutcome;

/** One purchase attempt: its idempotency key. */
export interface CryptoAttempt {
  key: string;
}

export interface CryptoPaymentContext {
  item: CryptoPaymentInput['item'];
  price: number;
  email: string;
  acknowledged: boolean;
  attempt: CryptoAttempt | null;
  /** Why the last attempt did not open a payment page. */
  error: ApiErrorBody | null;
  result: CryptoPaymentOutput | null;
}
export type CryptoPaymentEvent =
  | { type: 'crypto.acknowledge'; value: boolean }
  | { type: 'crypto.submit' }
  | { type: 'crypto.back' };

/** The coins the provider's hosted page takes. */
export const CRYPTO_COINS = [
  { symbol: 'ETH', name: 'Ethereum' },
  { symbol: 'BTC', name: 'Bitcoin' },
  { symbol: 'BCH', name: 'Bitcoin Cash' },
  { symbol: 'USDC', name: 'USD Coin' },
] as const;
export type CryptoCoin = (typeof CRYPTO_COINS)[number];

export const CRYPTO_NETWORK_WARNING =
  'Send only the coin and network shown on the payment page: funds sent on an unsupported network are lost.';

/** The request of the current attempt. */
export function chargeRequest(context: CryptoPaymentContext): CryptoChargeRequest {
  return { item: context.item, price: context.price, idempotencyKey: context.attempt!.key };
}

const noHostedPage = (): ApiErrorBody => ({
  code: ErrorCode.CREATE_COINBASE_CHARGE,
  message: errorMessage({ code: ErrorCode.CREATE_COINBASE_CHARGE }),
});

export const cryptoPaymentMachine = setup({
  types: {
    context: {} as CryptoPaymentContext,
    events: {} as CryptoPaymentEvent,
    input: {} as CryptoPaymentInput,
    output: {} as CryptoPaymentOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** POST coinbase-charges: a direct purchase of the item at the price seen. */
    createCharge: fromPromise<CoinbaseChargeJson, CryptoChargeRequest>(async () => {
      throw new Error('createCharge not provided');
    }),
  },
  guards: {
    acknowledged: ({ context }) => context.acknowledged,
    /** The box is set to something else than it shows. */
    acknowledgementChanges: ({ context, event }) => {
      assertEvent(event, 'crypto.acknowledge');
      return event.value !== context.acknowledged;
    },
    /** Acknowledged, with an attempt that failed on the network: Pay sends it again. */
    retryingAttempt: ({ context }) => context.acknowledged && context.attempt !== null,
    hasHostedPage: (_, charge: CoinbaseChargeJson) => !!charge.hostedUrl,
    /** No answer came: the charge may have been opened. */
    networkFailure: (_, error: unknown) => toErrorBody(error).code === ErrorCode.NETWORK_FAILURE,
  },
  actions: {
    /** Starts a purchase attempt with a new idempotency key. */
    newKey: assign({ attempt: () => ({ key: crypto.randomUUID() }) }),
    /** The next Pay is a new attempt. */
    dropAttempt: assign({ attempt: null }),
    acknowledge: assign({
      acknowledged: ({ event }) => {
        assertEvent(event, 'crypto.acknowledge');
        return event.value;
      },
    }),
    clearError: assign({ error: null }),
    showError: assign({ error: (_, error: unknown) => toErrorBody(error) }),
    /** The provider gave no hosted page to pay on. */
    showNoHostedPage: assign({ error: noHostedPage }),
    endRedirect: assign({ result: (_, charge: CoinbaseChargeJson) => railRedirect(charge.hostedUrl!) }),
    endBack: assign({ result: railBack }),
  },
}).createMachine({
  id: 'cryptoPayment',
  context: ({ input }) => ({
    item: input.item,
    price: input.price,
    email: input.email,
    acknowledged: false,
    attempt: null,
    error: null,
    result: null,
  }),
  initial: 'review',
  output: ({ context }) => context.result!,
  states: {
    review: {
      on: {
        'crypto.acknowledge': {
          guard: 'acknowledgementChanges',
          actions: ['acknowledge', 'dropAttempt'],
        },
        'crypto.submit': [
          { guard: 'retryingAttempt', target: 'creating' },
          { guard: 'acknowledged', target: 'creating', actions: 'newKey' },
        ],
        'crypto.back': { target: 'back', actions: 'endBack' },
      },
    },
    creating: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'createCharge',
        src: 'createCharge',
        input: ({ context }) => chargeRequest(context),
        onDone: [
          {
            guard: { type: 'hasHostedPage', params: ({ event }) => event.output },
            target: 'redirect',
            actions: { type: 'endRedirect', params: ({ event }) => event.output },
          },
          { target: 'review', actions: ['showNoHostedPage', 'dropAttempt'] },
        ],
        onError: [
          {
            guard: {
              type: 'networkFailure',
              params: ({ event }: { event: { error: unknown } }) => event.error,
            },
            target: 'review',
            actions: { type: 'showError', params: ({ event }: { event: { error: unknown } }) => event.error },
          },
          {
            target: 'review',
            actions: [
              { type: 'showError', params: ({ event }: { event: { error: unknown } }) => event.error },
              'dropAttempt',
            ],
          },
        ],
      },
    },
    redirect: { type: 'final' },
    back: { type: 'final' },
  },
});

export type CryptoPaymentActor = ActorRefFrom<typeof cryptoPaymentMachine>;

export interface CryptoPaymentView {
  panel: 'review' | 'done';
  /** "Pay with crypto". */
  title: string;
  busy: boolean;
  /** "Night Market". */
  itemTitle: string;
  /** "$25". */
  price: string;
  coins: readonly CryptoCoin[];
  warning: string;
  acknowledged: boolean;
  /** "Pay $25 with crypto". */
  payLabel: string;
  canPay: boolean;
  canBack: boolean;
  /** What runs now, for a status line. */
  status: string | null;
  /** Why the payment page did not open. */
  error: string | null;
  receipt: string;
  /** The form whose submit pays. */
  getFormProps: () => FormProps;
  /** The purchase agreement and terms checkbox. */
  getTermsProps: () => CheckboxProps;
  /** Pay (the form's submit button). */
  getPayButtonProps: () => ButtonProps;
  getBackButtonProps: () => ButtonProps;
}

export function connectCryptoPayment(
  snapshot: SnapshotFrom<typeof cryptoPaymentMachine>,
  send: (event: CryptoPaymentEvent) => void,
): CryptoPaymentView {
  const { context } = snapshot;
  const price = formatUsd(context.price);
  const busy = snapshot.hasTag('busy');
  const canPay = snapshot.can({ type: 'crypto.submit' });
  const canBack = snapshot.can({ type: 'crypto.back' });
  return {
    panel: snapshot.status === 'done' ? 'done' : 'review',
    title: 'Pay with crypto',
    busy,
    itemTitle: context.item.title,
    price,
    coins: CRYPTO_COINS,
    warning: CRYPTO_NETWORK_WARNING,
    acknowledged: context.acknowledged,
    payLabel: `Pay ${price} with crypto`,
    canPay,
    canBack,
    status: snapshot.matches('creating') ? 'Opening the payment page…' : null,
    error: context.error ? errorMessage(context.error) : null,
    receipt: `The receipt goes to ${context.email}.`,
    getFormProps: () => ({
      noValidate: true,
      onSubmit: (event) => {
        event.preventDefault();
        send({ type: 'crypto.submit' });
      },
    }),
    getTermsProps: () => ({
      checked: context.acknowledged,
      disabled: busy,
      onChange: (value) => send({ type: 'crypto.acknowledge', value }),
      'data-state': context.acknowledged ? 'checked' : 'unchecked',
    }),
    getPayButtonProps: () => buttonProps({ type: 'submit', disabled: !canPay, busy }),
    getBackButtonProps: () =>
      buttonProps({ onClick: () => send({ type: 'crypto.back' }), disabled: !canBack }),
  };
}
