import type { ActorRefFrom } from 'xstate';
import { billingDetails, cardDetails, emptyBillingForm, prefilledBillingForm } from '#domain/billing';
import { chargeBody, declinedOrderId } from './cardPayment/charge';
import { cardPaymentSetup } from './cardPayment/setup';

export type {
  CardAttempt,
  CardCheckpoint,
  CardFieldErrors,
  CardPaymentContext,
  CardPaymentEvent,
  CardPaymentInput,
  CardPaymentOutput,
  CardToken,
  TokenizeInput,
} from './cardPayment/charge';
export { CHARGE_PROCESSING, chargeBody, selectedCard } from './cardPayment/charge';

/** The error of a failed invoke, as an action's or guard's params. */
const errorOf = ({ event }: { event: { error: unknown } }) => event.error;

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
export const cardPaymentMachine = cardPaymentSetup.createMachine({
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
    values: input.prefill ? prefilledBillingForm(input.prefill) : emptyBillingForm,
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
            guard: { type: 'notFound', params: errorOf },
            target: 'loading',
            actions: ['forgetCheckpoint', 'clearCheckpoint'],
          },
          {
            target: 'restoreFailed',
            actions: { type: 'showError', params: errorOf },
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
          actions: { type: 'offerNewCardOnly', params: errorOf },
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
              {
                guard: 'newCardReady',
                target: '#cardPayment.paying',
                actions: { type: 'rememberCountry', params: ({ context }) => context.values.country },
              },
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
                guard: { type: 'networkFailure', params: errorOf },
                target: '#cardPayment.form',
                actions: { type: 'showError', params: errorOf },
              },
              {
                target: '#cardPayment.form',
                actions: [{ type: 'showError', params: errorOf }, 'dropAttempt'],
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
                guard: { type: 'declined', params: errorOf },
                target: '#cardPayment.failed',
                actions: {
                  type: 'endFailed',
                  params: ({ event }: { event: { error: unknown } }) => declinedOrderId(event.error)!,
                },
              },
              {
                guard: { type: 'networkFailure', params: errorOf },
                target: '#cardPayment.form',
                actions: { type: 'showError', params: errorOf },
              },
              {
                target: '#cardPayment.form',
                actions: [{ type: 'showError', params: errorOf }, 'dropAttempt'],
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
