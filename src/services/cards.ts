import { fromPromise } from 'xstate';
import { acceptedBrands, type CardBrand } from '#domain/billing';
import { ApiError, ErrorCode, errorMessage } from '#domain/errors';
import type { CardCheckpoint, CardToken, ChargeSync, TokenizeInput } from '#domain/ports/checkout';
import type {
  BillingInfoJson,
  CardChargeJson,
  CreateBillingInfoBody,
  CreateCardChargeBody,
  OrderJson,
  PaymentsConfigJson,
} from '#domain/schemas/checkout';
import type { Api } from './api';

/**
 * Cards: the provider's tokenization and the product API's billing-info, checkout-com-charges and
 * orders. The card number, expiry and security code go to the card provider only (POST
 * {apiUrl}/tokens with its public key, straight from the browser); our server gets the token.
 */

const failure = (status: number, code: string, field?: string) =>
  new ApiError(status, { code, ...(field ? { field } : {}), message: errorMessage({ code, field }) });

/** The provider's answer to POST /tokens (Checkout.com's shape; only what is used). */
interface ProviderToken {
  token: string;
  scheme?: string | null;
  last4?: string | null;
}

/** A provider's refusal of a card (422 error_codes) as our error codes. */
function tokenRefusal(codes: readonly string[]): ApiError {
  const text = codes.join(' ');
  if (/expir/.test(text)) return failure(400, ErrorCode.CARD_EXPIRED, 'expiry');
  if (/cvv/.test(text)) return failure(400, ErrorCode.CARD_CVV, 'cvv');
  if (/scheme|card_type/.test(text)) return failure(400, ErrorCode.CARD_TYPE, 'cardNumber');
  return failure(400, ErrorCode.INVALID_VALUE, 'cardNumber');
}

/** The API's 502 is the server's PAYMENT_PROVIDER: the card processor could not be reached. */
async function providerReached<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError && error.status === 502) throw failure(502, ErrorCode.PAYMENT_PROVIDER);
    throw error;
  }
}

export function cardService(api: Api, options: { fetch?: typeof fetch } = {}) {
  let config: Promise<PaymentsConfigJson> | undefined;
  /** GET config/payments, once (again after a failure). */
  const loadConfig = () => {
    config ??= api.get('/config/payments').catch((error) => {
      config = undefined;
      throw error;
    });
    return config;
  };

  return {
    config: loadConfig,
    /**
     * A card token from the provider: POST {apiUrl}/tokens with `Authorization: Bearer {publicKey}`,
     * from the browser to the provider's origin. Refuses a brand other than VISA, MASTERCARD and
     * DISCOVER (CARD_TYPE); cards switched off, an unreachable provider or a refused key are
     * PAYMENT_PROVIDER; no answer is NETWORK_FAILURE.
     */
    tokenize: async ({ card, billing }: TokenizeInput): Promise<CardToken> => {
      const { card: provider } = await loadConfig();
      if (!provider) throw failure(503, ErrorCode.PAYMENT_PROVIDER);
      const { default: ky, HTTPError } = await import('ky');
      const year = card.expiryYear.length === 2 ? 2000 + Number(card.expiryYear) : Number(card.expiryYear);
      let answer: ProviderToken;
      try {
        answer = await ky
          .post(`${provider.apiUrl.replace(/\/+$/, '')}/tokens`, {
            headers: { Authorization: `Bearer ${provider.publicKey}` },
            json: {
              type: 'card',
              number: card.number,
              expiry_month: Number(card.expiryMonth),
              expiry_year: year,
              cvv: card.cvv,
              name: [billing.firstName, billing.lastName].filter(Boolean).join(' '),
              billing_address: {
                address_line1: billing.addressLine1,
                ...(billing.addressLine2 ? { address_line2: billing.addressLine2 } : {}),
                city: billing.city,
                state: billing.state,
                zip: billing.zipCode,
                country: billing.country,
              },
              phone: {
                country_code: `+${billing.phoneNumber.countryCode}`,
                number: billing.phoneNumber.number,
              },
            },
            retry: 0,
            timeout: 20_000,
            fetch: options.fetch,
          })
          .json<ProviderToken>();
      } catch (error) {
        if (!(error instanceof HTTPError)) throw failure(0, ErrorCode.NETWORK_FAILURE);
        if (error.response.status === 422) {
          const body = (await error.response.json().catch(() => ({}))) as { error_codes?: string[] };
          throw tokenRefusal(body.error_codes ?? []);
        }
        throw failure(502, ErrorCode.PAYMENT_PROVIDER);
      }
      const scheme = answer.scheme?.toUpperCase() ?? null;
      if (scheme && !acceptedBrands.includes(scheme as CardBrand))
        throw failure(400, ErrorCode.CARD_TYPE, 'cardNumber');
      return { token: answer.token, scheme, last4: answer.last4 ?? null };
    },
    listBillingInfo: async () => (await api.get('/billing-info')).results,
    saveBillingInfo: (body: CreateBillingInfoBody) =>
      providerReached(api.post('/billing-info', { json: body })),
    deleteBillingInfo: (billingInfoId: string) =>
      api.delete('/billing-info/{id}', { params: { id: billingInfoId } }),
    createCharge: (body: CreateCardChargeBody) =>
      providerReached(api.post('/checkout-com-charges', { json: body })),
    getCharge: (chargeId: string) => api.get('/checkout-com-charges/{id}', { params: { id: chargeId } }),
    /** The caller's charges waiting for 3-D Secure. */
    unresolvedCharges: async () =>
      (await api.get('/checkout-com-charges', { query: { unresolved: true } })).results,
    syncCharge: (chargeId: string, ckoSessionId?: string | null) =>
      api.patch('/checkout-com-charges/{id}/actions/sync', {
        params: { id: chargeId },
        json: {
          ...(ckoSessionId ? { ckoSessionId } : {}),
        },
      }),
    cancelCharge: (chargeId: string) =>
      api.post('/checkout-com-charges/{id}/actions/cancel', { params: { id: chargeId } }),
    order: (orderId: string) => api.get('/orders/{id}', { params: { id: orderId } }),
  };
}
export type CardService = ReturnType<typeof cardService>;

