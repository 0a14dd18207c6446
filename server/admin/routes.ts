import { and, eq, inArray, sql } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import {
  AdminEmailAnswer,
  AdminKycAnswer,
  AdminPage,
  AdminStorefrontAnswer,
  AdminUserAnswer,
  ReportAnswer,
} from '#domain/responses/admin';
import {
  AdminEmailPatch,
  AdminIdParams,
  AdminKycPatch,
  type AdminList,
  type AdminListQuery,
  AdminStorefrontPatch,
  AdminUserPatch,
  adminLists,
  ReportPatch,
} from '#domain/schemas/admin';
import { EMAIL_JOB, kycVerifications, outbox, storefrontReports, storefronts, users } from '../db/schema';
import type { Services } from '../deps';
import { identityReopenedEmail } from '../emails/identity';
import { apiError, badRequest, defineRoute, notFound, type Route } from '../http';
import { requeueJob } from '../jobs';
import { DELIVERY_WINDOW_MS, queueEmail } from '../outbox';
import { recordAdminAction } from './audit';
import {
  adminActionLog,
  adminBlueprints,
  adminEmails,
  adminKyc,
  adminOrders,
  adminPayouts,
  adminReports,
  adminUsers,
  type Page,
} from './queries';

/** The identity verifications an admin may reopen: declined, or stuck in review. */
const KYC_REOPENABLE = ['declined', 'review'] as const;

/**
 * Reopens a declined identity verification, or one in review (409 KYC_NOT_CLOSED otherwise): back to not
 * started with its session forgotten, the person told by email and the action audited, in one transaction.
 */
function reopenKyc(s: Services, adminId: string, id: string) {
  return s.db.transaction(async (tx) => {
    const [before] = await tx
      .select({
        userId: kycVerifications.userId,
        status: kycVerifications.status,
        sessionId: kycVerifications.sessionId,
        code: kycVerifications.code,
        reason: kycVerifications.reason,
        reasonCode: kycVerifications.reasonCode,
      })
      .from(kycVerifications)
      .where(eq(kycVerifications.id, id))
      .for('update');
    if (!before) throw notFound();
    const [row] = await tx
      .update(kycVerifications)
      .set({
        status: 'unknown',
        sessionId: null,
        url: null,
        code: null,
        reason: null,
        reasonCode: null,
        decisionTime: null,
        updatedAt: s.clock(),
      })
      .where(
        and(
          eq(kycVerifications.id, id),
          inArray(kycVerifications.status, KYC_REOPENABLE as unknown as ['declined', 'review']),
        ),
      )
      .returning({ id: kycVerifications.id, status: kycVerifications.status });
    if (!row) throw apiError(409, ErrorCode.KYC_NOT_CLOSED, 'reopen');
    const { userId, ...was } = before;
    // The person is told in the same transaction.
    const [person] = await tx.select().from(users).where(eq(users.id, userId));
    if (person) await queueEmail(tx, await identityReopenedEmail(person, s.config.publicUrl), s.clock());
    await recordAdminAction(tx, {
      adminId,
      action: 'kyc.reopen',
      subjectType: 'kyc',
      subjectId: id,
      before: { userId, ...was },
      after: { userId, status: row.status },
      at: s.clock(),
    });
    return row;
  });
}

