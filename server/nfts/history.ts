import { desc, eq } from 'drizzle-orm';
import { HISTORY_PURCHASES, HistoryAnswer, type HistoryEntry } from '#domain/schemas/history';
import { NftIdParams } from '#domain/schemas/nfts';
import type { Executor } from '../db';
import { blueprints, nftPurchases, nfts, storefronts, users } from '../db/schema';
import type { Services } from '../deps';
import { defineRoute, notFound, type Route } from '../http';

/**
 * History entries (domain/schemas/history.ts): who created an item or an edition, and who bought
 * it. People show by their public name and avatar only.
 */

type UserRow = typeof users.$inferSelect;
type PurchaseRow = typeof nftPurchases.$inferSelect;

/** A purchase by its buyer: the username, else the paying wallet shortened (0x1234…abcd). */
export function purchaseEntry(
  purchase: PurchaseRow,
  buyer: UserRow | null,
  seriesNumber: number,
): HistoryEntry {
  const wallet = purchase.walletAddress;
  return {
    id: purchase.id,
    type: 'purchase',
    user: {
      name: buyer?.username ?? `${wallet.slice(0, 6)}…${wallet.slice(-4)}`,
      avatarUrl: buyer?.avatarUrl ?? null,
      seed: buyer?.walletAddress ?? wallet,
    },
    seriesNumber,
    createdAt: purchase.purchasedOn.toISOString(),
  };
}

/** A creation by the storefront that made the blueprint: its name and logo. */
export function creationEntry(
  id: string,
  creator: { storefront: typeof storefronts.$inferSelect; owner: UserRow },
  seriesNumber: number | null,
  at: Date,
): HistoryEntry {
  return {
    id,
    type: 'creation',
    user: {
      name: creator.storefront.name,
      avatarUrl: creator.storefront.logoUrl,
      seed: creator.owner.walletAddress ?? creator.owner.id,
    },
    seriesNumber,
    createdAt: at.toISOString(),
  };
}

/**
 * One NFT's history: its newest purchases (HISTORY_PURCHASES), primary and resales, newest first,
 * then its creation: the mint of the edition (when Vitrine first saw it), by the storefront of its
 * blueprint (an NFT of a blueprint Vitrine does not know was made by an unknown creator). Null for
 * an unknown NFT.
 */
export async function nftHistory(db: Executor, nftId: string): Promise<HistoryEntry[] | null> {
  const [nft] = await db.select().from(nfts).where(eq(nfts.id, nftId));
  if (!nft) return null;
  const purchases = await db
    .select({ purchase: nftPurchases, buyer: users })
    .from(nftPurchases)
    .leftJoin(users, eq(users.id, nftPurchases.buyerId))
    .where(eq(nftPurchases.nftId, nftId))
    .orderBy(desc(nftPurchases.purchasedOn), desc(nftPurchases.id))
    .limit(HISTORY_PURCHASES);
  const [creator] = await db
    .select({ storefront: storefronts, owner: users })
    .from(blueprints)
    .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
    .innerJoin(users, eq(users.id, storefronts.ownerId))
    .where(eq(blueprints.flowBlueprintId, nft.blueprintId));
  const creationId = `creation-${nft.id}`;
  const creation: HistoryEntry = creator
    ? creationEntry(creationId, creator, nft.serialNumber, nft.createdAt)
    : {
        id: creationId,
        type: 'creation',
        user: { name: 'Unknown creator', avatarUrl: null, seed: `blueprint-${nft.blueprintId}` },
        seriesNumber: nft.serialNumber,
        createdAt: nft.createdAt.toISOString(),
      };
  return [
    ...purchases.map(({ purchase, buyer }) => purchaseEntry(purchase, buyer, nft.serialNumber)),
    creation,
  ];
}

export function nftHistoryRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/nfts/{id}/history',
      tag: 'nfts',
      summary:
        'The NFT’s history: its newest purchases (10; primary and resales), newest first, then its creation (the mint)',
      params: NftIdParams,
      response: HistoryAnswer,
      responses: {
        200: '{ results: [{ id, type: creation|purchase, user { name, avatarUrl, seed }, seriesNumber, createdAt }] }',
        404: 'No such NFT',
      },
      async handler(c, { params }) {
        const results = await nftHistory(s.db, params.id);
        if (!results) throw notFound();
        return c.json({ results });
      },
    }),
  ];
}
