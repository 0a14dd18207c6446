import { type ActorRefFrom, assertEvent, assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { WAITING_FOR_NETWORK } from '#domain/chargeProgress';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd, parseDollars } from '#domain/money';
import type { TopupRequest } from '#domain/ports/checkout';
import { type CoinbaseChargeJson, TOPUP_MAX_CENTS, TOPUP_MIN_CENTS } from '#domain/schemas/crypto';
import { CRYPTO_COINS } from './cryptoPayment';

export type { TopupRequest } from '#domain/ports/checkout';
export { topupChargeBody } from '#domain/ports/checkout';

/**
 * Adding funds to the FUSD balance with crypto (Settings → Wallet): a top-up.
 *
 * The collector types an amount in dollars ($1 to $10,000, at most two decimals). Continue opens a
 * hosted top-up charge for it (POST coinbase-charges, type topup, the `createTopup` actor); its hosted
 * page ends the flow: `redirectTo` sends the browser there (output `{ url }`). An answer without a
 * hosted page is CREATE_COINBASE_CHARGE.
 *
 * Each attempt has one idempotency key, as in cryptoPayment: an attempt that failed on the network
 * (no answer, so the charge may exist) is sent again with the same key by the next Continue; a change
 * of the amount, and any other failure (another crypto charge open, provider unreachable, no hosted
 * page, …), starts a new attempt. The key comes from the `newKey` action (crypto.randomUUID; tests
 * provide their own).
 *
 * After paying, the provider sends the buyer back to /settings/wallet?topup={chargeId}: the machine
 * starts with that charge (`returnedChargeId`) and reads it (`getCharge`) at once and then every
 * `pollInterval` (2 s), at most `maxPolls` (50) reads in all; a read that fails counts as a read and
 * the next tick reads again. SEND_FUSD_SUCCEEDED: the FUSD is in the wallet (`announceAdded` lets the
 * page refresh the balance); SEND_FUSD_FAILED: paid, but the transfer was refused (the operator
 * sees it); EXPIRED or CANCELED: not paid; anything else (NEW, PENDING, COMPLETED, UNRESOLVED,
 * RESOLVED) is still on its way (PENDING: the network has seen the payment and the page says it waits
 * for its confirmation; the FUSD is sent only once the network confirms it). After the last read the page says the payment is still being
 * confirmed. From any of these outcomes the collector may add more funds.
 */
export interface CryptoTopupInput {
  /** The charge the provider sent the buyer back with (`?topup=`), or null. */
  returnedChargeId: string | null;
}
export interface CryptoTopupOutput {
  /** The provider's hosted payment page the browser goes to. */
  url: string;
}

/** One top-up attempt: its idempotency key. */
export interface TopupAttempt {
  key: string;
}

/** Why the typed amount cannot be topped up. */
export type TopupAmountError = 'invalid' | 'min' | 'max';

export interface CryptoTopupContext {
  /** The charge being checked after the buyer came back from the payment page. */
  chargeId: string | null;
  /** The amount field, in dollars as typed. */
  amount: string;
  /** The amount's error after the last Continue; cleared by a change of the amount. */
  amountError: TopupAmountError | null;
  attempt: TopupAttempt | null;
  /** Why the last attempt did not open a payment page. */
  error: ApiErrorBody | null;
  /** Reads of the returned charge so far. */
  polls: number;
  /** The returned charge as last read. */
  charge: CoinbaseChargeJson | null;
  /** The hosted page the browser goes to. */
  url: string | null;
}
export type CryptoTopupEvent =
  | { type: 'topup.amount'; value: string }
  | { type: 'topup.submit' }
  | { type: 'topup.again' };

/** Reads of a returned charge: at once, then every `pollMs`, `maxPolls` in all. */
export const topupTimings = { pollMs: 2000, maxPolls: 50 } as const;

export const TOPUP_AMOUNT_ERRORS: Record<TopupAmountError, string> = {
  invalid: 'Enter an amount in dollars.',
  min: `Top up at least ${formatUsd(TOPUP_MIN_CENTS)}.`,
  max: `Top up at most ${formatUsd(TOPUP_MAX_CENTS)}.`,
};

const coinList = CRYPTO_COINS.map((c) => c.symbol);
/** "From $1 to $10,000, paid in ETH, BTC, BCH or USDC on the payment page." */
export const TOPUP_HINT = `From ${formatUsd(TOPUP_MIN_CENTS)} to ${formatUsd(TOPUP_MAX_CENTS)}, paid in ${coinList
  .slice(0, -1)
  .join(', ')} or ${coinList.at(-1)} on the payment page.`;