/** The back-office lists: GET admin/{list} for each list. */
function adminListRoutes(s: Services): Route[] {
  const lists: Record<AdminList, (query: AdminListQuery) => Promise<Page<unknown>>> = {
    users: (q) => adminUsers(s.db, q),
    kyc: (q) => adminKyc(s.db, q),
    blueprints: (q) => adminBlueprints(s.db, q),
    sales: (q) => adminOrders(s.db, q, 'sales'),
    charges: (q) => adminOrders(s.db, q, 'charges'),
    'storefront-reports': (q) => adminReports(s.db, q),
    'payout-requests': (q) => adminPayouts(s.db, q),
    emails: (q) => adminEmails(s.db, q),
    audit: (q) => adminActionLog(s.db, q),
  };
  return (Object.keys(lists) as AdminList[]).map((name) =>
    defineRoute({
      method: 'get',
      path: `/admin/${name}`,
      tag: 'admin',
      auth: 'admin',
      summary: `Back office: ${name}, newest first, one page with the total; searchText and status narrow it`,
      query: adminLists[name],
      response: AdminPage,
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
}

/**
 * The back office: lists of everything an operator looks after, and the actions on users,
 * storefronts, reports, identity verifications and failed emails. Every route is for admins only (401 without a
 * session, 403 for anyone else), and every action is recorded in the audit log (list `audit`) in the
 * transaction that makes it. Payout requests move through PATCH payout-requests/{id} (server/payouts/routes.ts).
 */
export function adminRoutes(s: Services): Route[] {
  return [
    ...adminListRoutes(s),
    ...accountRoutes(s),
    ...storefrontSuspensionRoutes(s),
    ...recoveryRoutes(s),
    ...reportRoutes(s),
  ];
}

/** Blocking and unblocking users. */
function accountRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'patch',
      path: '/admin/users/{id}',
      tag: 'admin',
      auth: 'admin',
      summary: 'Blocks a user (no more logins; every session ends at once) or unblocks them',
      params: AdminIdParams,
      body: AdminUserPatch,
      response: AdminUserAnswer,
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
        const row = await s.db.transaction(async (tx) => {
          const [before] = await tx
            .select({ status: users.status })
            .from(users)
            .where(eq(users.id, params.id))
            .for('update');
          if (!before) throw notFound();
          // A new token version ends every session of the account (tokens carry the version).
          const [row] = await tx
            .update(users)
            .set({
              status: body.status,
              ...(body.status === 'blocked' && { tokenVersion: sql`${users.tokenVersion} + 1` }),
            })
            .where(eq(users.id, params.id))
            .returning({ id: users.id, status: users.status });
          await recordAdminAction(tx, {
            adminId: c.get('user')!.id,
            action: body.status === 'blocked' ? 'user.block' : 'user.unblock',
            subjectType: 'user',
            subjectId: params.id,
            before,
            after: { status: row!.status },
            at: s.clock(),
          });
          return row!;
        });
        return c.json(row);
      },
    }),
  ];
}

/** Suspending a storefront and lifting the suspension. */
function storefrontSuspensionRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'patch',
      path: '/admin/storefronts/{id}',
      tag: 'admin',
      auth: 'admin',
      summary:
        'Suspends a storefront (disabled: off the marketplace, and its owner cannot enable it) or lifts the suspension',
      params: AdminIdParams,
      body: AdminStorefrontPatch,
      response: AdminStorefrontAnswer,
      responses: {
        200: '{ id, enabled, suspended }',
        400: 'INVALID_VALUE.suspended',
        401: 'Not logged in',
        403: 'Not an admin',
        404: 'No such storefront',
      },
      async handler(c, { params, body }) {
        const row = await s.db.transaction(async (tx) => {
          const [before] = await tx
            .select({ enabled: storefronts.enabled, suspended: storefronts.suspended })
            .from(storefronts)
            .where(eq(storefronts.id, params.id))
            .for('update');
          if (!before) throw notFound();
          // Lifting a suspension leaves the storefront disabled: its owner enables it again.
          const [row] = await tx
            .update(storefronts)
            .set({ suspended: body.suspended, ...(body.suspended && { enabled: false }) })
            .where(eq(storefronts.id, params.id))
            .returning({
              id: storefronts.id,
              enabled: storefronts.enabled,
              suspended: storefronts.suspended,
            });
          await recordAdminAction(tx, {
            adminId: c.get('user')!.id,
            action: body.suspended ? 'storefront.suspend' : 'storefront.unsuspend',
            subjectType: 'storefront',
            subjectId: params.id,
            before,
            after: { enabled: row!.enabled, suspended: row!.suspended },
            at: s.clock(),
          });
          return row!;
        });
        s.catalogCache.clear();
        return c.json(row);
      },
    }),
  ];
}

