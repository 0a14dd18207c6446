import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { changeBillingForm, errorsAfterChange, validateBillingForm, validateCvv } from '#domain/billing';
import { ErrorCode, toErrorBody } from '#domain/errors';
import {
  type BillingInfoJson,
  type CardChargeJson,
  type CreateCardChargeBody,
  orderFailed,
} from '#domain/schemas/checkout';
import { railBack, railFailed, railRedirect } from '../railOutcome';
import {
  apiStatus,
  type CardCheckpoint,
  type CardPaymentContext,
  type CardPaymentEvent,
  type CardPaymentInput,
  type CardPaymentOutput,
  type CardToken,
  CHARGE_PROCESSING,
  cardPaid,
  declinedOrderId,
  selectedCard,
  type TokenizeInput,
} from './charge';

/** The card rail's outside work (actors), guards and actions; its states are in ../cardPayment.ts. */
export const cardPaymentSetup = setup({
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
    /** Remembers the billing country of a new card paid with, for the buyer's next form. */
    rememberCountry: (_, _country: string) => {},
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
    endPaid: assign({ result: (_, charge: CardChargeJson) => cardPaid(charge) }),
    endRedirect: assign({ result: (_, charge: CardChargeJson) => railRedirect(charge.redirectLink!) }),
    endFailed: assign({ result: (_, orderId: string) => railFailed(orderId) }),
    endBack: assign({ result: railBack }),
  },
});
