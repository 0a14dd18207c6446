import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import {
  availableFunds,
  type LedgerEntry,
  payoutLedger,
  type SaleJson,
  type SaleShares,
  saleShares,
} from '../../src/domain/sales';
import type { Executor } from '../db';
import { blueprints, nftPurchases, nfts, payoutRequests, storefronts, users } from '../db/schema';

/**
 * A storefront's primary sales and its payout ledger (src/domain/sales.ts has the rules). A sale is
 * a recorded purchase (nft_purchases) of an NFT minted from one of the storefront's blueprints
 * (nfts.blueprint_id = blueprints.flow_blueprint_id), except resales (type saleListing).
 */

export interface SaleRow extends SaleShares {
  id: string;
  purchasedOn: Date;
  amount: number;
  blueprint: { id: string; title: string; previewImageUrl: string | null };
  seriesNumber: number;
  buyer: { username: string } | null;
}

export type StorefrontRow = typeof storefronts.$inferSelect;
export type PayoutRequestRow = typeof payoutRequests.$inferSelect;

/** Every sale of the storefront, oldest first, with its royalty, platform fee and net. */
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
      royaltyPercent: blueprints.royaltyPercent,
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
        ne(nftPurchases.type, 'saleListing'),
        // A purchase of a resale listing is a resale whatever type its record names.
        isNull(nftPurchases.blockchainListingId),
      ),
    )
    .orderBy(asc(nftPurchases.purchasedOn), asc(nftPurchases.id));
  return rows.map((r) => ({
    id: r.id,
    purchasedOn: r.purchasedOn,
    amount: Number(r.amount),
    ...saleShares(Number(r.amount), r.royaltyPercent, r.totalFeePercent),
    blueprint: { id: r.blueprintId, title: r.title, previewImageUrl: r.previewImageUrl },
    seriesNumber: Number(r.seriesNumber),
    buyer: r.buyer === null ? null : { username: r.buyer },
  }));
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
  const totalNet = sales.reduce((sum, s) => sum + s.net, 0);
  return {
    sales,
    requests,
    entries: payoutLedger(sales, amounts),
    available: availableFunds(totalNet, amounts),
  };
}

export function saleJson(sale: SaleRow, payout: LedgerEntry): SaleJson {
  return {
    id: sale.id,
    purchasedOn: sale.purchasedOn.toISOString(),
    blueprint: sale.blueprint,
    seriesNumber: sale.seriesNumber,
    status: 'completed',
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