/** Reopening an identity verification and sending a failed email again. */
function recoveryRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'patch',
      path: '/admin/kyc/{id}',
      tag: 'admin',
      auth: 'admin',
      summary:
        'Reopens a declined identity verification, or one stuck in review, when the person disputes it through support: the record goes back to not started (the old session forgotten, so its late decisions change nothing) and the person may verify again; the person is told by email',
      params: AdminIdParams,
      body: AdminKycPatch,
      response: AdminKycAnswer,
      responses: {
        200: '{ id, status: unknown }',
        400: 'INVALID_VALUE.reopen',
        401: 'Not logged in',
        403: 'Not an admin',
        404: 'No such verification',
        409: 'KYC_NOT_CLOSED: only a declined verification or one in review can be reopened',
      },
      async handler(c, { params }) {
        const row = await reopenKyc(s, c.get('user')!.id, params.id);
        return c.json(row);
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/admin/emails/{id}',
      tag: 'admin',
      auth: 'admin',
      summary:
        'Sends a failed email again: the same message (same Message-ID) gets a new series of attempts for 24 hours (server/mail/delivery.ts)',
      params: AdminIdParams,
      body: AdminEmailPatch,
      response: AdminEmailAnswer,
      responses: {
        200: '{ id, status: queued }',
        400: 'INVALID_VALUE.resend',
        401: 'Not logged in',
        403: 'Not an admin',
        404: 'No such email',
        409: 'EMAIL_NOT_FAILED: only a failed email can be sent again',
      },
      async handler(c, { params }) {
        const row = await s.db.transaction(async (tx) => {
          const [before] = await tx
            .select({ status: outbox.status, attempts: outbox.attempts, lastError: outbox.lastError })
            .from(outbox)
            .where(eq(outbox.id, params.id))
            .for('update');
          if (!before) throw notFound();
          if (before.status !== 'failed') throw apiError(409, ErrorCode.EMAIL_NOT_FAILED, 'resend');
          const at = s.clock();
          const [row] = await tx
            .update(outbox)
            .set({
              status: 'queued',
              deliverBy: new Date(at.getTime() + DELIVERY_WINDOW_MS),
              nextAttemptAt: at,
              lastError: null,
            })
            .where(eq(outbox.id, params.id))
            .returning({ id: outbox.id, status: outbox.status });
          await requeueJob(tx, EMAIL_JOB, params.id, at);
          await recordAdminAction(tx, {
            adminId: c.get('user')!.id,
            action: 'email.resend',
            subjectType: 'email',
            subjectId: params.id,
            before,
            after: { status: row!.status, lastError: null },
            at,
          });
          return row!;
        });
        s.jobs?.nudge();
        return c.json(row);
      },
    }),
  ];
}

/** Storefront reports: the list and closing one. */
function reportRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/storefront-reports',
      tag: 'admin',
      auth: 'admin',
      summary: 'Storefront reports, newest first (the same list as admin/storefront-reports)',
      query: adminLists['storefront-reports'],
      response: AdminPage,
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
      response: ReportAnswer,
      responses: {
        200: '{ id, status }',
        400: 'INVALID_VALUE.status, or REPORT_CLOSED: already resolved or cancelled',
        401: 'Not logged in',
        403: 'Not an admin',
        404: 'No such report',
      },
      async handler(c, { params, body }) {
        const row = await s.db.transaction(async (tx) => {
          const [row] = await tx
            .update(storefrontReports)
            .set({ status: body.status })
            .where(and(eq(storefrontReports.id, params.id), eq(storefrontReports.status, 'created')))
            .returning({ id: storefrontReports.id, status: storefrontReports.status });
          if (row)
            await recordAdminAction(tx, {
              adminId: c.get('user')!.id,
              action: body.status === 'resolved' ? 'storefront-report.resolve' : 'storefront-report.dismiss',
              subjectType: 'storefront-report',
              subjectId: params.id,
              before: { status: 'created' },
              after: { status: row.status },
              at: s.clock(),
            });
          return row;
        });
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
