import { and, asc, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import { splitCents } from '#domain/money';
import {
  availableFunds,
  type LedgerEntry,
  payoutLedger,
  primarySaleShares,
  type SaleJson,
  type SaleShares,
  type SaleStatus,
} from '#domain/sales';
import type { Executor } from '../db';
import {
  blueprints,
  nftPurchases,
  nfts,
  orderItems,
  orders,
  payoutRequests,
  storefronts,
  users,
} from '../db/schema';

/**
 * A storefront's primary sales and its payout ledger (domain/sales.ts has the rules). A sale is
 * a recorded purchase (nft_purchases) of an NFT minted from one of the storefront's blueprints
 * (nfts.blueprint_id = blueprints.flow_blueprint_id), except resales (type saleListing): completed.
 * Orders of new editions that are paid but not minted yet are sales too (pending), and refunded
 * orders stay visible (refunded); neither counts toward the storefront's available funds.
 */

export interface SaleRow extends SaleShares {
  id: string;
  purchasedOn: Date;
  amount: number;
  blueprint: { id: string; title: string; previewImageUrl: string | null };
  /** The edition; null for a refunded order whose edition was never assigned. */
  seriesNumber: number | null;
  buyer: { username: string } | null;
  status: SaleStatus;
}

export type StorefrontRow = typeof storefronts.$inferSelect;
export type PayoutRequestRow = typeof payoutRequests.$inferSelect;

/** Every sale of the storefront, oldest first, with its platform fee and net (primarySaleShares). */
export async function storefrontSales(db: Executor, storefrontId: string): Promise<SaleRow[]> {
  const rows = await db
    .select({
      id: nftPurchases.id,
      purchasedOn: nftPurchases.purchasedOn,
      amount: nftPurchases.amount,
      seriesNumber: nfts.serialNumber,
      blueprintId: blueprints.id,
      title: blueprints.title,
      previewImageUrl: blueprints.previewImageUrl,
      totalFeePercent: blueprints.totalFeePercent,
      buyer: users.username,
    })
    .from(nftPurchases)
    .innerJoin(nfts, eq(nfts.id, nftPurchases.nftId))
    .innerJoin(blueprints, eq(blueprints.flowBlueprintId, nfts.blueprintId))
    .leftJoin(users, eq(users.id, nftPurchases.buyerId))
    .where(
      and(
        eq(blueprints.storefrontId, storefrontId),
        notInArray(nftPurchases.type, ['saleListing', 'offer']),
        // A purchase of a resale listing is a resale whatever type its record names.
        isNull(nftPurchases.blockchainListingId),
      ),
    )
    .orderBy(asc(nftPurchases.purchasedOn), asc(nftPurchases.id));
  const completed: SaleRow[] = rows.map((r) => ({
    id: r.id,
    purchasedOn: r.purchasedOn,
    amount: Number(r.amount),
    ...primarySaleShares(Number(r.amount), r.totalFeePercent),
    blueprint: { id: r.blueprintId, title: r.title, previewImageUrl: r.previewImageUrl },
    seriesNumber: Number(r.seriesNumber),
    buyer: r.buyer === null ? null : { username: r.buyer },
    status: 'completed',
  }));
  const open = await openOrderSales(db, storefrontId);
  return [...completed, ...open].sort(
    (a, b) => a.purchasedOn.getTime() - b.purchasedOn.getTime() || (a.id < b.id ? -1 : 1),
  );
}

/**
 * Orders of the storefront's editions that are paid and on their way (captured, minting: pending)
 * or were refunded, one row per edition; a pack's price is split over its editions (splitCents, in
 * the order of their chain blueprint ids).
 * Minted orders are in nft_purchases already.
 */
async function openOrderSales(db: Executor, storefrontId: string): Promise<SaleRow[]> {
  const rows = await db
    .select({
      orderId: orders.id,
      itemId: orderItems.id,
      status: orders.status,
      amount: orders.amount,
      createdAt: orders.createdAt,
      seriesNumber: orderItems.serialNumber,
      blueprintId: blueprints.id,
      title: blueprints.title,
      previewImageUrl: blueprints.previewImageUrl,
      totalFeePercent: blueprints.totalFeePercent,
      buyer: users.username,
    })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .innerJoin(blueprints, eq(blueprints.id, orderItems.blueprintId))
    .leftJoin(users, eq(users.id, orders.buyerId))
    .where(
      and(
        eq(blueprints.storefrontId, storefrontId),
        inArray(orders.status, ['captured', 'minting', 'refunded']),
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orderItems.flowBlueprintId));
  const perOrder = new Map<string, string[]>();
  for (const r of rows) perOrder.set(r.orderId, [...(perOrder.get(r.orderId) ?? []), r.itemId]);
  return rows.map((r) => {
    const items = perOrder.get(r.orderId)!;
    const amount = splitCents(Number(r.amount), items.length)[items.indexOf(r.itemId)]!;
    const status: SaleStatus = r.status === 'refunded' ? 'refunded' : 'pending';
    return {
      id: r.itemId,
      purchasedOn: r.createdAt,
      amount,
      ...primarySaleShares(amount, r.totalFeePercent),
      blueprint: { id: r.blueprintId, title: r.title, previewImageUrl: r.previewImageUrl },
      seriesNumber: r.seriesNumber === null ? null : Number(r.seriesNumber),
      buyer: r.buyer === null ? null : { username: r.buyer },
      status,
    };
  });
}

/** Every payout request of the storefront, oldest first. */
export function storefrontPayoutRequests(db: Executor, storefrontId: string): Promise<PayoutRequestRow[]> {
  return db
    .select()
    .from(payoutRequests)
    .where(eq(payoutRequests.storefrontId, storefrontId))
    .orderBy(asc(payoutRequests.createdAt), asc(payoutRequests.id));
}

export interface Ledger {
  /** Sales oldest first. */
  sales: SaleRow[];
  requests: PayoutRequestRow[];
  entries: Map<string, LedgerEntry>;
  available: number;
}

/** The sales, the requests, the ledger entry of every sale and the available funds. */
export async function storefrontLedger(db: Executor, storefrontId: string): Promise<Ledger> {
  const [sales, requests] = await Promise.all([
    storefrontSales(db, storefrontId),
    storefrontPayoutRequests(db, storefrontId),
  ]);
  const amounts = requests.map((r) => ({ ...r, amount: Number(r.amount) }));
  // Only completed sales are owed to the storefront.
  const totalNet = sales.reduce((sum, s) => sum + (s.status === 'completed' ? s.net : 0), 0);
  return {
    sales,
    requests,
    entries: ledgerEntries(sales, amounts),
    available: availableFunds(totalNet, amounts),
  };
}

/** Completed sales take their share of payout requests; pending and refunded ones owe nothing yet. */
function ledgerEntries(
  sales: SaleRow[],
  requests: Parameters<typeof payoutLedger>[1],
): Map<string, LedgerEntry> {
  const entries = payoutLedger(
    sales.filter((s) => s.status === 'completed'),
    requests,
  );
  for (const sale of sales) {
    if (!entries.has(sale.id))
      entries.set(sale.id, { allocations: [], unrequested: 0, status: 'nothingDue' });
  }
  return entries;
}

export function saleJson(sale: SaleRow, payout: LedgerEntry): SaleJson {
  return {
    id: sale.id,
    purchasedOn: sale.purchasedOn.toISOString(),
    blueprint: sale.blueprint,
    seriesNumber: sale.seriesNumber,
    status: sale.status,
    amount: sale.amount,
    royaltyFee: sale.royaltyFee,
    platformFee: sale.platformFee,
    net: sale.net,
    buyer: sale.buyer,
    payout,
  };
}

export function payoutRequestJson(row: PayoutRequestRow) {
  return {
    id: row.id,
    amount: Number(row.amount),
    state: row.state,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The storefront a user owns (at most one), or undefined. */
export async function storefrontOf(db: Executor, userId: string): Promise<StorefrontRow | undefined> {
  const [row] = await db.select().from(storefronts).where(eq(storefronts.ownerId, userId));
  return row;
}
