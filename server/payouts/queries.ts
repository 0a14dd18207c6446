import { and, eq, inArray } from 'drizzle-orm';
import type { PayoutState } from '#domain/enums';
import { payoutOpenStates } from '#domain/enums';
import type { Executor, Transaction } from '../db';
import { payoutRequests, storefronts } from '../db/schema';
import type { PayoutRequestRow } from '../sales/ledger';

/**
 * The SQL of the payout-request routes: the storefront's open request, a new request, one request
 * with its storefront's owner, and a move from one state to the next.
 */

/** The storefront's open (created or pending) request, if any; read inside the creating transaction. */
export async function openPayoutRequest(
  tx: Transaction,
  storefrontId: string,
): Promise<{ id: string } | undefined> {
  const [open] = await tx
    .select({ id: payoutRequests.id })
    .from(payoutRequests)
    .where(
      and(eq(payoutRequests.storefrontId, storefrontId), inArray(payoutRequests.state, payoutOpenStates)),
    );
  return open;
}

/** Inserts a request in state created, inside the creating transaction. */
export async function insertPayoutRequest(
  tx: Transaction,
  values: { storefrontId: string; userId: string; amount: number; at: Date },
): Promise<PayoutRequestRow> {
  const [inserted] = await tx
    .insert(payoutRequests)
    .values({
      storefrontId: values.storefrontId,
      userId: values.userId,
      amount: values.amount,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning();
  return inserted!;
}

/** A request and the owner of its storefront. */
export async function payoutRequestWithOwner(
  db: Executor,
  id: string,
): Promise<{ request: PayoutRequestRow; ownerId: string } | undefined> {
  const [found] = await db
    .select({ request: payoutRequests, ownerId: storefronts.ownerId })
    .from(payoutRequests)
    .innerJoin(storefronts, eq(storefronts.id, payoutRequests.storefrontId))
    .where(eq(payoutRequests.id, id));
  return found;
}

/**
 * Moves a request to `to`, only from the state `from` just read: undefined when a move made
 * meanwhile changed it. Rejects with the unique violation payout_requests_one_open when the move
 * would open a second request of the storefront.
 */
export async function movePayoutRequest(
  db: Executor,
  id: string,
  from: PayoutState,
  to: PayoutState,
  at: Date,
): Promise<PayoutRequestRow | undefined> {
  const [updated] = await db
    .update(payoutRequests)
    .set({ state: to, updatedAt: at })
    .where(and(eq(payoutRequests.id, id), eq(payoutRequests.state, from)))
    .returning();
  return updated;
}
