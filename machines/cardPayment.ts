import { type ActorRefFrom, assertEvent, assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import {
  type BillingDetails,
  type BillingFormValues,
  type BillingFormView,
  billingDetails,
  billingFormView,
  type CardDetails,
  cardDetails,
  cardExpiry,
  changeBillingForm,
  emptyBillingForm,
  errorsAfterChange,
  maskedCard,
  validateBillingForm,
  validateCvv,
} from '#domain/billing';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd } from '#domain/money';
import {
  type BillingInfoJson,
  type CardChargeJson,
  type CheckoutItemKind,
  type CreateCardChargeBody,
  orderFailed,
} from '#domain/schemas/checkout';

/**
 * Paying for a new edition by card (the card rail of the checkout).
 *
 * The buyer's saved cards load first. With saved cards the buyer picks one (masked to its last four
 * digits) and types its security code, or uses a new card; without, the new-card form opens: billing
 * details and the card, checked with the billing rules (domain/billing.ts) when Pay is pressed,
 * each field's error cleared once that field changes. Paying needs the purchase agreement and terms
 * acknowledged: without it there is no Pay.
 *
 * A new card is tokenized at the card provider first (the number never reaches our server), then the
 * charge is created. Each purchase attempt has one idempotency key: an attempt that failed on the
 * network (no answer, so the charge may exist) is sent again with the same key and card token when
 * Pay is pressed again, so the charge never runs twice; any change to the card, the billing details
 * or the choice of card, and any other failure, starts a new attempt.
 *
 * The answer ends the flow: approved → paid; 3-D Secure → the charge is remembered (checkpoint) and
 * the buyer is sent to the provider's page; declined (402 with the order id) → failed, whose page is
 * /checkoutcomfailed/{orderId}. Any other refusal (sold out, price changed, card type, provider
 * unreachable, a network failure, …) returns to the form with its message.
 *
 * Coming back with a checkpoint (or resuming a charge found pending) the charge is read, never
 * created again: approved → paid, failed → failed, still waiting for 3-D Secure → redirect again.
 */
export interface CardCheckpoint {
  chargeId: string;
  step: 'charging' | 'redirect';
}
export interface CardPaymentInput {
  item: { kind: CheckoutItemKind; id: string; title: string };
  /** The price the buyer sees, in cents (sent as expectedPrice). */
  price: number;
  /** Where the receipt goes. */
  email: string;
  /** A charge of the buyer still waiting for 3-D Secure, to resume instead of paying again. */
  resume?: CardChargeJson | null;
  /** The charge the buyer left for 3-D Secure (kept across the redirect). */
  checkpoint?: CardCheckpoint | null;
}
export type CardPaymentOutput =
  | { kind: 'paid'; charge: CardChargeJson }
  | { kind: 'redirect'; url: string; charge: CardChargeJson }
  | { kind: 'failed'; orderId: string }
  | { kind: 'back' };

/** A card token made at the provider with the provider's public key. */
export interface CardToken {
  token: string;
  scheme: string | null;
  last4: string | null;
}
export interface TokenizeInput {
  card: CardDetails;
  billing: BillingDetails;
}
/** One purchase attempt: its idempotency key and, for a new card, the token it was made with. */
export interface CardAttempt {
  key: string;
  token: string | null;
}
export type CardFieldErrors = Partial<Record<string, ApiErrorBody>>;

export interface CardPaymentContext {
  item: CardPaymentInput['item'];
  price: number;
  email: string;
  checkpoint: CardCheckpoint | null;
  cards: BillingInfoJson[];
  /** Pay with a saved card or a new one. */
  method: 'saved' | 'new';
  selectedId: string | null;
  /** The security code of the chosen saved card. */
  cvv: string;
  values: BillingFormValues;
  /** Field → error, shown once Pay was pressed. */
  errors: CardFieldErrors;
  acknowledged: boolean;
  attempt: CardAttempt | null;
  /** Why the last payment did not go through, or why the saved cards or the charge could not load. */
  error: ApiErrorBody | null;
  result: CardPaymentOutput | null;
}
export type CardPaymentEvent =
  | { type: 'card.select'; id: string }
  | { type: 'card.cvv'; value: string }
  | { type: 'card.new' }
  | { type: 'card.saved' }
  | { type: 'card.change'; values: Partial<BillingFormValues> }
  | { type: 'card.acknowledge'; value: boolean }
  | { type: 'card.submit' }
  | { type: 'card.back' }
  | { type: 'card.retry' };

const selectedCard = (context: CardPaymentContext) => context.cards.find((c) => c.id === context.selectedId);

