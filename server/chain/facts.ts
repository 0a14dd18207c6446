import { and, eq, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import { fusdToCents } from '#domain/money';
import { recordActivity, recordPurchaseActivity } from '../activity/record';
import type { Executor } from '../db';
import { nftPurchases, nfts, saleListings, users } from '../db/schema';
import { noteListing } from '../favorites/notices';
import type { FlowClient } from './client';
import { type IndexedEvent, indexedEventTypes, typeId } from './events';
/**
 * Chain facts applied to the database: NFTs minted and moved, their holders, listings and sales.
 * The indexer applies them in chain order; the record routes apply what a client reports first.
 */

export interface NftFact {
  id: string;
  blueprintId: number;
  serialNumber: number;
  owner: string;
  metadata?: Record<string, string>;
}

/** An NFT exists with this owner; metadata is kept once known. */
export async function upsertNft(tx: Executor, fact: NftFact, now: Date): Promise<void> {
  await tx
    .insert(nfts)
    .values({ ...fact, metadata: fact.metadata ?? {}, status: 'parked', createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: nfts.id,
      set: {
        owner: fact.owner,
        ...(fact.metadata ? { metadata: fact.metadata } : {}),
        status: sql`case when ${nfts.status} = 'minting' then 'parked'::nft_status else ${nfts.status} end`,
        updatedAt: now,
      },
    });
}

/** The NFT `nftId` went to `owner`: listings of earlier holders are gone (ghost listings). */
export async function moveNft(tx: Executor, nftId: string, owner: string, now: Date): Promise<boolean> {
  const moved = await tx
    .update(nfts)
    .set({ owner, updatedAt: now })
    .where(and(eq(nfts.id, nftId), ne(nfts.owner, owner)))
    .returning({ id: nfts.id });
  if (moved.length === 0) return false;
  await tx
    .update(saleListings)
    .set({ status: 'cancelled', completedOn: now, updatedAt: now })
    .where(
      and(eq(saleListings.nftId, nftId), eq(saleListings.status, 'active'), ne(saleListings.seller, owner)),
    );
  await refreshNftStatus(tx, nftId, now);
  return true;
}

/** The chain shows `owner` holding the NFT (a mint or a deposit event, read in chain order). */
export async function setChainOwner(tx: Executor, nftId: string, owner: string, now: Date): Promise<void> {
  await tx
    .update(nfts)
    .set({ chainOwner: owner, updatedAt: now })
    .where(and(eq(nfts.id, nftId), or(isNull(nfts.chainOwner), ne(nfts.chainOwner, owner))));
}

/**
 * A script has just shown `fact.owner` holding the NFT: the row (created if missing) moves to it as
 * on a deposit, and `chain_owner` follows so that the indexer's repair keeps it there.
 */
export async function confirmHolder(tx: Executor, fact: NftFact, now: Date): Promise<void> {
  await tx
    .insert(nfts)
    .values({
      ...fact,
      chainOwner: fact.owner,
      metadata: fact.metadata ?? {},
      status: 'parked',
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: nfts.id,
      set: {
        chainOwner: fact.owner,
        status: sql`case when ${nfts.status} = 'minting' then 'parked'::nft_status else ${nfts.status} end`,
        updatedAt: now,
      },
    });
  await moveNft(tx, fact.id, fact.owner, now);
  await refreshNftStatus(tx, fact.id, now);
}

/**
 * Rows whose `owner` disagrees with the holder the chain showed last (`chain_owner`) move back to
 * it, with the consequences of a move (listings of other holders end). Answers how many moved.
 */
export async function repairOwners(tx: Executor, now: Date): Promise<number> {
  const wrong = await tx
    .select({ id: nfts.id, chainOwner: nfts.chainOwner })
    .from(nfts)
    .where(and(isNotNull(nfts.chainOwner), ne(nfts.owner, nfts.chainOwner)));
  let repaired = 0;
  for (const row of wrong) {
    if (await moveNft(tx, row.id, row.chainOwner!, now)) repaired++;
  }
  return repaired;
}

/** A resale as the chain shows it: a listing completed with purchased=true, then the NFT deposited. */
export interface SaleFact {
  transactionId: string;
  nftId: string;
  blockchainListingId: string;
  /** The address the NFT was deposited to after the listing completed. */
  buyer: string;
  /** The listing's price, a UFix64 FUSD amount. */
  salePrice: string;
}

/**
 * The resale of VitrineNFT `nftId` in one transaction's events: a ListingCompleted with
 * purchased=true for that NFT (and `blockchainListingId`, when given) and the Deposited of that NFT
 * that follows it, which names the buyer. Null when the transaction sold no such listing.
 */
export function saleInTransaction(
  client: FlowClient,
  transactionId: string,
  events: { type: string; eventIndex: number | string; data: IndexedEvent['data'] }[],
  nftId: string,
  blockchainListingId?: string,
): SaleFact | null {
  const types = indexedEventTypes(client);
  const ordered = [...events].sort((a, b) => Number(a.eventIndex) - Number(b.eventIndex));
  for (const [i, e] of ordered.entries()) {
    const d = e.data;
    if (
      e.type !== types.completed ||
      !d.purchased ||
      typeId(d.nftType) !== types.nftType ||
      String(d.nftID) !== nftId ||
      (blockchainListingId !== undefined && String(d.listingResourceID) !== blockchainListingId)
    ) {
      continue;
    }
    const deposit = ordered
      .slice(i + 1)
      .find(
        (f) =>
          f.type === types.deposited &&
          f.data.type === types.nftType &&
          String(f.data.id) === nftId &&
          Boolean(f.data.to),
      );
    if (!deposit) continue;
    return {
      transactionId,
      nftId,
      blockchainListingId: String(d.listingResourceID),
      buyer: deposit.data.to,
      salePrice: String(d.salePrice),
    };
  }
  return null;
}

export type PurchaseRow = typeof nftPurchases.$inferSelect;

/**
 * Records a resale once per transaction (the API route and the indexer both call this): the
 * purchase (buyer: the user holding the buyer's wallet, if any; amount: the listing price), its
 * listing completed and bought by the buyer. A transaction recorded before keeps its first record
 * (`created` false). Ownership is not moved here.
 */
export async function recordSale(
  tx: Executor,
  sale: SaleFact,
  purchasedOn: Date,
  now: Date,
): Promise<{ purchase: PurchaseRow; created: boolean }> {
  const [buyer] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.walletAddress, sale.buyer))
    .limit(1);
  const [inserted] = await tx
    .insert(nftPurchases)
    .values({
      transactionId: sale.transactionId,
      buyerId: buyer?.id ?? null,
      walletAddress: sale.buyer,
      nftId: sale.nftId,
      type: 'saleListing',
      blockchainListingId: sale.blockchainListingId,
      amount: fusdToCents(sale.salePrice),
      purchasedOn,
    })
    .onConflictDoNothing({ target: nftPurchases.transactionId })
    .returning();
  // The listing facts hold either way; applying them again changes nothing.
  await endListing(tx, sale.blockchainListingId, { purchased: true, purchasedBy: sale.buyer }, now);
  await tx
    .update(saleListings)
    .set({ purchasedBy: sale.buyer, updatedAt: now })
    .where(
      and(
        eq(saleListings.blockchainListingId, sale.blockchainListingId),
        or(isNull(saleListings.purchasedBy), ne(saleListings.purchasedBy, sale.buyer)),
      ),
    );
  if (inserted) {
    await recordPurchaseActivity(tx, inserted);
    return { purchase: inserted, created: true };
  }
  const [first] = await tx
    .select()
    .from(nftPurchases)
    .where(eq(nftPurchases.transactionId, sale.transactionId));
  return { purchase: first!, created: false };
}

