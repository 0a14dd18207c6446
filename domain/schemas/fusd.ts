import * as v from 'valibot';
import { newEditionBody } from './newEdition';

/**
 * New editions paid with the FUSD (stablecoin) balance: `fusd-orders`. The buyer reserves an order
 * (POST, one unit of a blueprint or pack held for 15 minutes), pays its exact price on chain from
 * the wallet (transactions/pay_order.cdc, which names the order), then reports the payment's
 * transaction (PATCH with transactionId); the server reads the sealed transaction itself and mints
 * once the payment covers the order. The server's chain indexer sees the same payment, so an order
 * paid from a tab that closed before reporting is served all the same. Money is integer cents; the
 * on-chain amount is `fusdAmount` (UFix64 text).
 *
 * Error codes: TRANSACTION (the transaction failed, or pays nothing for this order),
 * TRANSACTION_PENDING (not sealed yet: report again), and the checkout's SOLD_OUT, PRICE_CHANGED,
 * NOT_PURCHASABLE, WALLET_REQUIRED.
 */

/** POST fusd-orders: exactly one of blueprintId or blueprintPackId, and the price the buyer saw. */
export const CreateFusdOrderBody = newEditionBody(1, {});
export type CreateFusdOrderBody = v.InferOutput<typeof CreateFusdOrderBody>;

/** A Flow transaction id: 64 hex digits. */
export const FlowTransactionId = v.pipe(
  v.string('INVALID_VALUE.transactionId'),
  v.regex(/^(0x)?[0-9a-fA-F]{64}$/, 'INVALID_VALUE.transactionId'),
  v.transform((id) => id.replace(/^0x/, '').toLowerCase()),
);

/** PATCH fusd-orders/{id}: the transaction that paid it. */
export const UpdateFusdOrderBody = v.object({ transactionId: FlowTransactionId });

/** Answers of these routes: their schemas are in domain/responses/checkout. */
export type { FusdOrderJson, FusdPaymentJson, FusdPaymentStatus } from '../responses/checkout';
