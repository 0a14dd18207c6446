import { and, eq, gt, inArray } from 'drizzle-orm';
import { getAddress } from 'ethers';
import { ErrorCode } from '#domain/errors';
import type { CreateTokenChargeBody } from '#domain/schemas/token';
import type { Executor } from '../../db';
import { orders, tokenCharges } from '../../db/schema';
import type { Services } from '../../deps';
import type { TokenPriceSource } from '../../evm/price';
import type { TokenChain } from '../../evm/token';
import { apiError, badRequest } from '../../http';
import { itemOfPurchase, purchasable } from '../items';
import type { OrderRow } from '../orders';
import { type PurchaseRequest, type Started, startPurchase } from '../workflow/start';
import { tokenRail } from './rail';
import { ACTIVE, type TokenChargeRow, tokenAmountFor } from './token';

/** The buyer's charge that still waits for its payment, whatever address it pays from. */
async function activeForBuyer(tx: Executor, buyerId: string, now: Date) {
  const [row] = await tx
    .select({ id: tokenCharges.id })
    .from(tokenCharges)
    .innerJoin(orders, eq(orders.id, tokenCharges.orderId))
    .where(
      and(
        eq(tokenCharges.buyerId, buyerId),
        inArray(tokenCharges.status, ACTIVE),
        eq(orders.status, 'created'),
        gt(orders.expiresAt, now),
      ),
    )
    .limit(1);
  return row;
}

const activeCharge = (chargeId: string) => {
  const err = apiError(409, ErrorCode.ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS);
  Object.assign(err.body, { chargeId });
  return err;
};

const byKey = async (db: Executor, buyerId: string, key: string) =>
  (
    await db
      .select()
      .from(tokenCharges)
      .where(and(eq(tokenCharges.buyerId, buyerId), eq(tokenCharges.idempotencyKey, key)))
  )[0];

type TokenPurchase = PurchaseRequest<CreateTokenChargeBody>;

/** The charge's columns, and what decides whether it holds a unit. */
async function priced(
  s: Services,
  chain: TokenChain,
  price: TokenPriceSource,
  p: TokenPurchase,
  itemPrice: number,
) {
  const now = s.clock();
  const ethAddress = getAddress(p.body.ethAddress);
  const tokenAmount = tokenAmountFor(itemPrice, await price.frrPerUsd());
  const active = await activeForBuyer(s.db, p.user.id, now);
  if (active) throw activeCharge(active.id);
  // Its transfer is sent once the charge exists, so it is mined after the latest block: an
  // unreported one is looked for from the next.
  const fromBlock = (await chain.blockNumber()) + 1;
  const lowFunds = (await chain.balanceOf(ethAddress)) < tokenAmount;
  return { ethAddress, tokenAmount: tokenAmount.toString(), fromBlock, lowFunds };
}

/**
 * A purchase of a new edition in NFM (POST token-charges; docs/checkout.md "Utility token"): the
 * purchase workflow (../workflow/start.ts) up to the reservation, whose charge the wallet signs and
 * pays later. An address holding less NFM than the price gets a lowFunds charge without an order
 * (nothing held). At most one active charge per buyer, whatever address pays it
 * (ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS, with its id): another address would otherwise hold another
 * unit. A retry (same key) answers the first charge, whatever happened since.
 */
export function startTokenPurchase(
  s: Services,
  chain: TokenChain,
  price: TokenPriceSource,
  p: TokenPurchase,
): Promise<Started<TokenChargeRow>> {
  const now = s.clock();
  const { user, body } = p;
  let created: TokenChargeRow | undefined;
  const chargeOf = async (order: OrderRow) => {
    const charge =
      created ?? (await s.db.select().from(tokenCharges).where(eq(tokenCharges.orderId, order.id)))[0];
    // The key of another purchase (by card, crypto…): not this one's.
    if (!charge)
      throw apiError(400, ErrorCode.INVALID_VALUE, 'idempotencyKey', 'This key belongs to another purchase.');
    return charge;
  };
  return startPurchase(s.db, {
    rail: tokenRail,
    validate() {
      if (!user.walletAddress) throw badRequest(ErrorCode.WALLET_REQUIRED);
    },
    dedupe: () => byKey(s.db, user.id, body.idempotencyKey),
    async check() {
      const item = await itemOfPurchase(s.db, body, now);
      if (!purchasable(item)) throw badRequest(ErrorCode.NOT_PURCHASABLE);
      if (item.price !== body.expectedPrice) throw apiError(409, ErrorCode.PRICE_CHANGED);
      const values = {
        buyerId: user.id,
        idempotencyKey: body.idempotencyKey,
        itemKind: item.kind,
        itemId: item.id,
        toCurrency: body.toCurrency,
        tokenPrice: item.price,
        createdAt: now,
        updatedAt: now,
        ...(await priced(s, chain, price, p, item.price)),
      };
      return { item, values };
    },
    async unreserved({ values: { lowFunds, ...values } }) {
      if (!lowFunds) return undefined;
      const [charge] = await s.db
        .insert(tokenCharges)
        .values({ ...values, status: 'lowFunds' })
        .onConflictDoNothing()
        .returning();
      if (charge) return { answer: charge, repeated: false };
      return { answer: (await byKey(s.db, user.id, body.idempotencyKey))!, repeated: true };
    },
    reservation: ({ values: { lowFunds: _, ...values } }) => ({
      buyerId: user.id,
      clientAddress: p.clientAddress,
      idempotencyKey: body.idempotencyKey,
      walletAddress: user.walletAddress!,
      now,
      charge: {
        // The check that matters runs in the reservation's transaction (the buyer's row is locked).
        pending: async () => undefined,
        async attach(tx, order) {
          const again = await activeForBuyer(tx, user.id, now);
          if (again) throw activeCharge(again.id);
          [created] = await tx
            .insert(tokenCharges)
            .values({ ...values, orderId: order.id, status: 'created' })
            .returning();
        },
      },
    }),
    repeated: chargeOf,
    answer: chargeOf,
  });
}
