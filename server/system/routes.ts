import pkg from '../../package.json' with { type: 'json' };
import { answerOf, type CachedAnswer, sendAnswer } from '../catalog/cache';
import type { Services } from '../deps';
import { defineRoute, type Route } from '../http';
import { openApiDocument } from '../openapi';

/** Health and the OpenAPI document of all routes (including these). */
export function systemRoutes(s: Services, routes: readonly Route[]): Route[] {
  /** The document never changes while the server runs: made, and compressed, once. */
  let document: CachedAnswer | undefined;
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      tag: 'system',
      summary: 'Readiness: 200 once the database is migrated and the chain is up (503 while starting)',
      responses: {
        200: "{ status: 'ok', database: 'pglite' | 'postgres', chain: { network, accessNode, devWallet? } | null }",
        503: 'Starting',
      },
      handler: (c) => c.json({ status: 'ok', database: s.dbKind, chain: s.chain }),
    }),
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      tag: 'system',
      summary: 'This API as an OpenAPI 3.1 document',
      responses: { 200: 'The document' },
      handler(c) {
        document ??= answerOf(JSON.stringify(openApiDocument(routes, pkg.version)));
        return sendAnswer(c, document);
      },
    }),
  ];
}
