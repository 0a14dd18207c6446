import { and, desc, eq } from 'drizzle-orm';
import { FreeClaimJson, FreeClaimList } from '#domain/responses/checkout';
import { CreateFreeClaimBody, FreeClaimsQuery } from '#domain/schemas/checkout';
import { freeBlueprintClaims, orders } from '../../db/schema';
import type { Services } from '../../deps';
import { defineRoute, type Route } from '../../http';
import { claimJson, startFreeClaim } from './purchase';

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
        const { answer } = await startFreeClaim(s, {
          user: c.get('user')!,
          clientAddress: s.clientAddress(c),
          blueprintId: body.blueprintId,
        });
        s.jobs?.nudge();
        return c.json(answer, 201);
      },
    }),
  ];
}