/** The request body of the attempt. */
export function chargeBody(context: CardPaymentContext): CreateCardChargeBody {
  const base = {
    item: { kind: context.item.kind, id: context.item.id },
    expectedPrice: context.price,
    idempotencyKey: context.attempt!.key,
  };
  if (context.method === 'saved')
    return { ...base, savedBillingInfo: { id: context.selectedId!, cvv: context.cvv } };
  return {
    ...base,
    billingInfo: {
      cardToken: context.attempt!.token!,
      ...billingDetails(context.values),
      save: context.values.save,
    },
  };
}

/** A charge the provider has not answered the server about yet (its message is the text shown). */
export const CHARGE_PROCESSING = 'CHARGE_PROCESSING';

const apiStatus = (error: unknown) => (error as { status?: number } | null)?.status;
/** The order a 402 decline names. */
const declinedOrderId = (error: unknown) => {
  const orderId = (toErrorBody(error) as ApiErrorBody & { orderId?: unknown }).orderId;
  return apiStatus(error) === 402 && typeof orderId === 'string' ? orderId : null;
};

export const cardPaymentMachine = setup({
  types: {
    context: {} as CardPaymentContext,
    events: {} as CardPaymentEvent,
    input: {} as CardPaymentInput,
    output: {} as CardPaymentOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** GET billing-info: the buyer's saved cards. */
    listBillingInfo: fromPromise<BillingInfoJson[]>(async () => {
      throw new Error('listBillingInfo not provided');
    }),
    /** POST {apiUrl}/tokens at the card provider with its public key. */
    tokenizeCard: fromPromise<CardToken, TokenizeInput>(async () => {
      throw new Error('tokenizeCard not provided');
    }),
    /** POST checkout-com-charges. */
    createCharge: fromPromise<CardChargeJson, CreateCardChargeBody>(async () => {
      throw new Error('createCharge not provided');
    }),
    /** GET checkout-com-charges/{id}. */
    getCharge: fromPromise<CardChargeJson, { id: string }>(async () => {
      throw new Error('getCharge not provided');
    }),
  },
  guards: {
    hasCheckpoint: ({ context }) => context.checkpoint !== null,
    hasSavedCards: ({ context }) => context.cards.length > 0,
    payingSavedCard: ({ context }) => context.method === 'saved',
    knownCard: ({ context, event }) => {
      assertEvent(event, 'card.select');
      return context.cards.some((c) => c.id === event.id);
    },
    acknowledged: ({ context }) => context.acknowledged,
    /** Acknowledged, a saved card chosen and its security code typed. */
    savedCardReady: ({ context }) => {
      const card = selectedCard(context);
      return context.acknowledged && !!card && validateCvv(context.cvv, card.scheme) === null;
    },
    /** Acknowledged, and the billing details and card pass the billing rules. */
    newCardReady: ({ context }) =>
      context.acknowledged && Object.keys(validateBillingForm(context.values)).length === 0,
    /** A new card whose attempt has no token yet. */
    needsToken: ({ context }) => context.method === 'new' && !context.attempt?.token,
    chargeSucceeded: (_, charge: CardChargeJson) => charge.success,
    chargeAwaitingBuyer: (_, charge: CardChargeJson) => charge.unresolved && !!charge.redirectLink,
    chargeFailed: (_, charge: CardChargeJson) => orderFailed(charge.order.status),
    declined: (_, error: unknown) => declinedOrderId(error) !== null,
    /** No answer came: the request may have been carried out. */
    networkFailure: (_, error: unknown) => toErrorBody(error).code === ErrorCode.NETWORK_FAILURE,
    notFound: (_, error: unknown) => apiStatus(error) === 404,
  },
  actions: {
    /** Starts a purchase attempt with a new idempotency key, unless one is pending a retry. */
    beginAttempt: assign({
      attempt: ({ context }) => context.attempt ?? { key: crypto.randomUUID(), token: null },
    }),
    /** The next Pay is a new attempt. */
    dropAttempt: assign({ attempt: null }),
    /** The attempt's card token: a retry of the attempt charges it again. */
    keepToken: assign({
      attempt: ({ context }, token: CardToken) => ({ key: context.attempt!.key, token: token.token }),
    }),
    /** Remembers the charge across the redirect to 3-D Secure. */
    saveCheckpoint: (_, _params: CardCheckpoint) => {},
    /** Forgets the remembered charge: it is settled. */
    clearCheckpoint: () => {},
    /** The checkpoint names a charge the server does not know. */
    forgetCheckpoint: assign({ checkpoint: null }),
    /** Saved cards first (the newest chosen); without any, the new-card form. */
    offerCards: assign((_, cards: BillingInfoJson[]) => ({
      cards,
      method: cards.length > 0 ? ('saved' as const) : ('new' as const),
      selectedId: cards[0]?.id ?? null,
    })),
    /** The saved cards did not load: a new card can still pay. */
    offerNewCardOnly: assign((_, error: unknown) => ({
      cards: [],
      method: 'new' as const,
      error: toErrorBody(error),
    })),
    acknowledge: assign({
      acknowledged: ({ event }) => {
        assertEvent(event, 'card.acknowledge');
        return event.value;
      },
    }),
    selectCard: assign(({ event }) => {
      assertEvent(event, 'card.select');
      return { selectedId: event.id, cvv: '', errors: {}, error: null };
    }),
    typeCvv: assign(({ context, event }) => {
      assertEvent(event, 'card.cvv');
      const { cvv: _, ...errors } = context.errors;
      return { cvv: event.value, errors, error: null };
    }),
    chooseNewCard: assign({ method: 'new', errors: {}, error: null }),
    chooseSavedCard: assign({ method: 'saved', errors: {}, error: null }),
    changeForm: assign(({ context, event }) => {
      assertEvent(event, 'card.change');
      return {
        values: changeBillingForm(context.values, event.values),
        errors: errorsAfterChange(context.errors, context.values, event.values),
        error: null,
      };
    }),
    showCvvError: assign({
      errors: ({ context }) => {
        const error = validateCvv(context.cvv, selectedCard(context)?.scheme ?? null);
        return error ? { cvv: error } : {};
      },
    }),
    showFormErrors: assign({ errors: ({ context }) => validateBillingForm(context.values) }),
    clearMessages: assign({ errors: {}, error: null }),
    showError: assign({ error: (_, error: unknown) => toErrorBody(error) }),
    /** The charge is neither settled nor sent to 3-D Secure yet: the provider has not answered the server. */
    showChargeProcessing: assign({
      error: {
        code: CHARGE_PROCESSING,
        message: 'Your card payment is still being processed. Please try again in a moment.',
      },
    }),
    endPaid: assign({ result: (_, charge: CardChargeJson) => ({ kind: 'paid' as const, charge }) }),
    endRedirect: assign({
      result: (_, charge: CardChargeJson) => ({
        kind: 'redirect' as const,
        url: charge.redirectLink!,
        charge,
      }),
    }),
    endFailed: assign({ result: (_, orderId: string) => ({ kind: 'failed' as const, orderId }) }),
    endBack: assign({ result: { kind: 'back' as const } }),
  },
}).createMachine({
  id: 'cardPayment',
  context: ({ input }) => ({
    item: input.item,
    price: input.price,
    email: input.email,
    checkpoint:
      input.checkpoint ?? (input.resume ? { chargeId: input.resume.id, step: 'redirect' as const } : null),
    cards: [],
    method: 'new',
    selectedId: null,
    cvv: '',
    values: emptyBillingForm,
    errors: {},
    acknowledged: false,
    attempt: null,
    error: null,
    result: null,
  }),
  initial: 'starting',
  output: ({ context }) => context.result!,
  states: {
    starting: {
      always: [{ guard: 'hasCheckpoint', target: 'restoring' }, { target: 'loading' }],
    },
    restoring: {
      tags: ['busy'],
      invoke: {
        id: 'getCharge',
        src: 'getCharge',
        input: ({ context }) => ({ id: context.checkpoint!.chargeId }),
        onDone: [
          {
            guard: { type: 'chargeSucceeded', params: ({ event }) => event.output },
            target: 'paid',
            actions: { type: 'endPaid', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'chargeFailed', params: ({ event }) => event.output },
            target: 'failed',
            actions: { type: 'endFailed', params: ({ event }) => event.output.orderId },
          },
          {
            guard: { type: 'chargeAwaitingBuyer', params: ({ event }) => event.output },
            target: 'redirect',
            actions: [
              { type: 'endRedirect', params: ({ event }) => event.output },
              {
                type: 'saveCheckpoint',
                params: ({ event }) => ({ chargeId: event.output.id, step: 'redirect' as const }),
              },
            ],
          },
          { target: 'restoreFailed', actions: 'showChargeProcessing' },
        ],
        onError: [
          // A charge we do not know (another account's, or gone): pay afresh.
          {
            guard: { type: 'notFound', params: ({ event }: { event: { error: unknown } }) => event.error },
            target: 'loading',
            actions: ['forgetCheckpoint', 'clearCheckpoint'],
          },
          {
            target: 'restoreFailed',
            actions: { type: 'showError', params: ({ event }: { event: { error: unknown } }) => event.error },
          },
        ],
      },
    },
    restoreFailed: {
      on: {
        'card.retry': { target: 'restoring', actions: 'clearMessages' },
        'card.back': { target: 'back', actions: 'endBack' },
      },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'listBillingInfo',
        src: 'listBillingInfo',
        onDone: { target: 'form', actions: { type: 'offerCards', params: ({ event }) => event.output } },
        onError: {
          target: 'form',
          actions: {
            type: 'offerNewCardOnly',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      },
      on: { 'card.back': { target: 'back', actions: 'endBack' } },
    },
    form: {
      initial: 'choosing',
      on: {
        'card.acknowledge': { actions: 'acknowledge' },
        'card.back': { target: 'back', actions: 'endBack' },
      },
      states: {
        choosing: {
          always: [{ guard: 'payingSavedCard', target: 'saved' }, { target: 'newCard' }],
        },
        saved: {
          on: {
            'card.select': { guard: 'knownCard', actions: ['selectCard', 'dropAttempt'] },
            'card.cvv': { actions: ['typeCvv', 'dropAttempt'] },
            'card.new': { target: 'newCard', actions: ['chooseNewCard', 'dropAttempt'] },
            'card.submit': [
              { guard: 'savedCardReady', target: '#cardPayment.paying' },
              { guard: 'acknowledged', actions: 'showCvvError' },
            ],
          },
        },
        newCard: {
          on: {
            'card.change': { actions: ['changeForm', 'dropAttempt'] },
            'card.saved': {
              guard: 'hasSavedCards',
              target: 'saved',
              actions: ['chooseSavedCard', 'dropAttempt'],
            },
            'card.submit': [
              { guard: 'newCardReady', target: '#cardPayment.paying' },
              { guard: 'acknowledged', actions: 'showFormErrors' },
            ],
          },
        },
      },
    },
    paying: {
      tags: ['busy'],
      entry: ['beginAttempt', 'clearMessages'],
      initial: 'next',
      states: {
        next: {
          always: [{ guard: 'needsToken', target: 'tokenizing' }, { target: 'charging' }],
        },
        tokenizing: {
          invoke: {
            id: 'tokenizeCard',
            src: 'tokenizeCard',
            input: ({ context }) => ({
              card: cardDetails(context.values),
              billing: billingDetails(context.values),
            }),
            onDone: {
              target: 'charging',
              actions: { type: 'keepToken', params: ({ event }) => event.output },
            },
            onError: [
              {
                guard: {
                  type: 'networkFailure',
                  params: ({ event }: { event: { error: unknown } }) => event.error,
                },
                target: '#cardPayment.form',
                actions: {
                  type: 'showError',
                  params: ({ event }: { event: { error: unknown } }) => event.error,
                },
              },
              {
                target: '#cardPayment.form',
                actions: [
                  { type: 'showError', params: ({ event }: { event: { error: unknown } }) => event.error },
                  'dropAttempt',
                ],
              },
            ],
          },
        },
        charging: {
          invoke: {
            id: 'createCharge',
            src: 'createCharge',
            input: ({ context }) => chargeBody(context),
            onDone: [
              {
                guard: { type: 'chargeSucceeded', params: ({ event }) => event.output },
                target: '#cardPayment.paid',
                actions: { type: 'endPaid', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'chargeAwaitingBuyer', params: ({ event }) => event.output },
                target: '#cardPayment.redirect',
                actions: [
                  { type: 'endRedirect', params: ({ event }) => event.output },
                  {
                    type: 'saveCheckpoint',
                    params: ({ event }) => ({ chargeId: event.output.id, step: 'redirect' as const }),
                  },
                ],
              },
              // Neither approved nor waiting for the buyer: a retried attempt that was declined.
              {
                target: '#cardPayment.failed',
                actions: { type: 'endFailed', params: ({ event }) => event.output.orderId },
              },
            ],
            onError: [
              {
                guard: {
                  type: 'declined',
                  params: ({ event }: { event: { error: unknown } }) => event.error,
                },
                target: '#cardPayment.failed',
                actions: {
                  type: 'endFailed',
                  params: ({ event }: { event: { error: unknown } }) => declinedOrderId(event.error)!,
                },
              },
              {
                guard: {
                  type: 'networkFailure',
                  params: ({ event }: { event: { error: unknown } }) => event.error,
                },
                target: '#cardPayment.form',
                actions: {
                  type: 'showError',
                  params: ({ event }: { event: { error: unknown } }) => event.error,
                },
              },
              {
                target: '#cardPayment.form',
                actions: [
                  { type: 'showError', params: ({ event }: { event: { error: unknown } }) => event.error },
                  'dropAttempt',
                ],
              },
            ],
          },
        },
      },
    },
    paid: { type: 'final', entry: 'clearCheckpoint' },
    redirect: { type: 'final' },
    failed: { type: 'final', entry: 'clearCheckpoint' },
    back: { type: 'final' },
  },
});

export type CardPaymentActor = ActorRefFrom<typeof cardPaymentMachine>;

/** A saved card as the choice lists it. */
export interface SavedCardOption {
  id: string;
  /** "Visa •••• 4242". */
  label: string;
  /** "Expires 04/2030". */
  expiry: string | null;
  selected: boolean;
}
export interface CardPaymentView {
  panel: 'loading' | 'restoring' | 'restoreFailed' | 'form' | 'done';
  busy: boolean;
  /** "Night Market". */
  itemTitle: string;
  /** "$25". */
  price: string;
  /** "Pay $25". */
  payLabel: string;
  canPay: boolean;
  canBack: boolean;
  canRetry: boolean;
  /** What runs now, for a status line. */
  status: string | null;
  /** Pay with a saved card (the list) or a new one (the billing form). */
  method: 'saved' | 'new';
  savedCards: SavedCardOption[];
  /** "Use a saved card" from the new-card form. */
  canUseSaved: boolean;
  /** The security code of the chosen saved card; null without one. */
  cvv: { value: string; error: string | null } | null;
  form: BillingFormView | null;
  acknowledged: boolean;
  /** Why the payment (or the saved cards) did not go through. */
  error: string | null;
  receipt: string;
  select: (id: string) => void;
  setCvv: (value: string) => void;
  useNewCard: () => void;
  useSavedCard: () => void;
  change: (values: Partial<BillingFormValues>) => void;
  acknowledge: (value: boolean) => void;
  pay: () => void;
  back: () => void;
  retry: () => void;
}

function statusText(snapshot: SnapshotFrom<typeof cardPaymentMachine>): string | null {
  if (snapshot.matches('loading')) return 'Loading your saved cards…';
  if (snapshot.matches('restoring')) return 'Checking your payment…';
  if (snapshot.matches({ paying: 'tokenizing' })) return 'Checking your card…';
  if (snapshot.matches({ paying: 'charging' })) return 'Charging your card…';
  return null;
}

function panelOf(snapshot: SnapshotFrom<typeof cardPaymentMachine>): CardPaymentView['panel'] {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('loading') || snapshot.matches('starting')) return 'loading';
  if (snapshot.matches('restoring')) return 'restoring';
  if (snapshot.matches('restoreFailed')) return 'restoreFailed';
  return 'form';
}

