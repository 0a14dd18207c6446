import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { contract, type RouteKey } from '#domain/contract';
import { isNotJson } from '#domain/responses/common';
import { routesOf } from '../../server/app';
import { tokenChargeRoutes } from '../../server/checkout/token/routes';
import type { Services } from '../../server/deps';
import type { TokenPriceSource } from '../../server/evm/price';
import type { TokenChain } from '../../server/evm/token';
import type { Route } from '../../server/http';
import { checkAnswer } from './support/conformance';
import { databases, useTestApp } from './support/harness';

/**
 * Every route documents its success answer (a response schema, or that it is not JSON), and the
 * browser's contract (domain/contract.ts) names each route with that very schema: the browser's
 * types and the API tests' check of every answer come from one definition.
 */

describe.each(databases)('the API contract on %s', (database) => {
  const t = useTestApp(database);
  // The token routes exist only while the NFM_PAYMENTS flag is on; their declarations need no chain.
  const tokenRoutes = () => tokenChargeRoutes({} as Services, {} as TokenChain, {} as TokenPriceSource);
  const all = (): Route[] => [...(routesOf.get(t.app) ?? []), ...tokenRoutes()];
  const key = (route: Route) => `${route.method} ${route.path}` as RouteKey;

  it('gives every registered route a response schema, the one the contract names for it', () => {
    const routes = all();
    expect(routes.length).toBeGreaterThan(90);
    const differing = routes.filter((route) => !route.response || contract[key(route)] !== route.response);
    expect(differing.map(key)).toEqual([]);
  });

  it('names no route in the contract that the server does not serve', () => {
    const served = new Set(all().map(key));
    expect(Object.keys(contract).filter((k) => !served.has(k as RouteKey))).toEqual([]);
  });

  it('documents each JSON answer in the OpenAPI document, and the media type of a CSV one', async () => {
    const doc = (await t.request('GET', '/api/openapi.json')).body;
    const missing: string[] = [];
    for (const route of routesOf.get(t.app) ?? []) {
      const op = doc.paths[route.path][route.method];
      for (const [status, answer] of Object.entries(op.responses as Record<string, { content?: object }>)) {
        const code = Number(status);
        if (code < 200 || code >= 300 || code === 204) continue;
        const expected = isNotJson(route.response) ? route.response.mediaType : 'application/json';
        if (expected && !(answer.content && expected in answer.content))
          missing.push(`${key(route)} ${status}`);
      }
    }
    expect(missing).toEqual([]);
    // A response's schema states its output: a date-time is text in the document.
    const blueprint = doc.paths['/blueprints/{id}'].get.responses['200'].content['application/json'].schema;
    expect(blueprint.properties.createdAt).toEqual({ type: 'string', format: 'date-time' });
  });

  it('fails a test whose answer does not match its route’s response schema', () => {
    const routes = routesOf.get(t.app)!;
    const request = { method: 'GET', url: '/api/blueprints/00000000-0000-4000-8000-000000000000' };
    const json = 'application/json';
    expect(() => checkAnswer(routes, request, { status: 200, contentType: json, body: { id: 1 } })).toThrow(
      /GET \/blueprints\/\{id\} answered 200 outside its response schema/,
    );
    // Errors are not success answers; their shape is the API's error body.
    expect(() => checkAnswer(routes, request, { status: 404, contentType: json, body: {} })).not.toThrow();
    // A route without JSON answers JSON: that too is outside what it documents.
    const csv = { method: 'GET', url: '/api/sales/ledger.csv' };
    expect(() => checkAnswer(routes, csv, { status: 200, contentType: json, body: {} })).toThrow(
      /declares none/,
    );
    expect(v.is(contract['get /blueprints/{id}'], {})).toBe(false);
  });
});
