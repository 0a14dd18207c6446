import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import { FreeClaimJson, FreeClaimList } from '#domain/responses/checkout';
import { CreateFreeClaimBody, FreeClaimsQuery } from '#domain/schemas/checkout';
import { type Executor, uniqueViolation } from '../../db';
import { freeBlueprintClaims, orders } from '../../db/schema';
import type { Services } from '../../deps';
import { apiError, badRequest, defineRoute, notFound, type Route } from '../../http';
import { claimable, findCheckoutItem } from '../items';
import { orderJson } from '../order-json';
import type { OrderRow } from '../orders';
import { reserveOn } from '../workflow/reserve';
import { freeClaimRail } from './rail';

type ClaimRow = typeof freeBlueprintClaims.$inferSelect;

async function claimJson(db: Executor, claim: ClaimRow, order: OrderRow): Promise<FreeClaimJson> {
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

/**
 * Free blueprints (price 0, not in a pack) are claimed, once per user: the claim is an order of
 * method freeBlueprintClaim (amount 0, nothing to pay) whose unit is reserved and whose fulfil job
 * (mint to the caller's wallet) is queued in the same transaction.
 */
export function freeClaimRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/free-blueprint-claims',
      tag: 'checkout',
      auth: 'required',
      summary: 'The caller’s free claims, newest first, optionally of one blueprint, each with its order',
      query: FreeClaimsQuery,
      response: FreeClaimList,
      responses: { 200: '{ results: FreeClaim[] }', 400: 'Invalid blueprintId', 401: 'Not logged in' },
      async handler(c, { query }) {
        const user = c.get('user')!;
        const where = [eq(freeBlueprintClaims.userId, user.id)];
        if (query.blueprintId) where.push(eq(freeBlueprintClaims.blueprintId, query.blueprintId));
        const rows = await s.db
          .select({ claim: freeBlueprintClaims, order: orders })
          .from(freeBlueprintClaims)
          .innerJoin(orders, eq(orders.id, freeBlueprintClaims.orderId))
          .where(and(...where))
          .orderBy(desc(freeBlueprintClaims.createdAt))
          .limit(100);
        const results: FreeClaimJson[] = [];
        for (const row of rows) results.push(await claimJson(s.db, row.claim, row.order));
        return c.json({ results });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/free-blueprint-claims',
      tag: 'checkout',
      auth: 'required',
      summary:
        'Claims a free blueprint: one edition is reserved and minted to the caller’s wallet; once per user and blueprint',
      body: CreateFreeClaimBody,
      response: FreeClaimJson,
      responses: {
        201: 'FreeClaim with its order',
        400: 'CLAIM_BLUEPRINT (not free, not on sale, sold out, or already claimed by the caller), WALLET_REQUIRED',
        401: 'Not logged in',
        404: 'No such blueprint',
      },
      async handler(c, { body }) {
        const user = c.get('user')!;
        const now = s.clock();
        const item = await findCheckoutItem(s.db, { kind: 'blueprint', id: body.blueprintId }, now);
        if (!item) throw notFound();
        if (!item.free) throw claimRefused('This item is not free.');
        if (!claimable(item)) throw claimRefused('This item is not on sale right now.');
        if (!user.walletAddress) throw badRequest(ErrorCode.WALLET_REQUIRED);
        let order: OrderRow;
        try {
          ({ order } = await reserveOn(s.db, freeClaimRail, {
            buyerId: user.id,
            clientAddress: s.clientAddress(c),
            // Never a client's key (those have no colon): each claim attempt is its own order.
            idempotencyKey: `claim:${randomUUID()}`,
            item,
            walletAddress: user.walletAddress,
            now,
          }));
        } catch (err) {
          if (uniqueViolation(err) === 'free_blueprint_claims_once')
            throw claimRefused('You have already claimed this item.');
          throw err;
        }
        s.jobs?.nudge();
        const [claim] = await s.db
          .select()
          .from(freeBlueprintClaims)
          .where(eq(freeBlueprintClaims.orderId, order.id));
        if (!claim) throw apiError(409, ErrorCode.CLAIM_BLUEPRINT);
        return c.json(await claimJson(s.db, claim, order), 201);
      },
    }),
  ];
}
