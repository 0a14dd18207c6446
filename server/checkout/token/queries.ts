import { and, desc, eq, inArray } from 'drizzle-orm';
import type { TokenChargeJson, TokenChargeStatus } from '#domain/schemas/token';
import type { Executor } from '../../db';
import { tokenCharges, tokenTransactions } from '../../db/schema';
import type { TokenChain } from '../../evm/token';
import { orderJson } from '../order-json';
import { findOrder } from '../orders';
import type { TokenChargeRow } from './token';

/**
 * Reading NFM charges: the buyer's list and the JSON the routes answer.
 */

export async function listTokenCharges(
  db: Executor,
  buyerId: string,
  filter: { statuses?: string[]; blueprintId?: string; blueprintPackId?: string },
) {
  return db
    .select()
    .from(tokenCharges)
    .where(
      and(
        eq(tokenCharges.buyerId, buyerId),
        filter.statuses?.length ? inArray(tokenCharges.status, filter.statuses) : undefined,
        filter.blueprintId
          ? and(eq(tokenCharges.itemKind, 'blueprint'), eq(tokenCharges.itemId, filter.blueprintId))
          : undefined,
        filter.blueprintPackId
          ? and(eq(tokenCharges.itemKind, 'pack'), eq(tokenCharges.itemId, filter.blueprintPackId))
          : undefined,
      ),
    )
    .orderBy(desc(tokenCharges.createdAt))
    .limit(50);
}

export async function tokenChargeJson(
  db: Executor,
  chain: TokenChain,
  row: TokenChargeRow,
): Promise<TokenChargeJson> {
  const order = row.orderId ? await findOrder(db, row.orderId) : undefined;
  const transactions = await db
    .select({ hash: tokenTransactions.hash, value: tokenTransactions.value })
    .from(tokenTransactions)
    .where(eq(tokenTransactions.chargeId, row.id))
    .orderBy(tokenTransactions.createdAt);
  return {
    id: row.id,
    type: 'directPurchase',
    ethAddress: row.ethAddress,
    toCurrency: row.toCurrency as 'USD' | 'FRR',
    status: row.status as TokenChargeStatus,
    signature: row.signature,
    tokenPrice: row.tokenPrice,
    tokenAmount: row.tokenAmount,
    chainId: chain.chainId,
    tokenAddress: chain.tokenAddress,
    paymentsAddress: chain.paymentsAddress,
    transactions,
    blueprintId: row.itemKind === 'blueprint' ? row.itemId : null,
    blueprintPackId: row.itemKind === 'pack' ? row.itemId : null,
    createdAt: row.createdAt.toISOString(),
    order: order ? await orderJson(db, order) : null,
  };
}
