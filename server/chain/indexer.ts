import { and, eq } from 'drizzle-orm';
import { fusdToCents } from '#domain/money';
import { recordActivity, recordMintActivity } from '../activity/record';
import type { Database, Executor } from '../db';
import { chainCursor, nfts } from '../db/schema';
import { getNfts } from './actions';
import type { FlowClient } from './client';
import {
  blockTime,
  type ExtraEvents,
  type IndexedEvent,
  indexedEventTypes,
  latestSealedHeight,
  MAX_BLOCK_RANGE,
  readEvents,
  typeId,
} from './events';
import {
  endListing,
  moveNft,
  recordSale,
  repairOwners,
  setChainOwner,
  upsertListing,
  upsertNft,
} from './facts';

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

export const INDEXER_STREAM = 'vitrine-marketplace';
export const INDEXER_INTERVAL_MS = 1000;
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

async function readCursor(db: Executor, stream: string): Promise<number | null> {
  const [row] = await db.select().from(chainCursor).where(eq(chainCursor.stream, stream));
  return row ? Number(row.height) : null;
}

/** Metadata of minted NFTs, read before the transaction (best effort: the NFT may have moved on). */
async function mintedMetadata(client: FlowClient, events: IndexedEvent[], minted: string) {
  const metadata = new Map<string, Record<string, string>>();
  for (const e of events) {
    if (e.type !== minted || !e.data.to) continue;
    try {
      const [nft] = await getNfts(client, e.data.to, [String(e.data.id)]);
      if (nft) metadata.set(nft.id, nft.metadata);
    } catch {
      // leave the metadata empty
    }
  }
  return metadata;
}

/** The stream's cursor, created on the first run just before startHeight (else the configured start, or the latest block). */
async function cursorOf(
  client: FlowClient,
  db: Database,
  stream: string,
  startHeight: number | undefined,
  latest: number,
): Promise<number> {
  const cursor = await readCursor(db, stream);
  if (cursor !== null) return cursor;
  const start =
    startHeight ?? client.config.indexerStartHeight ?? (client.config.network === 'emulator' ? 0 : latest);
  await db
    .insert(chainCursor)
    .values({ stream, height: start - 1 })
    .onConflictDoNothing();
  return (await readCursor(db, stream))!;
}

/** A minted NFT: recorded with its blueprint, edition, first owner and metadata. */
async function applyMinted(
  tx: Executor,
  e: IndexedEvent,
  metadata: Record<string, string> | undefined,
  now: Date,
) {
  const d = e.data;
  await upsertNft(
    tx,
    {
      id: String(d.id),
      blueprintId: Number(d.blueprintId),
      serialNumber: Number(d.serialNumber),
      owner: d.to ?? '',
      metadata,
    },
    now,
  );
  if (d.to) {
    await setChainOwner(tx, String(d.id), d.to, now);
    await recordMintActivity(tx, {
      nftId: String(d.id),
      to: d.to,
      transactionId: e.transactionId,
      at: blockTime(e) ?? now,
    });
  }
}

/** The holder the chain showed last, before this deposit. */
async function chainOwnerOf(tx: Executor, nftId: string): Promise<string | null> {
  const [row] = await tx.select({ owner: nfts.chainOwner }).from(nfts).where(eq(nfts.id, nftId));
  return row?.owner ?? null;
}

/** Listings bought in a transaction, by "transaction/NFT": the deposit that follows names the buyer. */
type Bought = Map<string, { listingId: string; salePrice: string }>;

/**
 * An NFT deposited: the chain's holder moves to it. After a bought listing in the same transaction
 * it is that resale's buyer; otherwise a deposit to another wallet than the last holder is a
 * transfer. Answers how many rows it changed.
 */
async function applyDeposited(tx: Executor, e: IndexedEvent, bought: Bought, now: Date): Promise<number> {
  const d = e.data;
  let applied = 0;
  const nftId = String(d.id);
  const before = await chainOwnerOf(tx, nftId);
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
  } else if (before && before !== d.to) {
    await recordActivity(tx, {
      key: `transfer:${e.transactionId}:${e.eventIndex}`,
      kind: 'transfer',
      nftId,
      fromAddress: before,
      toAddress: d.to,
      transactionId: e.transactionId,
      at: blockTime(e) ?? now,
    });
  }
  if (await moveNft(tx, nftId, d.to, now)) applied++;
  return applied;
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
  const cursor = await cursorOf(client, db, stream, options.startHeight, latest);
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

  const metadata = await mintedMetadata(client, events, types.minted);

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
      const bought: Bought = new Map();
      for (const e of events) {
        const d = e.data;
        const other = extra.get(e.type);
        if (other) {
          if (await other.apply(tx, e, now)) applied++;
        } else if (e.type === types.minted) {
          await applyMinted(tx, e, metadata.get(String(d.id)), now);
          applied++;
        } else if (e.type === types.deposited) {
          if (d.type !== types.nftType || !d.to) continue;
          applied += await applyDeposited(tx, e, bought, now);
        } else if (e.type === types.available) {
          if (typeId(d.nftType) !== types.nftType) continue;
          await upsertListing(
            tx,
            {
              blockchainListingId: String(d.listingResourceID),
              seller: d.storefrontAddress,
              nftId: String(d.nftID),
              price: fusdToCents(d.salePrice),
              transactionId: e.transactionId,
              at: blockTime(e) ?? now,
            },
            now,
          );
          applied++;
        } else if (e.type === types.completed) {
          if (typeId(d.nftType) !== types.nftType) continue;
          const id = String(d.listingResourceID);
          const outcome = {
            purchased: Boolean(d.purchased),
            transactionId: e.transactionId,
            at: blockTime(e) ?? now,
          };
          if (await endListing(tx, id, outcome, now)) applied++;
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
