import { and, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AdminListQuery } from '#domain/schemas/admin';
import { likePattern } from '../blueprints/queries';
import type { Executor } from '../db';
import {
  adminActions,
  blueprints,
  kycVerifications,
  orders,
  outbox,
  payoutRequests,
  storefrontReports,
  storefronts,
  users,
} from '../db/schema';

/**
 * The back office's list views: newest first, one page (page ≥ 1, pageSize 25, 50 or 100) with the
 * total of rows that match. `searchText` matches case-insensitively anywhere in the columns each
 * view names; its `%`, `_` and `\` are literal.
 */

export interface Page<T> {
  results: T[];
  total: number;
  page: number;
  pageSize: number;
}

function searching(text: string | undefined, ...columns: Parameters<typeof ilike>[0][]): SQL | undefined {
  if (!text) return undefined;
  return or(...columns.map((column) => ilike(column, likePattern(text))));
}

async function paged<T>(
  query: AdminListQuery,
  rows: (limit: number, offset: number) => Promise<T[]>,
  total: () => Promise<{ n: number }[]>,
): Promise<Page<T>> {
  const [results, [counted]] = await Promise.all([
    rows(query.pageSize, (query.page - 1) * query.pageSize),
    total(),
  ]);
  return { results, total: Number(counted?.n ?? 0), page: query.page, pageSize: query.pageSize };
}

export function adminUsers(db: Executor, query: AdminListQuery) {
  const where = and(
    searching(query.searchText, users.email, users.username, users.firstName, users.lastName),
    query.status ? eq(users.status, query.status as never) : undefined,
  );
  const columns = {
    id: users.id,
    email: users.email,
    username: users.username,
    firstName: users.firstName,
    lastName: users.lastName,
    role: users.role,
    status: users.status,
    walletAddress: users.walletAddress,
    kycStatus: kycVerifications.status,
    createdAt: users.createdAt,
  };
  return paged(
    query,
    (limit, offset) =>
      db
        .select(columns)
        .from(users)
        .leftJoin(kycVerifications, eq(kycVerifications.userId, users.id))
        .where(where)
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(limit)
        .offset(offset),
    () => db.select({ n: count() }).from(users).where(where),
  );
}

export function adminKyc(db: Executor, query: AdminListQuery) {
  const where = and(
    searching(
      query.searchText,
      users.email,
      users.username,
      kycVerifications.firstName,
      kycVerifications.lastName,
    ),
    query.status ? eq(kycVerifications.status, query.status as never) : undefined,
  );
  const columns = {
    id: kycVerifications.id,
    userId: users.id,
    email: users.email,
    username: users.username,
    firstName: kycVerifications.firstName,
    lastName: kycVerifications.lastName,
    sessionId: kycVerifications.sessionId,
    status: kycVerifications.status,
    code: kycVerifications.code,
    reason: kycVerifications.reason,
    reasonCode: kycVerifications.reasonCode,
    updatedAt: kycVerifications.updatedAt,
  };
  const from = () =>
    db.select(columns).from(kycVerifications).innerJoin(users, eq(users.id, kycVerifications.userId));
  return paged(
    query,
    (limit, offset) =>
      from()
        .where(where)
        .orderBy(desc(kycVerifications.updatedAt), desc(kycVerifications.id))
        .limit(limit)
        .offset(offset),
    () =>
      db
        .select({ n: count() })
        .from(kycVerifications)
        .innerJoin(users, eq(users.id, kycVerifications.userId))
        .where(where),
  );
}

export function adminBlueprints(db: Executor, query: AdminListQuery) {
  const where = and(
    searching(query.searchText, blueprints.title, storefronts.name),
    query.status ? eq(blueprints.state, query.status as never) : undefined,
  );
  const columns = {
    id: blueprints.id,
    title: blueprints.title,
    storefront: storefronts.name,
    vanityUrl: storefronts.vanityUrl,
    state: blueprints.state,
    price: blueprints.price,
    quantity: blueprints.quantity,
    quantityAvailable: blueprints.quantityAvailable,
    createdAt: blueprints.createdAt,
  };
  return paged(
    query,
    (limit, offset) =>
      db
        .select(columns)
        .from(blueprints)
        .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
        .where(where)
        .orderBy(desc(blueprints.createdAt), desc(blueprints.id))
        .limit(limit)
        .offset(offset),
    () =>
      db
        .select({ n: count() })
        .from(blueprints)
        .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
        .where(where),
  );
}

/** Orders: every charge of the money path (`charges`), or the fulfilled ones (`sales`). */
export function adminOrders(db: Executor, query: AdminListQuery, only: 'sales' | 'charges') {
  const where = and(
    // The id is a uuid: it is searched as its text (ILIKE has no uuid form).
    searching(query.searchText, orders.title, users.email, sql`${orders.id}::text`),
    only === 'sales' ? eq(orders.status, 'minted') : undefined,
    query.status && only === 'charges' ? eq(orders.status, query.status as never) : undefined,
  );
  const columns = {
    id: orders.id,
    title: orders.title,
    buyer: users.email,
    method: orders.method,
    status: orders.status,
    amount: orders.amount,
    currency: orders.currency,
    storefront: storefronts.name,
    failureCode: orders.failureCode,
    createdAt: orders.createdAt,
  };
  return paged(
    query,
    (limit, offset) =>
      db
        .select(columns)
        .from(orders)
        .innerJoin(users, eq(users.id, orders.buyerId))
        .leftJoin(storefronts, eq(storefronts.id, orders.storefrontId))
        .where(where)
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .limit(limit)
        .offset(offset),
    () => db.select({ n: count() }).from(orders).innerJoin(users, eq(users.id, orders.buyerId)).where(where),
  );
}

