import * as sdk from '@onflow/sdk';
import { and, eq, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import { fusdToCents } from '#domain/money';
import type { Database, Executor } from '../db';
import { chainCursor, nftPurchases, nfts, saleListings, users } from '../db/schema';
import { getNfts } from './actions';
import type { FlowClient } from './client';

/**
 * The chain event indexer: reads VitrineNFT and NFTStorefrontV2 events by block range from the
 * access node and keeps `nfts` and `sale_listings` in step with the chain. Each batch of blocks is
 * applied in one database transaction together with the cursor, so a crash re-reads the batch from
 * the cursor and no event is applied twice; the cursor update also checks the height it read, so two
 * indexers on one database never apply a batch both.
 *
 * The indexer is the source of truth for ownership: mints and deposits set `chain_owner` in chain
 * order, and after each batch every row whose `owner` disagrees with it is moved back to it. It also
 * records resale purchases (a completed listing and the deposit that follows it), whether or not the
 * buyer's client records them through the API.
 */

/** The access node answers at most 250 blocks per events request. */
export const MAX_BLOCK_RANGE = 250;
export const INDEXER_STREAM = 'vitrine-marketplace';
export const INDEXER_INTERVAL_MS = 1000;

export interface IndexedEvent {
  type: string;
  blockHeight: number;
  transactionId: string;
  transactionIndex: number;
  eventIndex: number;
  /** The block's time (ISO 8601), when the access node gives it. */
  blockTimestamp?: string;
  // biome-ignore lint/suspicious/noExplicitAny: decoded JSON-Cadence values
  data: Record<string, any>;
}

/** Events of other modules the indexer applies in its batch transaction (e.g. FUSD payments). */
export interface ExtraEvents {
  type: string;
  /** Applies one event; answers whether it changed anything. Must be safe to repeat. */
  apply(tx: Executor, event: IndexedEvent, now: Date): Promise<boolean>;
}

export interface IndexerOptions {
  extraEvents?: ExtraEvents[];
  /** Height to start from when the stream has no cursor yet; default 0 on the emulator, else the latest sealed height. */
  startHeight?: number;
  stream?: string;
  maxRange?: number;
}

export interface IndexerRun {
  from: number;
  to: number;
  /** Events that changed or confirmed rows. */
  applied: number;
}

/** A Cadence Type value as decoded by the SDK: its type identifier. */
function typeId(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as { staticType?: { typeID?: string } | string; typeID?: string } | null;
  if (!v) return '';
  if (typeof v.staticType === 'string') return v.staticType;
  return v.staticType?.typeID ?? v.typeID ?? '';
}

/** When the event's block was made, if the access node said so. */
function blockTime(e: IndexedEvent): Date | null {
  const at = e.blockTimestamp ? new Date(e.blockTimestamp) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
}

export async function latestSealedHeight(client: FlowClient): Promise<number> {
  const block = (await client.sdk.send([sdk.getBlock(true)]).then(client.sdk.decode)) as { height: number };
  return Number(block.height);
}

/** The events of `types` in blocks from..to (inclusive), in chain order. */
export async function readEvents(
  client: FlowClient,
  types: string[],
  from: number,
  to: number,
): Promise<IndexedEvent[]> {
  const all: IndexedEvent[] = [];
  for (const type of types) {
    const events = (await client.sdk
      .send([sdk.getEventsAtBlockHeightRange(type, from, to)])
      .then(client.sdk.decode)) as IndexedEvent[];
    for (const e of events) {
      all.push({
        type: e.type,
        blockHeight: Number(e.blockHeight),
        transactionId: e.transactionId,
        transactionIndex: Number(e.transactionIndex),
        eventIndex: Number(e.eventIndex),
        blockTimestamp: e.blockTimestamp,
        data: e.data,
      });
    }
  }
  return all.sort(
    (a, b) =>
      a.blockHeight - b.blockHeight || a.transactionIndex - b.transactionIndex || a.eventIndex - b.eventIndex,
  );
}

/* ---- Applying chain facts (also used by the record routes) ---- */

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
  if (inserted) return { purchase: inserted, created: true };
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
}

/** A listing is available; a listing already completed or cancelled stays so. */
export async function upsertListing(tx: Executor, fact: ListingFact, now: Date) {
  const [row] = await tx
    .insert(saleListings)
    .values({ ...fact, listedOn: fact.listedOn ?? now, status: 'active', createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: saleListings.blockchainListingId,
      set: { seller: fact.seller, nftId: fact.nftId, price: fact.price, updatedAt: now },
    })
    .returning();
  await refreshNftStatus(tx, fact.nftId, now);
  return row!;
}

