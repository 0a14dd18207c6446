import { and, eq, inArray } from 'drizzle-orm';
import type { ActivityKind } from '#domain/schemas/activity';
import type { Executor } from '../db';
import {
  activity,
  blueprints,
  type nftPurchases,
  nfts,
  saleListings,
  storefronts,
  users,
} from '../db/schema';

/**
 * Recording activity: each fact is written once, inside the transaction that records the fact
 * itself (a mint, a listing made or ended, a purchase, a transfer, an offer), keyed by its source
 * (`key`), so a replayed webhook or a re-indexed block range adds nothing.
 */

export interface ActivityFact {
  /** The source fact, unique across kinds: e.g. "listing:<listing id>", "purchase:<transaction id>". */
  key: string;
  kind: ActivityKind;
  nftId?: string | null;
  /** The item's blueprint; found from the NFT when not given. */
  blueprintId?: string | null;
  serialNumber?: number | null;
  /** FUSD cents. */
  price?: number | null;
  fromAddress?: string | null;
  toAddress?: string | null;
  /** The users on each side; found by wallet address when not given. */
  fromUserId?: string | null;
  toUserId?: string | null;
  transactionId?: string | null;
  at: Date;
}

/** The blueprint, storefront and edition of an NFT (or of a blueprint), as far as they are known. */
async function itemOf(tx: Executor, fact: ActivityFact) {
  let { blueprintId = null, serialNumber = null } = fact;
  let storefrontId: string | null = null;
  if (fact.nftId && (!blueprintId || serialNumber === null)) {
    const [row] = await tx
      .select({ blueprintId: blueprints.id, serialNumber: nfts.serialNumber })
      .from(nfts)
      .leftJoin(blueprints, eq(blueprints.flowBlueprintId, nfts.blueprintId))
      .where(eq(nfts.id, fact.nftId));
    blueprintId ??= row?.blueprintId ?? null;
    serialNumber ??= row?.serialNumber ?? null;
  }
  if (blueprintId) {
    const [row] = await tx
      .select({ storefrontId: blueprints.storefrontId })
      .from(blueprints)
      .where(eq(blueprints.id, blueprintId));
    storefrontId = row?.storefrontId ?? null;
  }
  return { blueprintId, serialNumber, storefrontId };
}

async function userOf(tx: Executor, id: string | null | undefined, address: string | null | undefined) {
  if (id !== undefined && id !== null) return id;
  if (!address) return null;
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.walletAddress, address));
  return row?.id ?? null;
}

const SALES: ActivityKind[] = ['sale', 'offerAccepted'];

/**
 * Records one activity entry inside the caller's transaction; a fact recorded before (same key)
 * changes nothing. A sale and the transfer its NFT made in the same transaction are one fact: the
 * sale replaces such a transfer, and such a transfer is not recorded after its sale. Answers whether
 * an entry was added.
 */
export async function recordActivity(tx: Executor, fact: ActivityFact): Promise<boolean> {
  if (fact.transactionId && fact.nftId) {
    const sameFact = and(eq(activity.transactionId, fact.transactionId), eq(activity.nftId, fact.nftId));
    if (fact.kind === 'transfer') {
      const [sale] = await tx
        .select({ id: activity.id })
        .from(activity)
        .where(and(sameFact, inArray(activity.kind, SALES)));
      if (sale) return false;
    } else if (SALES.includes(fact.kind)) {
      await tx.delete(activity).where(and(sameFact, eq(activity.kind, 'transfer')));
    }
  }
  const item = await itemOf(tx, fact);
  const added = await tx
    .insert(activity)
    .values({
      key: fact.key,
      kind: fact.kind,
      nftId: fact.nftId ?? null,
      ...item,
      price: fact.price ?? null,
      fromAddress: fact.fromAddress ?? null,
      toAddress: fact.toAddress ?? null,
      fromUserId: await userOf(tx, fact.fromUserId, fact.fromAddress),
      toUserId: await userOf(tx, fact.toUserId, fact.toAddress),
      transactionId: fact.transactionId ?? null,
      occurredAt: fact.at,
    })
    .onConflictDoNothing({ target: activity.key })
    .returning({ id: activity.id });
  return added.length > 0;
}

type Purchase = typeof nftPurchases.$inferSelect;

/**
 * A purchase record as activity: an accepted offer (type "offer") is `offerAccepted`, any other a
 * `sale`, once per purchase transaction. The seller is the listing's (a resale or an offer's owner,
 * when given); a new edition's is the storefront owner who made the item.
 */
export async function recordPurchaseActivity(tx: Executor, purchase: Purchase, seller?: string | null) {
  let fromAddress = seller ?? null;
  let fromUserId: string | null = null;
  if (!fromAddress && purchase.blockchainListingId) {
    const [listing] = await tx
      .select({ seller: saleListings.seller })
      .from(saleListings)
      .where(eq(saleListings.blockchainListingId, purchase.blockchainListingId));
    fromAddress = listing?.seller ?? null;
  }
  if (!fromAddress && !purchase.blockchainListingId && purchase.type !== 'offer') {
    const [maker] = await tx
      .select({ id: users.id, wallet: users.walletAddress })
      .from(nfts)
      .innerJoin(blueprints, eq(blueprints.flowBlueprintId, nfts.blueprintId))
      .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
      .innerJoin(users, eq(users.id, storefronts.ownerId))
      .where(eq(nfts.id, purchase.nftId));
    fromUserId = maker?.id ?? null;
    fromAddress = maker?.wallet ?? null;
  }
  return recordActivity(tx, {
    key: `purchase:${purchase.transactionId}`,
    kind: purchase.type === 'offer' ? 'offerAccepted' : 'sale',
    nftId: purchase.nftId,
    price: purchase.amount,
    fromAddress,
    fromUserId,
    toAddress: purchase.walletAddress,
    toUserId: purchase.buyerId,
    transactionId: purchase.transactionId,
    at: purchase.purchasedOn,
  });
}

/** An NFT minted to `to` in `transactionId` (once per NFT, whoever sees the mint first). */
export function recordMintActivity(
  tx: Executor,
  mint: { nftId: string; to: string; transactionId?: string | null; at: Date },
) {
  return recordActivity(tx, {
    key: `mint:${mint.nftId}`,
    kind: 'mint',
    nftId: mint.nftId,
    toAddress: mint.to,
    transactionId: mint.transactionId ?? null,
    at: mint.at,
  });
}