export interface ListingFact {
  blockchainListingId: string;
  seller: string;
  nftId: string;
  price: number;
  listedOn?: Date;
  /** The transaction that made the listing and its block's time, when known (for its activity entry). */
  transactionId?: string;
  at?: Date;
}

/** A listing is available; a listing already completed or cancelled stays so. */
export async function upsertListing(tx: Executor, { transactionId, at, ...fact }: ListingFact, now: Date) {
  const [row] = await tx
    .insert(saleListings)
    .values({ ...fact, listedOn: fact.listedOn ?? now, status: 'active', createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: saleListings.blockchainListingId,
      set: { seller: fact.seller, nftId: fact.nftId, price: fact.price, updatedAt: now },
    })
    .returning();
  await refreshNftStatus(tx, fact.nftId, now);
  await noteListing(tx, fact, now);
  await recordActivity(tx, {
    key: `listing:${fact.blockchainListingId}`,
    kind: 'listing',
    nftId: fact.nftId,
    price: fact.price,
    fromAddress: fact.seller,
    transactionId: transactionId ?? null,
    at: at ?? row!.listedOn,
  });
  return row!;
}

/** A listing ended: bought (completed) or removed (cancelled). Ending it again changes nothing. */
export async function endListing(
  tx: Executor,
  blockchainListingId: string,
  outcome: { purchased: boolean; purchasedBy?: string | null; transactionId?: string; at?: Date },
  now: Date,
) {
  const [row] = await tx
    .update(saleListings)
    .set({
      status: outcome.purchased ? 'completed' : 'cancelled',
      ...(outcome.purchasedBy ? { purchasedBy: outcome.purchasedBy } : {}),
      completedOn: now,
      updatedAt: now,
    })
    .where(and(eq(saleListings.blockchainListingId, blockchainListingId), eq(saleListings.status, 'active')))
    .returning();
  if (row) await refreshNftStatus(tx, row.nftId, now);
  // A listing removed (not bought) is a delisting; a bought one shows as its sale.
  if (row && !outcome.purchased) {
    await recordActivity(tx, {
      key: `delisting:${blockchainListingId}`,
      kind: 'delisting',
      nftId: row.nftId,
      price: row.price,
      fromAddress: row.seller,
      transactionId: outcome.transactionId ?? null,
      at: outcome.at ?? now,
    });
  }
  return row;
}

/** forSale while its holder has an active listing of it, else parked. */
export async function refreshNftStatus(tx: Executor, nftId: string, now: Date): Promise<void> {
  await tx
    .update(nfts)
    .set({
      status: sql`case when exists (select 1 from ${saleListings} where ${saleListings.nftId} = ${nfts.id}
        and ${saleListings.status} = 'active' and ${saleListings.seller} = ${nfts.owner})
        then 'forSale'::nft_status else 'parked'::nft_status end`,
      updatedAt: now,
    })
    .where(and(eq(nfts.id, nftId), ne(nfts.status, 'minting')));
}
