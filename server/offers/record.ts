import { and, eq, isNull } from 'drizzle-orm';
import { fusdToCents } from '#domain/money';
import { recordActivity, recordPurchaseActivity } from '../activity/record';
import type { FlowClient } from '../chain/client';
import { blockTime, type ExtraEvents, type IndexedEvent } from '../chain/events';
import { refreshNftStatus } from '../chain/facts';
import type { Config } from '../config';
import type { Executor } from '../db';
import { nftPurchases, nfts, offers, saleListings, users } from '../db/schema';
import { offerEventType } from './chain';
import { noticeOffer } from './notices';
import { type OfferRow, offerByChainId } from './queries';

/**
 * VitrineOffers events applied to the database, by the record route (the events of the transaction
 * a client reports) and by the indexer (every event, in chain order). Both apply the same facts and
 * each is keyed so that applying it again changes nothing:
 * - OfferMade: the offer, once per (offer id, buyer) and per transaction, `open`; its owner is the
 *   NFT's holder as recorded then; the owner is notified.
 * - OfferCanceled: a standing (or expired) offer becomes `canceled`.
 * - OfferAccepted: the offer becomes `accepted` with the seller as its owner, the sale is recorded as
 *   an nft_purchase of type `offer` (once per transaction; the NFT's history, profiles and volumes
 *   count it as a resale), the seller's active listings of that NFT are cancelled (the NFT left), and
 *   the buyer is notified. The NFT itself moves with the Deposited event that follows (the indexer)
 *   or when the record route sees it in the buyer's collection.
 */

export type Site = Pick<Config, 'publicUrl' | 'jwtSecret'>;

export interface OfferEvent {
  type: string;
  transactionId: string;
  // biome-ignore lint/suspicious/noExplicitAny: decoded JSON-Cadence values
  data: Record<string, any>;
}

export interface Applied {
  /** The offer the event is about, if recorded (a close read before its offer was made has none). */
  offer?: OfferRow;
  changed: boolean;
}

async function userOf(tx: Executor, walletAddress: string): Promise<string | null> {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.walletAddress, walletAddress));
  return user?.id ?? null;
}

async function applyMade(tx: Executor, e: OfferEvent, at: Date, site: Site): Promise<Applied> {
  const d = e.data;
  const nftId = String(d.nftId);
  const [nft] = await tx.select({ owner: nfts.owner }).from(nfts).where(eq(nfts.id, nftId));
  const ownerAddress = nft?.owner ?? '';
  const [inserted] = await tx
    .insert(offers)
    .values({
      chainOfferId: String(d.offerId),
      buyerAddress: d.buyer,
      buyerId: await userOf(tx, d.buyer),
      ownerAddress,
      ownerId: ownerAddress ? await userOf(tx, ownerAddress) : null,
      nftId,
      amount: fusdToCents(String(d.amount)),
      status: 'open',
      expiresAt: new Date(Number(d.expiresAt) * 1000),
      transactionId: e.transactionId,
      createdAt: at,
    })
    .onConflictDoNothing()
    .returning();
  if (!inserted) return { offer: await offerByChainId(tx, String(d.offerId), d.buyer), changed: false };
  await recordActivity(tx, {
    key: `offer:${inserted.id}`,
    kind: 'offer',
    nftId,
    price: inserted.amount,
    fromAddress: inserted.buyerAddress,
    fromUserId: inserted.buyerId,
    toAddress: ownerAddress || null,
    toUserId: inserted.ownerId,
    transactionId: e.transactionId,
    at,
  });
  await noticeOffer(tx, 'offerMade', inserted, at, site);
  return { offer: inserted, changed: true };
}

async function applyCanceled(tx: Executor, e: OfferEvent, at: Date): Promise<Applied> {
  const d = e.data;
  const [closed] = await tx
    .update(offers)
    .set({ status: 'canceled', closedAt: at, closingTransactionId: e.transactionId })
    .where(
      and(
        eq(offers.chainOfferId, String(d.offerId)),
        eq(offers.buyerAddress, d.buyer),
        isNull(offers.closingTransactionId),
      ),
    )
    .returning();
  if (closed) return { offer: closed, changed: true };
  return { offer: await offerByChainId(tx, String(d.offerId), d.buyer), changed: false };
}

async function applyAccepted(tx: Executor, e: OfferEvent, at: Date, now: Date, site: Site): Promise<Applied> {
  const d = e.data;
  const nftId = String(d.nftId);
  const amount = fusdToCents(String(d.amount));
  const sold = await tx
    .insert(nftPurchases)
    .values({
      transactionId: e.transactionId,
      buyerId: await userOf(tx, d.buyer),
      walletAddress: d.buyer,
      nftId,
      type: 'offer',
      amount,
      purchasedOn: at,
    })
    .onConflictDoNothing({ target: nftPurchases.transactionId })
    .returning();
  // In the activity feed the sale is one `offerAccepted` entry, from the seller to the buyer.
  for (const purchase of sold) await recordPurchaseActivity(tx, purchase, d.seller);
  // The NFT left the seller: their listings of it can no longer sell it.
  await tx
    .update(saleListings)
    .set({ status: 'cancelled', completedOn: now, updatedAt: now })
    .where(
      and(
        eq(saleListings.nftId, nftId),
        eq(saleListings.status, 'active'),
        eq(saleListings.seller, d.seller),
      ),
    );
  await refreshNftStatus(tx, nftId, now);
  const [closed] = await tx
    .update(offers)
    .set({
      status: 'accepted',
      closedAt: at,
      closingTransactionId: e.transactionId,
      ownerAddress: d.seller,
      ownerId: await userOf(tx, d.seller),
    })
    .where(
      and(
        eq(offers.chainOfferId, String(d.offerId)),
        eq(offers.buyerAddress, d.buyer),
        isNull(offers.closingTransactionId),
      ),
    )
    .returning();
  if (closed) await noticeOffer(tx, 'offerAccepted', closed, at, site);
  return {
    offer: closed ?? (await offerByChainId(tx, String(d.offerId), d.buyer)),
    changed: Boolean(closed) || sold.length > 0,
  };
}

export function offerEventTypes(client: FlowClient) {
  return {
    made: offerEventType(client, 'OfferMade'),
    canceled: offerEventType(client, 'OfferCanceled'),
    accepted: offerEventType(client, 'OfferAccepted'),
  };
}

/** Applies one VitrineOffers event (`at`: when it happened on chain, as far as known). */
export function applyOfferEvent(
  tx: Executor,
  client: FlowClient,
  e: OfferEvent,
  at: Date,
  now: Date,
  site: Site,
): Promise<Applied> {
  const types = offerEventTypes(client);
  if (e.type === types.made) return applyMade(tx, e, at, site);
  if (e.type === types.canceled) return applyCanceled(tx, e, at);
  if (e.type === types.accepted) return applyAccepted(tx, e, at, now, site);
  return Promise.resolve({ changed: false });
}

/** The indexer's hooks: every VitrineOffers event read from the chain is applied as reported. */
export function offerIndexerEvents(client: FlowClient, site: Site): ExtraEvents[] {
  return Object.values(offerEventTypes(client)).map((type) => ({
    type,
    apply: async (tx: Executor, e: IndexedEvent, now: Date) =>
      (await applyOfferEvent(tx, client, e, blockTime(e) ?? now, now, site)).changed,
  }));
}