export const TOPUP_MESSAGES = {
  failed: 'We received your payment but could not send the FUSD to your wallet. Our team has been notified.',
  ended: 'The top-up was not paid.',
  slow: 'Your payment is still being confirmed. The FUSD arrives in your wallet once it is; check back in a few minutes.',
  chargePending: 'You have a crypto payment open. Finish or cancel it first.',
} as const;

/** "Added $25 to your balance." */
export const addedMessage = (cents: number) => `Added ${formatUsd(cents)} to your balance.`;

/** How a top-up the buyer came back from ended: FUSD sent, paid but not sent, not paid; null while on its way. */
export function topupOutcome(charge: CoinbaseChargeJson | null): 'added' | 'failed' | 'ended' | null {
  switch (charge?.status) {
    case 'SEND_FUSD_SUCCEEDED':
      return 'added';
    case 'SEND_FUSD_FAILED':
      return 'failed';
    case 'EXPIRED':
    case 'CANCELED':
      return 'ended';
    default:
      return null;
  }
}

/**
 * What a purchase dialog says of the top-up it came back from, once it stopped following it: the
 * FUSD added, not sent, not paid, or still being confirmed.
 */
export function returnedTopupMessage(charge: CoinbaseChargeJson | null): string {
  const outcome = topupOutcome(charge);
  return outcome === 'added' ? addedMessage(charge!.amount) : TOPUP_MESSAGES[outcome ?? 'slow'];
}

/** What a purchase dialog says while it awaits the top-up it came back from. */
export const topupWaitingStatus = (charge: CoinbaseChargeJson | null) =>
  charge?.status === 'PENDING' ? WAITING_FOR_NETWORK : 'Waiting for your top-up to arrive…';

/** The amount typed in dollars, in cents, or why it cannot be topped up. */
export function topupAmount(
  value: string,
): { ok: true; cents: number } | { ok: false; error: TopupAmountError } {
  const cents = parseDollars(value);
  if (cents === null) return { ok: false, error: 'invalid' };
  if (cents < TOPUP_MIN_CENTS) return { ok: false, error: 'min' };
  if (cents > TOPUP_MAX_CENTS) return { ok: false, error: 'max' };
  return { ok: true, cents };
}

/** The request of the current attempt. */
export function topupRequest(context: CryptoTopupContext): TopupRequest {
  const amount = topupAmount(context.amount);
  if (!amount.ok) throw new Error(`not an amount to top up: ${context.amount}`);
  return { amount: amount.cents, idempotencyKey: context.attempt!.key };
}

/** The message of a failed attempt: an open crypto charge is worded for a top-up. */
export function topupErrorMessage(error: ApiErrorBody): string {
  return error.code === ErrorCode.CHARGE_PENDING ? TOPUP_MESSAGES.chargePending : errorMessage(error);
}

const noHostedPage = (): ApiErrorBody => ({
  code: ErrorCode.CREATE_COINBASE_CHARGE,
  message: errorMessage({ code: ErrorCode.CREATE_COINBASE_CHARGE }),
});
type ErrorEvent = { event: { error: unknown } };

