import { and, count, desc, eq, inArray, not, or, type SQL, sql } from 'drizzle-orm';
import type { OfferListQuery } from '#domain/schemas/offers';
import type { Executor } from '../db';
import { blueprints, nfts, offers, users } from '../db/schema';

export type OfferRow = typeof offers.$inferSelect;

/** What an offer is for, as notices and the API name it. */
export interface OfferItem {
  /** The item's (blueprint's) id; null for an NFT of no known blueprint. */
  blueprintId: string | null;
  title: string;
  imageUrl: string | null;
  serialNumber: number;
  /** The NFT's holder now, as the database knows it ('' when unknown). */
  holder: string;
}

/** The items of NFTs `ids`, by NFT id; an NFT the database does not know is "NFT <id>". */
export async function offerItems(db: Executor, ids: string[]): Promise<Map<string, OfferItem>> {
  const rows =
    ids.length === 0
      ? []
      : await db
          .select({
            id: nfts.id,
            owner: nfts.owner,
            serialNumber: nfts.serialNumber,
            metadata: nfts.metadata,
            blueprintId: blueprints.id,
            title: blueprints.title,
            imageUrl: blueprints.previewImageUrl,
          })
          .from(nfts)
          .leftJoin(blueprints, eq(blueprints.flowBlueprintId, nfts.blueprintId))
          .where(inArray(nfts.id, ids));
  const items = new Map<string, OfferItem>();
  for (const id of ids) {
    const row = rows.find((r) => r.id === id);
    items.set(id, {
      blueprintId: row?.blueprintId ?? null,
      title: row?.title ?? row?.metadata?.title ?? row?.metadata?.name ?? `NFT ${id}`,
      imageUrl: row?.imageUrl ?? null,
      serialNumber: Number(row?.serialNumber ?? 0),
      holder: row?.owner ?? '',
    });
  }
  return items;
}

export async function offerItem(db: Executor, nftId: string): Promise<OfferItem> {
  return (await offerItems(db, [nftId])).get(nftId)!;
}

/** The offer a transaction made or closed, if recorded. */
export async function offerOfTransaction(db: Executor, transactionId: string): Promise<OfferRow | undefined> {
  const [row] = await db
    .select()
    .from(offers)
    .where(or(eq(offers.transactionId, transactionId), eq(offers.closingTransactionId, transactionId)));
  return row;
}

export async function offerByChainId(db: Executor, chainOfferId: string, buyerAddress: string) {
  const [row] = await db
    .select()
    .from(offers)
    .where(and(eq(offers.chainOfferId, chainOfferId), eq(offers.buyerAddress, buyerAddress)));
  return row;
}

const standing = inArray(offers.status, ['open', 'unfunded']);

/**
 * Offers to a user: a standing offer (open or unfunded) is to whoever holds its NFT now, a closed
 * one to the owner it was made to (the seller, once accepted).
 */
function ownedBy(userId: string): SQL {
  const wallet = sql`(select ${users.walletAddress} from ${users} where ${users.id} = ${userId})`;
  return or(
    and(standing, sql`${offers.nftId} in (select ${nfts.id} from ${nfts} where ${nfts.owner} = ${wallet})`),
    and(not(standing), eq(offers.ownerId, userId)),
  )!;
}

/** A page of offers matching the query's filters, newest first. */
export async function offerPage(db: Executor, query: OfferListQuery) {
  const filters: SQL[] = [];
  if (query.nftId) filters.push(eq(offers.nftId, query.nftId));
  if (query.buyerId) filters.push(eq(offers.buyerId, query.buyerId));
  if (query.ownerId) filters.push(ownedBy(query.ownerId));
  if (query.status?.length) filters.push(inArray(offers.status, query.status));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(offers)
      .where(where)
      .orderBy(desc(offers.createdAt), desc(offers.id))
      .offset(query.from - 1)
      .limit(query.to - query.from + 1),
    db.select({ n: count() }).from(offers).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}