export function adminReports(db: Executor, query: AdminListQuery) {
  const where = and(
    searching(query.searchText, storefronts.name, storefrontReports.description),
    query.status ? eq(storefrontReports.status, query.status as never) : undefined,
  );
  const columns = {
    id: storefrontReports.id,
    storefrontId: storefronts.id,
    storefront: storefronts.name,
    vanityUrl: storefronts.vanityUrl,
    storefrontEnabled: storefronts.enabled,
    storefrontSuspended: storefronts.suspended,
    reporter: users.email,
    reason: storefrontReports.reason,
    description: storefrontReports.description,
    status: storefrontReports.status,
    createdAt: storefrontReports.createdAt,
  };
  return paged(
    query,
    (limit, offset) =>
      db
        .select(columns)
        .from(storefrontReports)
        .innerJoin(storefronts, eq(storefronts.id, storefrontReports.storefrontId))
        .leftJoin(users, eq(users.id, storefrontReports.userId))
        .where(where)
        .orderBy(desc(storefrontReports.createdAt), desc(storefrontReports.id))
        .limit(limit)
        .offset(offset),
    () =>
      db
        .select({ n: count() })
        .from(storefrontReports)
        .innerJoin(storefronts, eq(storefronts.id, storefrontReports.storefrontId))
        .where(where),
  );
}

export function adminPayouts(db: Executor, query: AdminListQuery) {
  const where = and(
    searching(query.searchText, storefronts.name, users.email),
    query.status ? inArray(payoutRequests.state, [query.status as never]) : undefined,
  );
  const columns = {
    id: payoutRequests.id,
    storefrontId: storefronts.id,
    storefront: storefronts.name,
    owner: users.email,
    amount: payoutRequests.amount,
    state: payoutRequests.state,
    createdAt: payoutRequests.createdAt,
    updatedAt: payoutRequests.updatedAt,
  };
  return paged(
    query,
    (limit, offset) =>
      db
        .select(columns)
        .from(payoutRequests)
        .innerJoin(storefronts, eq(storefronts.id, payoutRequests.storefrontId))
        .innerJoin(users, eq(users.id, payoutRequests.userId))
        .where(where)
        .orderBy(desc(payoutRequests.createdAt), desc(payoutRequests.id))
        .limit(limit)
        .offset(offset),
    () =>
      db
        .select({ n: count() })
        .from(payoutRequests)
        .innerJoin(storefronts, eq(storefronts.id, payoutRequests.storefrontId))
        .innerJoin(users, eq(users.id, payoutRequests.userId))
        .where(where),
  );
}

/** Outgoing emails, newest first: searchText matches the recipient or the subject. */
export function adminEmails(db: Executor, query: AdminListQuery) {
  const where = and(
    searching(query.searchText, outbox.to, outbox.subject),
    query.status ? eq(outbox.status, query.status as never) : undefined,
  );
  const columns = {
    id: outbox.id,
    to: outbox.to,
    subject: outbox.subject,
    status: outbox.status,
    createdAt: outbox.createdAt,
    attemptedAt: outbox.attemptedAt,
    attempts: outbox.attempts,
    lastError: outbox.lastError,
    sentAt: outbox.sentAt,
  };
  return paged(
    query,
    (limit, offset) =>
      db
        .select(columns)
        .from(outbox)
        .where(where)
        .orderBy(desc(outbox.createdAt), desc(outbox.id))
        .limit(limit)
        .offset(offset),
    () => db.select({ n: count() }).from(outbox).where(where),
  );
}

/** The audit log: every admin action, newest first; searchText matches the action or the admin. */
export function adminActionLog(db: Executor, query: AdminListQuery) {
  const where = searching(query.searchText, adminActions.action, users.email);
  const columns = {
    id: adminActions.id,
    admin: users.email,
    action: adminActions.action,
    subjectType: adminActions.subjectType,
    subjectId: adminActions.subjectId,
    subject: sql<string>`${adminActions.subjectType} || ' ' || ${adminActions.subjectId}::text`,
    before: adminActions.before,
    after: adminActions.after,
    createdAt: adminActions.createdAt,
  };
  return paged(
    query,
    (limit, offset) =>
      db
        .select(columns)
        .from(adminActions)
        .leftJoin(users, eq(users.id, adminActions.adminId))
        .where(where)
        .orderBy(desc(adminActions.createdAt), desc(adminActions.id))
        .limit(limit)
        .offset(offset),
    () =>
      db
        .select({ n: count() })
        .from(adminActions)
        .leftJoin(users, eq(users.id, adminActions.adminId))
        .where(where),
  );
}