/** A listing ended: bought (completed) or removed (cancelled). Ending it again changes nothing. */
export async function endListing(
  tx: Executor,
  blockchainListingId: string,
  outcome: { purchased: boolean; purchasedBy?: string | null },
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

/* ---- The indexer ---- */

export function indexedEventTypes(client: FlowClient) {
  return {
    minted: client.eventType('VitrineNFT', 'Minted'),
    deposited: client.eventType('NonFungibleToken', 'Deposited'),
    available: client.eventType('NFTStorefrontV2', 'ListingAvailable'),
    completed: client.eventType('NFTStorefrontV2', 'ListingCompleted'),
    nftType: client.eventType('VitrineNFT', 'NFT'),
  };
}

async function readCursor(db: Executor, stream: string): Promise<number | null> {
  const [row] = await db.select().from(chainCursor).where(eq(chainCursor.stream, stream));
  return row ? Number(row.height) : null;
}

/**
 * Indexes the next range of sealed blocks after the cursor (at most `maxRange`), or nothing when
 * the cursor is at the latest sealed block. Answers the range it indexed, or null.
 */
export async function runIndexerOnce(
  client: FlowClient,
  db: Database,
  options: IndexerOptions & { clock?: () => Date } = {},
): Promise<IndexerRun | null> {
  const stream = options.stream ?? INDEXER_STREAM;
  const maxRange = options.maxRange ?? MAX_BLOCK_RANGE;
  const latest = await latestSealedHeight(client);
  let cursor = await readCursor(db, stream);
  if (cursor === null) {
    const start =
      options.startHeight ??
      client.config.indexerStartHeight ??
      (client.config.network === 'emulator' ? 0 : latest);
    await db
      .insert(chainCursor)
      .values({ stream, height: start - 1 })
      .onConflictDoNothing();
    cursor = (await readCursor(db, stream))!;
  }
  if (cursor >= latest) return null;
  const from = cursor + 1;
  const to = Math.min(latest, cursor + maxRange);
  const types = indexedEventTypes(client);
  const extra = new Map((options.extraEvents ?? []).map((x) => [x.type, x]));
  const events = await readEvents(
    client,
    [types.minted, types.deposited, types.available, types.completed, ...extra.keys()],
    from,
    to,
  );

  // Metadata of minted NFTs, read before the transaction (best effort: the NFT may have moved on).
  const metadata = new Map<string, Record<string, string>>();
  for (const e of events) {
    if (e.type !== types.minted || !e.data.to) continue;
    try {
      const [nft] = await getNfts(client, e.data.to, [String(e.data.id)]);
      if (nft) metadata.set(nft.id, nft.metadata);
    } catch {
      // leave the metadata empty
    }
  }

  const now = options.clock?.() ?? new Date();
  let applied = 0;
  await db
    .transaction(async (tx) => {
      const advanced = await tx
        .update(chainCursor)
        .set({ height: to, updatedAt: now })
        .where(and(eq(chainCursor.stream, stream), eq(chainCursor.height, cursor)))
        .returning({ height: chainCursor.height });
      // Another indexer applied this range first.
      if (advanced.length === 0) throw new CursorMoved();
      /** Listings bought in a transaction, by NFT: the deposit that follows names the buyer. */
      const bought = new Map<string, { listingId: string; salePrice: string }>();
      for (const e of events) {
        const d = e.data;
        const other = extra.get(e.type);
        if (other) {
          if (await other.apply(tx, e, now)) applied++;
        } else if (e.type === types.minted) {
          await upsertNft(
            tx,
            {
              id: String(d.id),
              blueprintId: Number(d.blueprintId),
              serialNumber: Number(d.serialNumber),
              owner: d.to ?? '',
              metadata: metadata.get(String(d.id)),
            },
            now,
          );
          if (d.to) await setChainOwner(tx, String(d.id), d.to, now);
          applied++;
        } else if (e.type === types.deposited) {
          if (d.type !== types.nftType || !d.to) continue;
          const nftId = String(d.id);
          await setChainOwner(tx, nftId, d.to, now);
          const key = `${e.transactionId}/${nftId}`;
          const listing = bought.get(key);
          if (listing) {
            bought.delete(key);
            const sale = await recordSale(
              tx,
              {
                transactionId: e.transactionId,
                nftId,
                blockchainListingId: listing.listingId,
                buyer: d.to,
                salePrice: listing.salePrice,
              },
              blockTime(e) ?? now,
              now,
            );
            if (sale.created) applied++;
          }
          if (await moveNft(tx, nftId, d.to, now)) applied++;
        } else if (e.type === types.available) {
          if (typeId(d.nftType) !== types.nftType) continue;
          await upsertListing(
            tx,
            {
              blockchainListingId: String(d.listingResourceID),
              seller: d.storefrontAddress,
              nftId: String(d.nftID),
              price: fusdToCents(d.salePrice),
            },
            now,
          );
          applied++;
        } else if (e.type === types.completed) {
          if (typeId(d.nftType) !== types.nftType) continue;
          const id = String(d.listingResourceID);
          if (await endListing(tx, id, { purchased: Boolean(d.purchased) }, now)) applied++;
          if (d.purchased) {
            bought.set(`${e.transactionId}/${String(d.nftID)}`, {
              listingId: id,
              salePrice: String(d.salePrice),
            });
          }
        }
      }
      // Whatever wrote `owner` (a client-driven route, a manual edit), the chain decides.
      applied += await repairOwners(tx, now);
    })
    .catch((err) => {
      if (!(err instanceof CursorMoved)) throw err;
      applied = 0;
    });
  return { from, to, applied };
}

class CursorMoved extends Error {}

export interface Indexer {
  stop(): Promise<void>;
  /** Resolves when the indexer has caught up with the chain as of the call. */
  idle(): Promise<void>;
}

/**
 * Runs the indexer every `intervalMs` (1 s), catching up range by range; errors are logged and
 * the next tick tries again from the cursor.
 */
export function startIndexer(
  client: FlowClient,
  db: Database,
  options: IndexerOptions & {
    intervalMs?: number;
    log?: Pick<Console, 'error'>;
    clock?: () => Date;
  } = {},
): Indexer {
  const intervalMs = options.intervalMs ?? INDEXER_INTERVAL_MS;
  const log = options.log ?? console;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let waiters: (() => void)[] = [];

  const tick = async () => {
    try {
      while (!stopped && (await runIndexerOnce(client, db, options))) {
        // keep catching up
      }
      const done = waiters;
      waiters = [];
      for (const w of done) w();
    } catch (err) {
      log.error('chain indexer failed; retrying from the cursor', err);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().then(schedule);
    }, intervalMs);
  };
  running = tick().then(schedule);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    idle() {
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}
