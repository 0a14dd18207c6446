import pkg from '../../package.json' with { type: 'json' };
import type { Services } from '../deps';
import { defineRoute, type Route } from '../http';
import { openApiDocument } from '../openapi';

/** Health and the OpenAPI document of all routes (including these). */
export function systemRoutes(s: Services, routes: readonly Route[]): Route[] {
  let document: ReturnType<typeof openApiDocument> | undefined;
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
        document ??= openApiDocument(routes, pkg.version);
        return c.json(document);
      },
    }),
  ];
}
