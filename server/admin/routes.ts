import { and, eq, sql } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import {
  AdminIdParams,
  type AdminList,
  type AdminListQuery,
  AdminStorefrontPatch,
  AdminUserPatch,
  adminLists,
  ReportPatch,
} from '#domain/schemas/admin';
import { storefrontReports, storefronts, users } from '../db/schema';
import type { Services } from '../deps';
import { apiError, badRequest, defineRoute, notFound, type Route } from '../http';
import {
  adminBlueprints,
  adminKyc,
  adminOrders,
  adminPayouts,
  adminReports,
  adminUsers,
  type Page,
} from './queries';

/**
 * The back office: lists of everything an operator looks after, and the actions on users,
 * storefronts and reports. Every route is for admins only (401 without a session, 403 for anyone
 * else). Payout requests move through PATCH payout-requests/{id} (server/payouts/routes.ts).
 */
export function adminRoutes(s: Services): Route[] {
  const lists: Record<AdminList, (query: AdminListQuery) => Promise<Page<unknown>>> = {
    users: (q) => adminUsers(s.db, q),
    kyc: (q) => adminKyc(s.db, q),
    blueprints: (q) => adminBlueprints(s.db, q),
    sales: (q) => adminOrders(s.db, q, 'sales'),
    charges: (q) => adminOrders(s.db, q, 'charges'),
    'storefront-reports': (q) => adminReports(s.db, q),
    'payout-requests': (q) => adminPayouts(s.db, q),
  };
  const listRoutes = (Object.keys(lists) as AdminList[]).map((name) =>
    defineRoute({
      method: 'get',
      path: `/admin/${name}`,
      tag: 'admin',
      auth: 'admin',
      summary: `Back office: ${name}, newest first, one page with the total; searchText and status narrow it`,
      query: adminLists[name],
      responses: {
        200: '{ results, total, page, pageSize }',
        400: 'INVALID_VALUE.page, .pageSize, .searchText or .status',
        401: 'Not logged in',
        403: 'Not an admin',
      },
      async handler(c, { query }) {
        return c.json(await lists[name](query as AdminListQuery));
      },
    }),
  );
  return [
    ...listRoutes,
    defineRoute({
      method: 'patch',
      path: '/admin/users/{id}',
      tag: 'admin',
      auth: 'admin',
      summary: 'Blocks a user (no more logins; every session ends at once) or unblocks them',
      params: AdminIdParams,
      body: AdminUserPatch,
      responses: {
        200: '{ id, status }',
        400: 'INVALID_VALUE.status, or FORBIDDEN: an admin cannot block themself',
        401: 'Not logged in',
        403: 'Not an admin',
        404: 'No such user',
      },
      async handler(c, { params, body }) {
        if (params.id === c.get('user')!.id && body.status === 'blocked')
          throw apiError(403, ErrorCode.FORBIDDEN, 'status', 'You cannot block your own account.');
        // A new token version ends every session of the account (tokens carry the version).
        const [row] = await s.db
          .update(users)
          .set({
            status: body.status,
            ...(body.status === 'blocked' && { tokenVersion: sql`${users.tokenVersion} + 1` }),
          })
          .where(eq(users.id, params.id))
          .returning({ id: users.id, status: users.status });
        if (!row) throw notFound();
        return c.json(row);
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/admin/storefronts/{id}',
      tag: 'admin',
      auth: 'admin',
      summary:
        'Suspends a storefront (disabled: off the marketplace, and its owner cannot enable it) or lifts the suspension',
      params: AdminIdParams,
      body: AdminStorefrontPatch,
      responses: {
        200: '{ id, enabled, suspended }',
        400: 'INVALID_VALUE.suspended',
        401: 'Not logged in',
        403: 'Not an admin',
        404: 'No such storefront',
      },
      async handler(c, { params, body }) {
        // Lifting a suspension leaves the storefront disabled: its owner enables it again.
        const [row] = await s.db
          .update(storefronts)
          .set({ suspended: body.suspended, ...(body.suspended && { enabled: false }) })
          .where(eq(storefronts.id, params.id))
          .returning({ id: storefronts.id, enabled: storefronts.enabled, suspended: storefronts.suspended });
        if (!row) throw notFound();
        s.catalogCache.clear();
        return c.json(row);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/storefront-reports',
      tag: 'admin',
      auth: 'admin',
      summary: 'Storefront reports, newest first (the same list as admin/storefront-reports)',
      query: adminLists['storefront-reports'],
      responses: {
        200: '{ results, total, page, pageSize }',
        400: 'INVALID_VALUE.page, .pageSize, .searchText or .status',
        401: 'Not logged in',
        403: 'Not an admin',
      },
      async handler(c, { query }) {
        return c.json(await adminReports(s.db, query as AdminListQuery));
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/storefront-reports/{id}',
      tag: 'admin',
      auth: 'admin',
      summary: 'Resolves a report (acted on) or cancels it (nothing to do); only a report still open',
      params: AdminIdParams,
      body: ReportPatch,
      responses: {
        200: '{ id, status }',
        400: 'INVALID_VALUE.status, or REPORT_CLOSED: already resolved or cancelled',
        401: 'Not logged in',
        403: 'Not an admin',
        404: 'No such report',
      },
      async handler(c, { params, body }) {
        const [row] = await s.db
          .update(storefrontReports)
          .set({ status: body.status })
          .where(and(eq(storefrontReports.id, params.id), eq(storefrontReports.status, 'created')))
          .returning({ id: storefrontReports.id, status: storefrontReports.status });
        if (row) return c.json(row);
        const [exists] = await s.db
          .select({ id: storefrontReports.id })
          .from(storefrontReports)
          .where(eq(storefrontReports.id, params.id));
        if (!exists) throw notFound();
        throw badRequest(ErrorCode.REPORT_CLOSED, 'status');
      },
    }),
  ];
}