export const cryptoTopupMachine = setup({
  types: {
    context: {} as CryptoTopupContext,
    events: {} as CryptoTopupEvent,
    input: {} as CryptoTopupInput,
    output: {} as CryptoTopupOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** POST coinbase-charges { type: topup, topupAmount, idempotencyKey }. */
    createTopup: fromPromise<CoinbaseChargeJson, TopupRequest>(async () => {
      throw new Error('createTopup not provided');
    }),
    /** GET coinbase-charges/{id}. */
    getCharge: fromPromise<CoinbaseChargeJson, { id: string }>(async () => {
      throw new Error('getCharge not provided');
    }),
  },
  guards: {
    returned: ({ context }) => context.chargeId !== null,
    /** The field is set to something else than it shows. */
    amountChanges: ({ context, event }) => {
      assertEvent(event, 'topup.amount');
      return event.value !== context.amount;
    },
    /** An attempt that failed on the network (its amount unchanged since): Continue sends it again. */
    retryingAttempt: ({ context }) => context.attempt !== null,
    amountValid: ({ context }) => topupAmount(context.amount).ok,
    hasHostedPage: (_, charge: CoinbaseChargeJson) => !!charge.hostedUrl,
    /** No answer came: the charge may have been opened. */
    networkFailure: (_, error: unknown) => toErrorBody(error).code === ErrorCode.NETWORK_FAILURE,
    fusdSent: (_, charge: CoinbaseChargeJson) => charge.status === 'SEND_FUSD_SUCCEEDED',
    fusdFailed: (_, charge: CoinbaseChargeJson) => charge.status === 'SEND_FUSD_FAILED',
    notPaid: (_, charge: CoinbaseChargeJson) => charge.status === 'EXPIRED' || charge.status === 'CANCELED',
    /** Fewer than maxPolls (50) reads so far. */
    pollsLeft: ({ context }) => context.polls < topupTimings.maxPolls,
  },
  actions: {
    /** Starts a top-up attempt with a new idempotency key. */
    newKey: assign({ attempt: () => ({ key: crypto.randomUUID() }) }),
    /** The next Continue is a new attempt. */
    dropAttempt: assign({ attempt: null }),
    setAmount: assign(({ event }) => {
      assertEvent(event, 'topup.amount');
      return { amount: event.value, amountError: null, error: null };
    }),
    showAmountError: assign(({ context }) => {
      const result = topupAmount(context.amount);
      return { amountError: result.ok ? null : result.error, error: null };
    }),
    showError: assign({ error: (_, error: unknown) => toErrorBody(error) }),
    /** The provider gave no hosted page to pay on. */
    showNoHostedPage: assign({ error: noHostedPage }),
    rememberCharge: assign({ charge: (_, charge: CoinbaseChargeJson) => charge }),
    countPoll: assign({ polls: ({ context }) => context.polls + 1 }),
    rememberUrl: assign({ url: (_, charge: CoinbaseChargeJson) => charge.hostedUrl }),
    /** Sends the browser to the hosted payment page (window.location.assign). */
    redirectTo: (_, _params: { url: string }) => {},
    /** The FUSD of a top-up is in the wallet: the page refreshes the balance (and may toast). */
    announceAdded: (_, _charge: CoinbaseChargeJson) => {},
    startOver: assign({
      amount: '',
      amountError: null,
      attempt: null,
      error: null,
      polls: 0,
      charge: null,
      url: null,
    }),
  },
  delays: {
    pollInterval: topupTimings.pollMs,
  },
}).createMachine({
  id: 'cryptoTopup',
  context: ({ input }) => ({
    chargeId: input.returnedChargeId,
    amount: '',
    amountError: null,
    attempt: null,
    error: null,
    polls: 0,
    charge: null,
    url: null,
  }),
  initial: 'starting',
  output: ({ context }) => ({ url: context.url! }),
  states: {
    starting: {
      always: [{ guard: 'returned', target: 'checking' }, { target: 'editing' }],
    },
    editing: {
      on: {
        'topup.amount': { guard: 'amountChanges', actions: ['setAmount', 'dropAttempt'] },
        'topup.submit': [
          { guard: 'retryingAttempt', target: 'creating' },
          { guard: 'amountValid', target: 'creating', actions: 'newKey' },
          { actions: 'showAmountError' },
        ],
      },
    },
    creating: {
      tags: ['busy'],
      entry: assign({ error: null, amountError: null }),
      invoke: {
        id: 'createTopup',
        src: 'createTopup',
        input: ({ context }) => topupRequest(context),
        onDone: [
          {
            guard: { type: 'hasHostedPage', params: ({ event }) => event.output },
            target: 'redirecting',
            actions: [
              { type: 'rememberUrl', params: ({ event }) => event.output },
              { type: 'redirectTo', params: ({ event }) => ({ url: event.output.hostedUrl! }) },
            ],
          },
          { target: 'editing', actions: ['showNoHostedPage', 'dropAttempt'] },
        ],
        onError: [
          {
            guard: { type: 'networkFailure', params: ({ event }: ErrorEvent) => event.error },
            target: 'editing',
            actions: { type: 'showError', params: ({ event }: ErrorEvent) => event.error },
          },
          {
            target: 'editing',
            actions: [{ type: 'showError', params: ({ event }: ErrorEvent) => event.error }, 'dropAttempt'],
          },
        ],
      },
    },
    redirecting: { type: 'final', tags: ['busy'] },
    checking: {
      tags: ['busy'],
      initial: 'reading',
      states: {
        reading: {
          entry: 'countPoll',
          invoke: {
            id: 'getCharge',
            src: 'getCharge',
            input: ({ context }) => ({ id: context.chargeId! }),
            onDone: [
              {
                guard: { type: 'fusdSent', params: ({ event }) => event.output },
                target: '#cryptoTopup.added',
                actions: [
                  { type: 'rememberCharge', params: ({ event }) => event.output },
                  { type: 'announceAdded', params: ({ event }) => event.output },
                ],
              },
              {
                guard: { type: 'fusdFailed', params: ({ event }) => event.output },
                target: '#cryptoTopup.failed',
                actions: { type: 'rememberCharge', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'notPaid', params: ({ event }) => event.output },
                target: '#cryptoTopup.ended',
                actions: { type: 'rememberCharge', params: ({ event }) => event.output },
              },
              { target: 'next', actions: { type: 'rememberCharge', params: ({ event }) => event.output } },
            ],
            // A charge that cannot be read now is read again on the next tick.
            onError: { target: 'next' },
          },
        },
        next: {
          always: [{ guard: 'pollsLeft', target: 'waiting' }, { target: '#cryptoTopup.slow' }],
        },
        waiting: {
          after: { pollInterval: 'reading' },
        },
      },
    },
    added: { on: { 'topup.again': { target: 'editing', actions: 'startOver' } } },
    failed: { on: { 'topup.again': { target: 'editing', actions: 'startOver' } } },
    ended: { on: { 'topup.again': { target: 'editing', actions: 'startOver' } } },
    slow: { on: { 'topup.again': { target: 'editing', actions: 'startOver' } } },
  },
});

