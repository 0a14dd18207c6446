import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import type { FreeClaimJson } from '#domain/responses/checkout';
import { type Executor, uniqueViolation } from '../../db';
import { freeBlueprintClaims } from '../../db/schema';
import type { Services } from '../../deps';
import { apiError, badRequest, notFound } from '../../http';
import { claimable, findCheckoutItem } from '../items';
import { orderJson } from '../order-json';
import type { OrderRow } from '../orders';
import { type Started, startPurchase } from '../workflow/start';
import { freeClaimRail } from './rail';

type ClaimRow = typeof freeBlueprintClaims.$inferSelect;

export async function claimJson(db: Executor, claim: ClaimRow, order: OrderRow): Promise<FreeClaimJson> {
  return {
    id: claim.id,
    userId: claim.userId,
    blueprintId: claim.blueprintId,
    orderId: claim.orderId,
    createdAt: claim.createdAt.toISOString(),
    order: await orderJson(db, order),
  };
}

const claimRefused = (message: string) => badRequest(ErrorCode.CLAIM_BLUEPRINT, undefined, message);

interface FreeClaim {
  user: { id: string; walletAddress: string | null };
  clientAddress: string;
  blueprintId: string;
}

/**
 * A free claim (POST free-blueprint-claims): the purchase workflow (../workflow/start.ts) up to the
 * reservation, which authorizes the order for nothing and queues its mint (the rail's charge). No
 * dedupe: each attempt is its own order, and a second claim of the blueprint is refused.
 */
export async function startFreeClaim(s: Services, p: FreeClaim): Promise<Started<FreeClaimJson>> {
  const now = s.clock();
  const answer = async (order: OrderRow) => {
    const [claim] = await s.db
      .select()
      .from(freeBlueprintClaims)
      .where(eq(freeBlueprintClaims.orderId, order.id));
    if (!claim) throw apiError(409, ErrorCode.CLAIM_BLUEPRINT);
    return claimJson(s.db, claim, order);
  };
  try {
    return await startPurchase(s.db, {
      rail: freeClaimRail,
      validate() {},
      dedupe: async () => undefined,
      async check() {
        const item = await findCheckoutItem(s.db, { kind: 'blueprint', id: p.blueprintId }, now);
        if (!item) throw notFound();
        if (!item.free) throw claimRefused('This item is not free.');
        if (!claimable(item)) throw claimRefused('This item is not on sale right now.');
        if (!p.user.walletAddress) throw badRequest(ErrorCode.WALLET_REQUIRED);
        return { item };
      },
      reservation: () => ({
        buyerId: p.user.id,
        clientAddress: p.clientAddress,
        // Never a client's key (those have no colon): each claim attempt is its own order.
        idempotencyKey: `claim:${randomUUID()}`,
        walletAddress: p.user.walletAddress!,
        now,
      }),
      repeated: answer,
      answer,
    });
  } catch (err) {
    if (uniqueViolation(err) === 'free_blueprint_claims_once')
      throw claimRefused('You have already claimed this item.');
    throw err;
  }
}