/**
 * The actors the card machines name (cardPayment, savedCards, checkoutFailed), over the real
 * services: `machine.provide({ actors: cardActors(api) })` for each of them.
 */
export function cardActors(api: Api, service: CardService = cardService(api)) {
  return {
    listBillingInfo: fromPromise<BillingInfoJson[]>(() => service.listBillingInfo()),
    tokenizeCard: fromPromise<CardToken, TokenizeInput>(({ input }) => service.tokenize(input)),
    createCharge: fromPromise<CardChargeJson, CreateCardChargeBody>(({ input }) =>
      service.createCharge(input),
    ),
    getCharge: fromPromise<CardChargeJson, { id: string }>(({ input }) => service.getCharge(input.id)),
    saveBillingInfo: fromPromise<BillingInfoJson, CreateBillingInfoBody>(({ input }) =>
      service.saveBillingInfo(input),
    ),
    deleteBillingInfo: fromPromise<void, { id: string }>(({ input }) => service.deleteBillingInfo(input.id)),
    /** The order's charge among the caller's charges waiting for 3-D Secure; null when settled. */
    findCharge: fromPromise<CardChargeJson | null, { orderId: string }>(
      async ({ input }) =>
        (await service.unresolvedCharges()).find((c) => c.orderId === input.orderId) ?? null,
    ),
    syncCharge: fromPromise<CardChargeJson, ChargeSync>(({ input }) =>
      service.syncCharge(input.id, input.ckoSessionId),
    ),
    loadOrder: fromPromise<OrderJson, { id: string }>(({ input }) => service.order(input.id)),
  };
}

/**
 * Where the checkout keeps the charge the buyer left for 3-D Secure: the tab's session storage,
 * which outlives the redirect to the provider and back (one charge at a time).
 */
const CHECKPOINT_KEY = 'vitrine.cardCheckpoint';
export const cardCheckpoints = {
  read(): CardCheckpoint | null {
    try {
      const raw = sessionStorage.getItem(CHECKPOINT_KEY);
      const value = raw ? (JSON.parse(raw) as Partial<CardCheckpoint>) : null;
      return value &&
        typeof value.chargeId === 'string' &&
        (value.step === 'charging' || value.step === 'redirect')
        ? { chargeId: value.chargeId, step: value.step }
        : null;
    } catch {
      return null;
    }
  },
  save(checkpoint: CardCheckpoint) {
    try {
      sessionStorage.setItem(CHECKPOINT_KEY, JSON.stringify(checkpoint));
    } catch {
      // Without storage the charge is still found as unresolved (GET checkout-com-charges?unresolved).
    }
  },
  clear() {
    try {
      sessionStorage.removeItem(CHECKPOINT_KEY);
    } catch {
      // Nothing was kept.
    }
  },
};
