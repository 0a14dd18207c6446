import { fromPromise } from 'xstate';
import { ApiError, ErrorCode, errorMessage } from '#domain/errors';
import type { CryptoChargeRequest } from '#domain/ports/checkout';
import { type TopupRequest, topupChargeBody } from '#domain/ports/checkout';
import type { CoinbaseChargeJson, CreateCoinbaseChargeBody } from '#domain/schemas/crypto';
import type { Api } from './api';

/**
 * Crypto charges: the product API's coinbase-charges. The buyer pays on the crypto provider's
 * hosted page (the charge's hostedUrl); our server opens, reads, syncs and cancels the charge.
 */

/**
 * The API client turns a 502 into NETWORK_FAILURE; coinbase-charges answers 502 when the crypto
 * processor could not be reached or gave no hosted page, and the charge was then not opened (the
 * reservation is released): CRYPTO_PROVIDER, a refusal, not a network failure to retry as is.
 */
async function providerReached<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError && error.status === 502)
      throw new ApiError(502, {
        code: ErrorCode.CRYPTO_PROVIDER,
        message: errorMessage({ code: ErrorCode.CRYPTO_PROVIDER }),
      });
    throw error;
  }
}

/** POST coinbase-charges' body for a direct purchase of a blueprint or a pack at the price seen. */
export function directPurchaseBody({
  item,
  price,
  idempotencyKey,
}: CryptoChargeRequest): CreateCoinbaseChargeBody {
  return {
    type: 'directPurchase',
    ...(item.kind === 'pack' ? { blueprintPackId: item.id } : { blueprintId: item.id }),
    expectedPrice: price,
    idempotencyKey,
  };
}

/** The statuses of a charge the buyer can still pay or cancel. */
const OPEN_STATUSES = 'NEW,UNRESOLVED';

export function cryptoService(api: Api) {
  return {
    /** POST coinbase-charges: a hosted charge for the item (one unit reserved). */
    createDirectPurchase: (request: CryptoChargeRequest) =>
      providerReached(api.post('/coinbase-charges', { json: directPurchaseBody(request) })),
    /** POST coinbase-charges { type: topup }: a hosted charge that adds FUSD to the balance. */
    createTopup: (request: TopupRequest) =>
      providerReached(api.post('/coinbase-charges', { json: topupChargeBody(request) })),
    getCharge: (chargeId: string) => api.get('/coinbase-charges/{id}', { params: { id: chargeId } }),
    /** PATCH {status: CANCELED}: cancels an unpaid charge (the order canceled, the unit released). */
    cancelCharge: (chargeId: string) =>
      providerReached(
        api.patch('/coinbase-charges/{id}', { params: { id: chargeId }, json: { status: 'CANCELED' } }),
      ),
    /** PATCH {}: the server reads the charge from the provider and applies it. */
    syncCharge: (chargeId: string) =>
      providerReached(api.patch('/coinbase-charges/{id}', { params: { id: chargeId }, json: {} })),
    /** The user's crypto charges still waiting for payment (at most one), newest first. */
    openCharges: async (userId: string) =>
      (
        await api.get('/coinbase-charges', {
          query: {
            userId,
            statuses: OPEN_STATUSES,
          },
        })
      ).results.filter((c) => c.unresolved),
  };
}
export type CryptoService = ReturnType<typeof cryptoService>;

/**
 * The actors the crypto machines name, over the real service:
 * `cryptoPaymentMachine.provide({ actors: cryptoActors(api) })`.
 */
export function cryptoActors(api: Api, service: CryptoService = cryptoService(api)) {
  return {
    createCharge: fromPromise<CoinbaseChargeJson, CryptoChargeRequest>(({ input }) =>
      service.createDirectPurchase(input),
    ),
  };
}
