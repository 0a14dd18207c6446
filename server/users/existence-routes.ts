import { UserExistence } from '#domain/responses/users';
import { UserExistenceQuery } from '#domain/schemas/accounts';
import type { Services } from '../deps';
import { defineRoute, type Route } from '../http';
import { findUserByEmail, walletExists } from './queries';

/** Queries that answer yes or no without naming anyone (is an email or username taken?). */
export function queryRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/queries/user-existence',
      tag: 'queries',
      summary: 'Whether an account has this email or wallet address (either one matching counts)',
      query: UserExistenceQuery,
      response: UserExistence,
      responses: { 200: '{ exists }', 400: 'Neither email nor walletAddress, or an invalid one' },
      async handler(c, { query }) {
        const exists =
          (query.email !== undefined && (await findUserByEmail(s.db, query.email)) !== undefined) ||
          (query.walletAddress !== undefined && (await walletExists(s.db, query.walletAddress)));
        return c.json({ exists });
      },
    }),
  ];
}
