import * as v from 'valibot';
import type { DateValue } from '../dates';
import type { OrderJson } from './checkout';
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

/** A payment's state: PAID and the mint statuses for the one that paid the order, else a refund. */
export type FusdPaymentStatus =
  | 'PAID'
  | 'MINTING'
  | 'MINTED'
  | 'MINT_SAVE_FAILED'
  | 'NFT_SYNC_FAILED'
  | 'REFUND_PENDING'
  | 'SEND_FUSD_SUCCEEDED'
  | 'SEND_FUSD_FAILED';

export interface FusdPaymentJson {
  transactionId: string;
  /** Cents. */
  amount: number;
  /** Whether this payment paid the order (else it is sent back). */
  accepted: boolean;
  status: FusdPaymentStatus;
  refundTransactionId: string | null;
  createdAt: DateValue;
}

/** An order paid with the balance, as POST/GET/PATCH fusd-orders answer it. */
export interface FusdOrderJson {
  /** The order's id: the `orderId` argument of pay_order.cdc. */
  id: string;
  /** Cents. */
  amount: number;
  /** The exact FUSD to pay (UFix64 text), the `amount` argument of pay_order.cdc. */
  fusdAmount: string;
  /** When the reservation ends unless paid. */
  expiresAt: DateValue;
  payments: FusdPaymentJson[];
  order: OrderJson;
}
