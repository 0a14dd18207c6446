import { fromPromise } from 'xstate';
import type { BalanceOrderRequest, PayOrderRequest, TopupChargeRequest } from '#domain/ports/checkout';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import type { CreateFusdOrderBody, FusdOrderJson } from '#domain/schemas/fusd';
import type { Api } from './api';
import type { CryptoService } from './crypto';
import type { Flow } from './flow';

/**
 * New editions paid with the FUSD balance: the product API's fusd-orders (reserve, report the
 * payment) and the wallet's pay_order transaction.
 */

/** POST fusd-orders' body: a blueprint or a pack at the price seen. */
export function fusdOrderBody({ item, price, idempotencyKey }: BalanceOrderRequest): CreateFusdOrderBody {
  return {
    ...(item.kind === 'pack' ? { blueprintPackId: item.id } : { blueprintId: item.id }),
    expectedPrice: price,
    idempotencyKey,
  };
}

export function balanceService(api: Api) {
  return {
    createOrder: (request: BalanceOrderRequest) => api.post('/fusd-orders', { json: fusdOrderBody(request) }),
    reportPayment: (orderId: string, transactionId: string) =>
      api.patch('/fusd-orders/{id}', { params: { id: orderId }, json: { transactionId } }),
  };
}

/** The actors balancePaymentMachine names: `balancePaymentMachine.provide({ actors: balanceActors(…) })`. */
export function balanceActors(api: Api, flow: Flow, crypto: CryptoService) {
  const service = balanceService(api);
  return {
    readBalance: fromPromise<number, { address: string }>(({ input }) => flow.fusdBalance(input.address)),
    createOrder: fromPromise<FusdOrderJson, BalanceOrderRequest>(({ input }) => service.createOrder(input)),
    payOrder: fromPromise<{ transactionId: string }, PayOrderRequest>(async ({ input }) => ({
      transactionId: (await flow.payOrder(input)).transactionId,
    })),
    reportPayment: fromPromise<FusdOrderJson, { orderId: string; transactionId: string }>(({ input }) =>
      service.reportPayment(input.orderId, input.transactionId),
    ),
    createTopup: fromPromise(({ input }: { input: TopupChargeRequest }) => crypto.createTopup(input)),
    getTopup: fromPromise<CoinbaseChargeJson, { id: string }>(({ input }) => crypto.getCharge(input.id)),
  };
}
