import { Health, OpenApiDocument, Readiness } from '#domain/responses/system';
import pkg from '../../package.json' with { type: 'json' };
import { answerOf, type CachedAnswer, sendAnswer } from '../catalog/cache';
import type { Services } from '../deps';
import { defineRoute, type Route } from '../http';
import { openApiDocument } from '../openapi';
import { readinessProbe } from '../readiness';

/** Health and the OpenAPI document of all routes (including these). */
export function systemRoutes(s: Services, routes: readonly Route[]): Route[] {
  /** The document never changes while the server runs: made, and compressed, once. */
  let document: CachedAnswer | undefined;
  const probe = readinessProbe(s.readiness, s.clock, s.log);
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      tag: 'system',
      summary: 'Liveness: 200 once the server has started (database migrated, chain up); 503 while starting',
      response: Health,
      responses: {
        200: "{ status: 'ok', database: 'pglite' | 'postgres', chain: { network, accessNode, devWallet? } | null }",
        503: 'Starting',
      },
      handler: (c) => c.json({ status: 'ok', database: s.dbKind, chain: s.chain }),
    }),
    defineRoute({
      method: 'get',
      path: '/health/ready',
      tag: 'system',
      summary:
        'Readiness: 200 when the database, the chain and every configured provider answer; 503 naming those that do not (each check kept 5 s, given 2 s)',
      response: Readiness,
      responses: {
        200: "{ status: 'ready', checks: { [name]: 'ok' } }",
        503: "{ status: 'not_ready', notReady: [name], checks: { [name]: 'ok' | 'failed' } }, or starting",
      },
      async handler(c) {
        const report = await probe();
        return report.ready
          ? c.json({ status: 'ready', checks: report.checks })
          : c.json({ status: 'not_ready', notReady: report.notReady, checks: report.checks }, 503);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      tag: 'system',
      summary: 'This API as an OpenAPI 3.1 document',
      response: OpenApiDocument,
      responses: { 200: 'The document' },
      handler(c) {
        document ??= answerOf(JSON.stringify(openApiDocument(routes, pkg.version)));
        return sendAnswer(c, document);
      },
    }),
  ];
}