export function connectCardPayment(
  snapshot: SnapshotFrom<typeof cardPaymentMachine>,
  send: (event: CardPaymentEvent) => void,
): CardPaymentView {
  const { context } = snapshot;
  const price = formatUsd(context.price);
  const selected = context.method === 'saved' ? selectedCard(context) : undefined;
  return {
    panel: panelOf(snapshot),
    busy: snapshot.hasTag('busy'),
    itemTitle: context.item.title,
    price,
    payLabel: `Pay ${price}`,
    canPay: snapshot.can({ type: 'card.submit' }),
    canBack: snapshot.can({ type: 'card.back' }),
    canRetry: snapshot.can({ type: 'card.retry' }),
    status: statusText(snapshot),
    method: context.method,
    savedCards: context.cards.map((c) => ({
      id: c.id,
      label: maskedCard(c.scheme, c.lastFourDigits),
      expiry: cardExpiry(c.expiryMonth, c.expiryYear),
      selected: c.id === context.selectedId,
    })),
    canUseSaved: snapshot.can({ type: 'card.saved' }),
    cvv: selected ? { value: context.cvv, error: context.errors.cvv?.message ?? null } : null,
    form: context.method === 'new' ? billingFormView(context.values, context.errors) : null,
    acknowledged: context.acknowledged,
    error: context.error ? errorMessage(context.error) : null,
    receipt: `The receipt goes to ${context.email}.`,
    select: (id) => send({ type: 'card.select', id }),
    setCvv: (value) => send({ type: 'card.cvv', value }),
    useNewCard: () => send({ type: 'card.new' }),
    useSavedCard: () => send({ type: 'card.saved' }),
    change: (values) => send({ type: 'card.change', values }),
    acknowledge: (value) => send({ type: 'card.acknowledge', value }),
    pay: () => send({ type: 'card.submit' }),
    back: () => send({ type: 'card.back' }),
    retry: () => send({ type: 'card.retry' }),
  };
}
