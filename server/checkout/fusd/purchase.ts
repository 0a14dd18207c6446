import { and, eq } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import type { FusdOrderJson } from '#domain/responses/checkout';
import type { CreateFusdOrderBody } from '#domain/schemas/fusd';
import { getFusdBalance } from '../../chain/actions';
import { centsToUfix64 } from '../../chain/treasury';
import { orders } from '../../db/schema';
import type { Services } from '../../deps';
import { apiError, badRequest } from '../../http';
import { checkNewEdition } from '../items';
import type { OrderRow } from '../orders';
import { paidOn } from '../rails';
import { type PurchaseRequest, type Started, startPurchase } from '../workflow/start';
import { fusdOrderJson, ufixUnits } from './fusd';
import { fusdRail } from './rail';

/** The chain client: 503 when the chain is not available. */
export function chainOf(s: Services) {
  if (!s.chainClient) throw apiError(503, 'unavailable', undefined, 'The chain is not available.');
  return s.chainClient;
}

type FusdPurchase = PurchaseRequest<CreateFusdOrderBody>;

/**
 * A purchase of a new edition with the FUSD balance (POST fusd-orders): the purchase workflow
 * (../workflow/start.ts) up to the reservation (no charge: the wallet pays the order's id on
 * chain, and its transaction is reported later).
 */
export function startFusdPurchase(s: Services, p: FusdPurchase): Promise<Started<FusdOrderJson>> {
  const now = s.clock();
  const { user, body } = p;
  const answer = async (order: OrderRow) => {
    // The key of another purchase (by card, crypto, or a free claim): not this one's.
    if (!paidOn(order, fusdRail))
      throw badRequest(ErrorCode.INVALID_VALUE, 'idempotencyKey', 'This key belongs to another purchase.');
    return fusdOrderJson(s.db, order);
  };
  return startPurchase(s.db, {
    rail: fusdRail,
    validate() {
      chainOf(s);
      if (!user.walletAddress) throw badRequest(ErrorCode.WALLET_REQUIRED);
    },
    // A retry answers the first order whatever happened since; only a new one is checked.
    async dedupe() {
      const [earlier] = await s.db
        .select()
        .from(orders)
        .where(and(eq(orders.buyerId, user.id), eq(orders.idempotencyKey, body.idempotencyKey)));
      return earlier && answer(earlier);
    },
    async check() {
      const item = await checkNewEdition(s.db, body, now);
      // The balance buys a printed item only through one of its resale listings.
      if (item.printed) throw badRequest(ErrorCode.NOT_PURCHASABLE);
      // A balance order holds a unit only when the wallet's FUSD covers it (else anyone could
      // hold units with an empty wallet).
      const balance = await getFusdBalance(chainOf(s), user.walletAddress!).catch(() => {
        throw apiError(503, 'unavailable', undefined, 'The chain is not available.');
      });
      if (ufixUnits(balance) < ufixUnits(centsToUfix64(item.price)))
        throw apiError(402, ErrorCode.INSUFFICIENT_FUNDS);
      return { item };
    },
    reservation: () => ({
      buyerId: user.id,
      clientAddress: p.clientAddress,
      idempotencyKey: body.idempotencyKey,
      walletAddress: user.walletAddress!,
      now,
    }),
    repeated: answer,
    answer,
  });
}
