import * as sdk from '@onflow/sdk';
import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { FlowClient } from '../chain/client';
import type { Database } from '../db';
import { offers } from '../db/schema';
import { getOffer } from './chain';
import { noticeOffer } from './notices';
import type { OfferRow } from './queries';
import type { Site } from './record';

/**
 * The offers' sweeps (run by the job worker, server/start.ts):
 * - expiry, every OFFER_EXPIRY_SWEEP_MS (1 minute): a standing offer (open or unfunded) whose expiry
 *   passed becomes `expired`, and its buyer is notified, in one transaction;
 * - funding, every OFFER_FUNDING_SWEEP_MS (5 minutes): up to OFFER_FUNDING_BATCH standing offers,
 *   those checked longest ago first, are read on chain (scripts/get_offer.cdc): `open` while the
 *   buyer's FUSD balance covers the amount, else `unfunded` ("no longer funded"). An offer gone from
 *   the buyer's book was accepted or canceled; the indexer records which, so it is left as it is.
 *   A failed accept reported to the record route checks its offer at once (refreshAfterFailedAccept).
 */
export const OFFER_EXPIRY_SWEEP_MS = 60_000;
export const OFFER_FUNDING_SWEEP_MS = 5 * 60_000;
export const OFFER_FUNDING_BATCH = 100;

const standing = inArray(offers.status, ['open', 'unfunded']);

/** Expires the standing offers whose expiry passed by `now`; answers how many. */
export function expireOffers(db: Database, now: Date, site: Site): Promise<number> {
  return db.transaction(async (tx) => {
    const expired = await tx
      .update(offers)
      .set({ status: 'expired', closedAt: now })
      .where(and(standing, lte(offers.expiresAt, now)))
      .returning();
    for (const offer of expired) await noticeOffer(tx, 'offerExpired', offer, now, site);
    return expired.length;
  });
}

/** Compares one standing offer with the buyer's balance on chain; answers whether its status changed. */
export async function refreshOfferFunding(
  db: Database,
  client: FlowClient,
  offer: OfferRow,
  now: Date,
): Promise<boolean> {
  const onChain = await getOffer(client, offer.buyerAddress, offer.chainOfferId);
  const status = onChain === null ? offer.status : onChain.funded ? 'open' : 'unfunded';
  const [row] = await db
    .update(offers)
    .set({ status, fundingCheckedAt: now })
    .where(and(eq(offers.id, offer.id), standing))
    .returning({ status: offers.status });
  return Boolean(row) && status !== offer.status;
}

/**
 * After a failed accept (a transaction of accept_offer.cdc the chain reverted, reported by the
 * owner's client): the offer it named is compared with the buyer's balance at once, so that one no
 * longer funded shows so without waiting for the sweep. Anything else is left alone.
 */
export async function refreshAfterFailedAccept(
  db: Database,
  client: FlowClient,
  transactionId: string,
  now: Date,
): Promise<void> {
  const tx = (await client.sdk.send([sdk.getTransaction(transactionId)]).then(client.sdk.decode)) as {
    script: string;
    args: unknown[];
  };
  const [buyer, offerId] = tx.args.map((a) => String((a as { value?: unknown })?.value ?? a));
  if (tx.script !== client.code('transactions/accept_offer.cdc') || !buyer || !offerId) return;
  const [offer] = await db
    .select()
    .from(offers)
    .where(and(eq(offers.chainOfferId, offerId), eq(offers.buyerAddress, buyer), standing));
  if (offer) await refreshOfferFunding(db, client, offer, now);
}

/** The funding sweep; answers how many offers changed status. A chain that does not answer is tried next time. */
export async function refreshFunding(
  db: Database,
  client: FlowClient,
  now: Date,
  limit = OFFER_FUNDING_BATCH,
): Promise<number> {
  const due = await db
    .select()
    .from(offers)
    .where(and(standing, gt(offers.expiresAt, now)))
    .orderBy(sql`${offers.fundingCheckedAt} asc nulls first`, asc(offers.createdAt))
    .limit(limit);
  let changed = 0;
  for (const offer of due) {
    try {
      if (await refreshOfferFunding(db, client, offer, now)) changed++;
    } catch {
      // the access node did not answer: next sweep
    }
  }
  return changed;
}
