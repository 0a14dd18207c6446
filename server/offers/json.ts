import { inArray } from 'drizzle-orm';
import type { OfferJson } from '#domain/responses/offers';
import type { Executor } from '../db';
import { users } from '../db/schema';
import { type OfferRow, offerItems } from './queries';

const standing = (r: OfferRow) => r.status === 'open' || r.status === 'unfunded';

/** Offers as the API answers them: the NFT's item, and each party as the user holding that wallet (if any). */
export async function offersJson(db: Executor, rows: OfferRow[]): Promise<OfferJson[]> {
  const items = await offerItems(db, [...new Set(rows.map((r) => r.nftId))]);
  const holders = rows.flatMap((r) => (standing(r) ? [items.get(r.nftId)!.holder] : []));
  const addresses = [...new Set([...rows.flatMap((r) => [r.buyerAddress, r.ownerAddress]), ...holders])];
  const people =
    addresses.length === 0
      ? []
      : await db
          .select({
            id: users.id,
            username: users.username,
            avatarUrl: users.avatarUrl,
            walletAddress: users.walletAddress,
          })
          .from(users)
          .where(inArray(users.walletAddress, addresses));
  const party = (walletAddress: string) => {
    const user = people.find((p) => p.walletAddress === walletAddress);
    return {
      id: user?.id ?? null,
      username: user?.username ?? null,
      avatarUrl: user?.avatarUrl ?? null,
      walletAddress,
    };
  };
  return rows.map((r) => {
    const item = items.get(r.nftId)!;
    return {
      id: r.id,
      chainOfferId: r.chainOfferId,
      nft: {
        id: r.nftId,
        blueprintId: item.blueprintId ?? '',
        title: item.title,
        imageUrl: item.imageUrl,
        seriesNumber: item.serialNumber,
      },
      buyer: party(r.buyerAddress),
      // A standing offer is to whoever holds the NFT now.
      owner: party(standing(r) && item.holder ? item.holder : r.ownerAddress),
      amount: r.amount,
      status: r.status,
      expiresAt: r.expiresAt.toISOString(),
      createdAt: r.createdAt.toISOString(),
      closedAt: r.closedAt?.toISOString() ?? null,
      transactionId: r.transactionId,
      closingTransactionId: r.closingTransactionId,
    };
  });
}

export async function offerJson(db: Executor, row: OfferRow): Promise<OfferJson> {
  return (await offersJson(db, [row]))[0]!;
}
