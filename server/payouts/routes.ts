import { ErrorCode } from '#domain/errors';
import { canMovePayout, payoutMoveBy } from '#domain/payouts';
import { PayoutRequestJson, PayoutsPage } from '#domain/responses/sales';
import { PAYOUT_MINIMUM } from '#domain/sales';
import {
  PayoutCreateInput,
  PayoutIdParams,
  PayoutListQuery,
  PayoutPatchInput,
} from '#domain/schemas/payouts';
import { recordAdminAction } from '../admin/audit';
import { uniqueViolation } from '../db';
import type { Services } from '../deps';
import { badRequest, defineRoute, forbidden, notFound, type Route } from '../http';
import { payoutRequestJson, storefrontLedger, storefrontOf } from '../sales/ledger';
import { insertPayoutRequest, movePayoutRequest, openPayoutRequest, payoutRequestWithOwner } from './queries';

/**
 * payout-requests: a creator asks to be paid (in USD) what their storefront's sales earned.
 * At least PAYOUT_MINIMUM and at most the available funds; one open (created or pending)
 * request per storefront, also under concurrent requests (the partial unique index
 * payout_requests_one_open); the owner may cancel a request in state created, and admins move it
 * on through the states of domain/payouts.ts.
 */
export function payoutRoutes(s: Services): Route[] {
  return [...payoutRequestRoutes(s), ...payoutDecisionRoutes(s)];
}

/** A seller's payout requests: the list and asking for one. */
function payoutRequestRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/payout-requests',
      tag: 'payouts',
      auth: 'required',
      summary:
        'The payout requests of the caller’s storefront, newest first, with the available funds and the minimum (cents); userId may only name the caller',
      query: PayoutListQuery,
      response: PayoutsPage,
      responses: {
        200: '{ results: [{ id, amount, state, createdAt }], total, page, pageSize, available, minimum }',
        400: 'Invalid userId, page or pageSize',
        401: 'Not logged in',
        403: 'userId is someone else',
      },
      async handler(c, { query }) {
        const user = c.get('user')!;
        if (query.userId && query.userId !== user.id) throw forbidden();
        const storefront = await storefrontOf(s.db, user.id);
        const paging = { page: query.page, pageSize: query.pageSize, minimum: PAYOUT_MINIMUM };
        if (!storefront) return c.json({ results: [], total: 0, available: 0, ...paging });
        const { requests, available } = await storefrontLedger(s.db, storefront.id);
        const start = (query.page - 1) * query.pageSize;
        const results = [...requests]
          .reverse()
          .slice(start, start + query.pageSize)
          .map(payoutRequestJson);
        return c.json({ results, total: requests.length, available, ...paging });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/payout-requests',
      tag: 'payouts',
      auth: 'required',
      summary:
        'Requests a payout of amount cents from the caller’s storefront: at least 1000, at most the available funds, one open request at a time',
      body: PayoutCreateInput,
      response: PayoutRequestJson,
      responses: {
        201: 'the request { id, amount, state: created, createdAt }',
        400: 'INVALID_VALUE or PAYOUT_MINIMUM (amount), NO_STOREFRONT, PAYOUT_PENDING (an open request exists), INSUFFICIENT_FUNDS (amount above the available funds)',
        401: 'Not logged in',
      },
      async handler(c, { body }) {
        const user = c.get('user')!;
        const storefront = await storefrontOf(s.db, user.id);
        if (!storefront) throw badRequest('NO_STOREFRONT');
        const row = await s.db
          .transaction(async (tx) => {
            if (await openPayoutRequest(tx, storefront.id)) throw badRequest(ErrorCode.PAYOUT_PENDING);
            const { available } = await storefrontLedger(tx, storefront.id);
            if (body.amount > available) throw badRequest(ErrorCode.INSUFFICIENT_FUNDS, 'amount');
            return insertPayoutRequest(tx, {
              storefrontId: storefront.id,
              userId: user.id,
              amount: body.amount,
              at: s.clock(),
            });
          })
          .catch((err: unknown) => {
            // A concurrent request won the race to the one open request.
            if (uniqueViolation(err) === 'payout_requests_one_open')
              throw badRequest(ErrorCode.PAYOUT_PENDING);
            throw err;
          });
        return c.json(payoutRequestJson(row), 201);
      },
    }),
  ];
}

/** An admin deciding a payout request. */
function payoutDecisionRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'patch',
      path: '/payout-requests/{id}',
      tag: 'payouts',
      auth: 'required',
      summary:
        'Moves a payout request: its owner cancels one still created; an admin approves or denies it, then marks it pending, payed or failed',
      params: PayoutIdParams,
      body: PayoutPatchInput,
      response: PayoutRequestJson,
      responses: {
        200: 'the request in its new state',
        400: 'INVALID_VALUE.state, PAYOUT_NOT_CANCELLABLE (not in state created), PAYOUT_STATE (no such move from its state)',
        401: 'Not logged in',
        403: 'Cancelling a request that is not the caller’s, or any other move by someone who is not an admin',
        404: 'No such request',
      },
      async handler(c, { params, body }) {
        const user = c.get('user')!;
        const found = await payoutRequestWithOwner(s.db, params.id);
        if (!found) throw notFound();
        const by = payoutMoveBy(body.state);
        if (by === 'owner' ? found.ownerId !== user.id : user.role !== 'admin') throw forbidden();
        const from = found.request.state;
        const refused = () =>
          body.state === 'cancelled'
            ? badRequest(ErrorCode.PAYOUT_NOT_CANCELLABLE)
            : badRequest(ErrorCode.PAYOUT_STATE, 'state');
        if (!canMovePayout(from, body.state)) throw refused();
        // Only from the state just read: a move made meanwhile by someone else wins, this one fails.
        const updated = await s.db
          .transaction(async (tx) => {
            const moved = await movePayoutRequest(tx, params.id, from, body.state, s.clock());
            // An admin's move goes in the back office's audit log with the move itself.
            if (moved && by === 'admin')
              await recordAdminAction(tx, {
                adminId: user.id,
                action: `payout-request.${body.state}`,
                subjectType: 'payout-request',
                subjectId: params.id,
                before: { state: from },
                after: { state: moved.state },
                at: s.clock(),
              });
            return moved;
          })
          .catch((err: unknown) => {
            // failed → pending reopens it: still one open request per storefront.
            if (uniqueViolation(err) === 'payout_requests_one_open')
              throw badRequest(ErrorCode.PAYOUT_PENDING);
            throw err;
          });
        if (!updated) throw refused();
        return c.json(payoutRequestJson(updated));
      },
    }),
  ];
}