export type CryptoTopupActor = ActorRefFrom<typeof cryptoTopupMachine>;

export type TopupPanel = 'form' | 'checking' | 'added' | 'failed' | 'ended' | 'slow' | 'redirecting';

export interface CryptoTopupView {
  panel: TopupPanel;
  /** "Add funds with crypto". */
  title: string;
  /** "Amount (USD)". */
  amountLabel: string;
  /** The amount field as typed. */
  amount: string;
  /** The amount's error ("Top up at least $1."). */
  amountError: string | null;
  /** "From $1 to $10,000, paid in ETH, BTC, BCH or USDC on the payment page." */
  hint: string;
  canEdit: boolean;
  canSubmit: boolean;
  /** "Continue to payment". */
  submitLabel: string;
  busy: boolean;
  /** What runs now, for a status line. */
  status: string | null;
  /** The outcome of a returned top-up. */
  message: string | null;
  /** Why the payment page did not open. */
  error: string | null;
  canAgain: boolean;
  /** "Add more funds". */
  againLabel: string;
  setAmount: (value: string) => void;
  submit: () => void;
  again: () => void;
}

function panelOf(snapshot: SnapshotFrom<typeof cryptoTopupMachine>): TopupPanel {
  if (snapshot.matches('checking')) return 'checking';
  for (const panel of ['added', 'failed', 'ended', 'slow', 'redirecting'] as const)
    if (snapshot.matches(panel)) return panel;
  return 'form';
}

export function connectCryptoTopup(
  snapshot: SnapshotFrom<typeof cryptoTopupMachine>,
  send: (event: CryptoTopupEvent) => void,
): CryptoTopupView {
  const { context } = snapshot;
  const panel = panelOf(snapshot);
  const message =
    panel === 'added'
      ? addedMessage(context.charge!.amount)
      : panel === 'failed' || panel === 'ended' || panel === 'slow'
        ? TOPUP_MESSAGES[panel]
        : null;
  return {
    panel,
    title: 'Add funds with crypto',
    amountLabel: 'Amount (USD)',
    amount: context.amount,
    amountError: context.amountError ? TOPUP_AMOUNT_ERRORS[context.amountError] : null,
    hint: TOPUP_HINT,
    canEdit: snapshot.matches('editing'),
    canSubmit: snapshot.can({ type: 'topup.submit' }),
    submitLabel: 'Continue to payment',
    busy: snapshot.hasTag('busy'),
    status:
      panel === 'checking'
        ? context.charge?.status === 'PENDING'
          ? WAITING_FOR_NETWORK
          : 'Checking your top-up…'
        : snapshot.matches('creating') || panel === 'redirecting'
          ? 'Opening the payment page…'
          : null,
    message,
    error: context.error ? topupErrorMessage(context.error) : null,
    canAgain: snapshot.can({ type: 'topup.again' }),
    againLabel: 'Add more funds',
    setAmount: (value) => send({ type: 'topup.amount', value }),
    submit: () => send({ type: 'topup.submit' }),
    again: () => send({ type: 'topup.again' }),
  };
}
