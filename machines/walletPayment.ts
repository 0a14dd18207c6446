import { type ActorRefFrom, assertEvent, assign, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import {
  type BillingFormValues,
  billingDetails,
  changeBillingForm,
  emptyBillingForm,
  errorsAfterChange,
  validateBilling,
  walletContactGap,
} from '#domain/billing';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import type {
  MobileWallet,
  WalletAuthorization,
  WalletBilling,
  WalletPaymentEvent,
  WalletSheetCommand,
} from '#domain/ports/checkout';
import type { CardChargeJson, CheckoutItemKind, CreateCardChargeBody } from '#domain/schemas/checkout';
import type { CardPaymentOutput } from './cardPayment';
import { cardPaid } from './cardPayment/charge';
import { railBack, railFailed, railRedirect } from './railOutcome';

export type {
  MobileWallet,
  WalletAuthorization,
  WalletBilling,
  WalletPaymentEvent,
  WalletSheetCommand,
  WalletSheetEvent,
} from '#domain/ports/checkout';

/**
 * Paying for a new edition with a mobile wallet: Apple Pay or Google Pay (the "mobile wallet pay"
 * panel of the checkout). Both end as a card payment at the card provider.
 *
 * The panel shows the item and the price; Pay needs the purchase agreement and terms acknowledged.
 * Pay opens the wallet's payment sheet (`sheet`, a callback actor started by the click, as Apple
 * requires): Apple Pay validates the merchant through our server on the way. The sheet reports:
 * - `wallet.authorized` with the wallet's payment token and billing contact, checked by the wallet's
 *   rule (walletContactGap). Apple Pay needs the phone with its country calling code, address line
 *   1, postal code, city, state and country: without one of them the payment is APPLE_PAY_ADDRESS,
 *   naming the field (its sheet is still open and shows it). Google Pay needs address line 1, city,
 *   postal code and country; Google's sheet has closed by then, so a contact without them opens the
 *   "Google Pay billing" panel instead: the billing address form, filled with what Google shared,
 *   checked by the billing rules on Continue. With a whole contact the token is exchanged for a card
 *   token at the provider (`tokenizeWallet`; refused: CHECKOUT_COM_TOKEN) and
 *   charged like a card (`createCharge`, POST checkout-com-charges with `billingInfo.wallet`). The
 *   sheet is then told how it went (`wallet.complete`), since Apple's sheet waits for it.
 * - `wallet.canceled`: the buyer closed the sheet (APPLE_PAY_CANCELED); back to the panel.
 * - `wallet.failed`: the sheet could not open or validate ("Processing Error").
 *
 * The flow ends like the card rail: paid (the charge), redirect (3-D Secure the bank asks for a
 * Google Pay card stored without a device token), failed (declined: the order) or back. Each
 * attempt has one idempotency key, kept after a network failure of the charge or an answer that is
 * neither paid nor 3-D Secure (a payment still processing): Pay then asks again with it, which
 * reads that charge instead of paying a second time. Any other refusal starts a new attempt.
 */
export interface WalletPaymentInput {
  wallet: MobileWallet;
  item: { kind: CheckoutItemKind; id: string; title: string };
  /** Cents. */
  price: number;
  email: string;
}
/** As the card rail ends: the checkout treats both alike. */
export type WalletPaymentOutput = CardPaymentOutput;

export interface WalletPaymentContext extends WalletPaymentInput {
  acknowledged: boolean;
  key: string | null;
  authorization: WalletAuthorization | null;
  /** The provider's card token for the wallet's payment. */
  cardToken: string | null;
  /** The "Google Pay billing" form (its card fields unused) and its errors by field. */
  billing: BillingFormValues;
  billingErrors: Partial<Record<string, ApiErrorBody>>;
  error: ApiErrorBody | null;
  result: WalletPaymentOutput | null;
}

/** POST checkout-com-charges' body for a wallet's card token. */
export function walletChargeBody(context: WalletPaymentContext): CreateCardChargeBody {
  const { item, price, key, authorization, wallet, cardToken } = context;
  const b = authorization!.billing;
  return {
    item: { kind: item.kind, id: item.id },
    expectedPrice: price,
    idempotencyKey: key!,
    billingInfo: {
      wallet,
      cardToken: cardToken!,
      ...(b.firstName ? { firstName: b.firstName } : {}),
      ...(b.lastName ? { lastName: b.lastName } : {}),
      addressLine1: b.addressLine1!,
      ...(b.addressLine2 ? { addressLine2: b.addressLine2 } : {}),
      city: b.city!,
      ...(b.state ? { state: b.state } : {}),
      zipCode: b.zipCode!,
      country: b.country!,
      ...(b.phoneNumber ? { phoneNumber: b.phoneNumber } : {}),
    },
  } as CreateCardChargeBody;
}

/** The wallet's contact as the billing form (United States when it names no country). */
const billingForm = (b: Partial<WalletBilling>): BillingFormValues => ({
  ...emptyBillingForm,
  firstName: b.firstName ?? '',
  lastName: b.lastName ?? '',
  addressLine1: b.addressLine1 ?? '',
  addressLine2: b.addressLine2 ?? '',
  city: b.city ?? '',
  state: b.state ?? '',
  zipCode: b.zipCode ?? '',
  country: b.country || emptyBillingForm.country,
});
/** The billing rules of a card's address (name, address, region of the US and Canada, postal code). */
const billingErrorsOf = (values: BillingFormValues) => {
  const { phoneNumber: _phone, ...errors } = validateBilling(billingDetails(values));
  return errors;
};

const failure = (code: ErrorCode): ApiErrorBody => ({ code, message: errorMessage({ code }) });
const error = ({ event }: { event: { error: unknown } }) => event.error;
/** A decline carries the order it failed (402 with orderId): the checkout shows that order. */
const declinedOrder = (err: unknown): string | null => {
  const body = toErrorBody(err) as ApiErrorBody & { orderId?: string };
  return typeof body.orderId === 'string' ? body.orderId : null;
};

export const walletPaymentMachine = setup({
  types: {
    context: {} as WalletPaymentContext,
    events: {} as WalletPaymentEvent,
    input: {} as WalletPaymentInput,
    output: {} as WalletPaymentOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** The wallet's payment sheet for the price; reports WalletSheetEvents, takes WalletSheetCommands. */
    sheet: fromCallback<WalletSheetCommand, { wallet: MobileWallet; price: number; label: string }>(() => {
      throw new Error('sheet not provided');
    }),
    /** POST {provider}/tokens { type: applepay | googlepay, token_data }: a card token. */
    tokenizeWallet: fromPromise<{ token: string }, { wallet: MobileWallet; tokenData: unknown }>(async () => {
      throw new Error('tokenizeWallet not provided');
    }),
    /** POST checkout-com-charges. */
    createCharge: fromPromise<CardChargeJson, CreateCardChargeBody>(async () => {
      throw new Error('createCharge not provided');
    }),
  },
  guards: {
    acknowledged: ({ context }) => context.acknowledged,
    acknowledgementChanges: ({ context, event }) => {
      assertEvent(event, 'wallet.acknowledge');
      return event.value !== context.acknowledged;
    },
    contactComplete: ({ context, event }) => {
      assertEvent(event, 'wallet.authorized');
      return walletContactGap(context.wallet, event.authorization.billing) === null;
    },
    /** Google's sheet closes once authorized: the buyer can complete the address afterwards. */
    googlePay: ({ context }) => context.wallet === 'googlepay',
    billingValid: ({ context }) => Object.keys(billingErrorsOf(context.billing)).length === 0,
    success: (_, charge: CardChargeJson) => charge.success,
    ended: ({ context }, type: WalletPaymentOutput['type']) => context.result?.type === type,
    redirect: (_, charge: CardChargeJson) => !!charge.redirectLink,
    declined: (_, err: unknown) => declinedOrder(err) !== null,
    networkFailure: (_, err: unknown) => toErrorBody(err).code === ErrorCode.NETWORK_FAILURE,
  },
  actions: {
    acknowledge: assign({
      acknowledged: ({ event }) => {
        assertEvent(event, 'wallet.acknowledge');
        return event.value;
      },
    }),
    keepToken: assign({ cardToken: (_, token: { token: string }) => token.token }),
    ensureKey: assign({ key: ({ context }) => context.key ?? crypto.randomUUID() }),
    dropKey: assign({ key: null }),
    keepAuthorization: assign({
      authorization: ({ event }) => {
        assertEvent(event, 'wallet.authorized');
        return event.authorization;
      },
    }),
    fillBilling: assign({
      billing: ({ event }) => {
        assertEvent(event, 'wallet.authorized');
        return billingForm(event.authorization.billing);
      },
      billingErrors: {},
    }),
    changeBilling: assign(({ context, event }) => {
      assertEvent(event, 'wallet.billing.change');
      return {
        billing: changeBillingForm(context.billing, event.values),
        // A changed field's error goes until Continue checks the form again.
        billingErrors: errorsAfterChange(context.billingErrors, context.billing, event.values),
      };
    }),
    showBillingErrors: assign({ billingErrors: ({ context }) => billingErrorsOf(context.billing) }),
    /** The completed form becomes the contact charged (the phone stays as the wallet gave it). */
    useBilling: assign({
      authorization: ({ context }) => {
        const { phoneNumber: _phone, ...address } = billingDetails(context.billing);
        const phoneNumber = context.authorization!.billing.phoneNumber;
        return {
          ...context.authorization!,
          billing: { ...address, ...(phoneNumber ? { phoneNumber } : {}) },
        };
      },
    }),
    /** Tells the open sheet whether the payment went through (Apple's sheet shows it). */
    completeSheet: sendTo('sheet', (_, params: { success: boolean }) => ({
      type: 'wallet.complete' as const,
      success: params.success,
    })),
    showError: assign({ error: (_, err: unknown) => toErrorBody(err) }),
    showCode: assign({ error: (_, code: ErrorCode) => failure(code) }),
    /** APPLE_PAY_ADDRESS naming the first field the wallet's contact lacks. */
    showContactGap: assign({
      error: ({ context, event }) => {
        assertEvent(event, 'wallet.authorized');
        const code = ErrorCode.APPLE_PAY_ADDRESS;
        const field = walletContactGap(context.wallet, event.authorization.billing);
        return field ? { code, field, message: errorMessage({ code, field }) } : failure(code);
      },
    }),
    clearError: assign({ error: null }),
    endPaid: assign({ result: (_, charge: CardChargeJson) => cardPaid(charge) }),
    endRedirect: assign({ result: (_, charge: CardChargeJson) => railRedirect(charge.redirectLink!) }),
    endFailed: assign({ result: (_, err: unknown) => railFailed(declinedOrder(err)!) }),
    endBack: assign({ result: railBack }),
  },
}).createMachine({
  id: 'walletPayment',
  context: ({ input }) => ({
    ...input,
    acknowledged: false,
    key: null,
    authorization: null,
    cardToken: null,
    billing: emptyBillingForm,
    billingErrors: {},
    error: null,
    result: null,
  }),
  initial: 'review',
  output: ({ context }) => context.result!,
  states: {
    review: {
      on: {
        'wallet.acknowledge': { guard: 'acknowledgementChanges', actions: 'acknowledge' },
        'wallet.submit': { guard: 'acknowledged', target: 'paying', actions: ['ensureKey', 'clearError'] },
        'wallet.back': { target: 'back', actions: 'endBack' },
      },
    },
    /** The wallet's sheet is open (started by the click, as Apple requires). */
    paying: {
      invoke: {
        id: 'sheet',
        src: 'sheet',
        input: ({ context }) => ({ wallet: context.wallet, price: context.price, label: context.item.title }),
      },
      initial: 'sheet',
      states: {
        sheet: {
          tags: ['busy'],
          on: {
            'wallet.authorized': [
              { guard: 'contactComplete', target: 'tokenizing', actions: 'keepAuthorization' },
              { guard: 'googlePay', target: 'billing', actions: ['keepAuthorization', 'fillBilling'] },
              { target: 'refused', actions: 'showContactGap' },
            ],
            'wallet.canceled': {
              target: '#walletPayment.review',
              actions: { type: 'showCode', params: ErrorCode.APPLE_PAY_CANCELED },
            },
            'wallet.failed': {
              target: '#walletPayment.review',
              actions: { type: 'showCode', params: ErrorCode.PROCESSING_ERROR },
            },
          },
        },
        /** "Google Pay billing": the address Google did not share, completed by the buyer. */
        billing: {
          on: {
            'wallet.billing.change': { actions: 'changeBilling' },
            'wallet.billing.submit': [
              { guard: 'billingValid', target: 'tokenizing', actions: 'useBilling' },
              { actions: 'showBillingErrors' },
            ],
            'wallet.back': '#walletPayment.review',
          },
        },
        tokenizing: {
          tags: ['busy'],
          invoke: {
            id: 'tokenizeWallet',
            src: 'tokenizeWallet',
            input: ({ context }) => ({ wallet: context.wallet, tokenData: context.authorization!.tokenData }),
            onDone: {
              target: 'charging',
              actions: { type: 'keepToken', params: ({ event }) => event.output },
            },
            onError: {
              target: 'refused',
              actions: { type: 'showCode', params: ErrorCode.CHECKOUT_COM_TOKEN },
            },
          },
        },
        charging: {
          tags: ['busy'],
          invoke: {
            id: 'createCharge',
            src: 'createCharge',
            input: ({ context }) => walletChargeBody(context),
            onDone: [
              {
                guard: { type: 'success', params: ({ event }) => event.output },
                target: 'completing',
                actions: { type: 'endPaid', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'redirect', params: ({ event }) => event.output },
                target: 'completing',
                actions: { type: 'endRedirect', params: ({ event }) => event.output },
              },
              { target: 'refused', actions: { type: 'showCode', params: ErrorCode.PROCESSING_ERROR } },
            ],
            onError: [
              {
                guard: { type: 'declined', params: error },
                target: 'completing',
                actions: { type: 'endFailed', params: error },
              },
              {
                guard: { type: 'networkFailure', params: error },
                target: 'refused',
                actions: { type: 'showError', params: error },
              },
              { target: 'refused', actions: [{ type: 'showError', params: error }, 'dropKey'] },
            ],
          },
        },
        /** The sheet is told how it ended while it is still open (leaving `paying` closes it). */
        completing: {
          tags: ['busy'],
          entry: {
            type: 'completeSheet',
            params: ({ context }) => ({ success: context.result?.type !== 'failed' }),
          },
          always: [
            { guard: { type: 'ended', params: 'paid' }, target: '#walletPayment.paid' },
            { guard: { type: 'ended', params: 'redirect' }, target: '#walletPayment.redirect' },
            { target: '#walletPayment.failed' },
          ],
        },
        /** Not paid: the sheet is told, then the panel shows why. */
        refused: {
          tags: ['busy'],
          entry: { type: 'completeSheet', params: { success: false } },
          always: '#walletPayment.review',
        },
      },
    },
    paid: { type: 'final' },
    redirect: { type: 'final' },
    failed: { type: 'final' },
    back: { type: 'final' },
  },
});

export type WalletPaymentActor = ActorRefFrom<typeof walletPaymentMachine>;
