import * as v from 'valibot';
import { isNotJson } from '#domain/responses/common';
import type { Route } from '../../../server/http';

/**
 * Every success answer (2xx) with a JSON body that an API test receives must match its route's
 * response schema (server/http.ts defineRoute's `response`, the schema the document and the browser's
 * client use): an answer that does not fails the test that asked for it.
 */

const matchers = new WeakMap<readonly Route[], { route: Route; pattern: RegExp; params: number }[]>();

/** The route that serves a method and path below /api; a path without parameters wins (/users/me). */
export function routeOf(routes: readonly Route[], method: string, path: string): Route | undefined {
  let list = matchers.get(routes);
  if (!list) {
    list = routes
      .map((route) => ({
        route,
        pattern: new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
        params: (route.path.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.params - b.params);
    matchers.set(routes, list);
  }
  const m = method.toLowerCase();
  return list.find((x) => x.route.method === m && x.pattern.test(path))?.route;
}

/** Throws when a success answer's JSON body does not match its route's response schema. */
export function checkAnswer(
  routes: readonly Route[],
  request: { method: string; url: string },
  answer: { status: number; contentType: string | null; body: unknown },
): void {
  if (answer.status < 200 || answer.status >= 300 || request.method.toUpperCase() === 'HEAD') return;
  const { pathname } = new URL(request.url, 'http://vitrine.test');
  if (!pathname.startsWith('/api/')) return;
  const route = routeOf(routes, request.method, pathname.slice('/api'.length));
  if (!route) return;
  const name = `${route.method.toUpperCase()} ${route.path}`;
  const json = answer.contentType?.startsWith('application/json') ?? false;
  if (!route.response) throw new Error(`${name} declares no response schema`);
  if (isNotJson(route.response)) {
    if (json) throw new Error(`${name} answered ${answer.status} with JSON but declares none`);
    return;
  }
  if (answer.status === 204) return;
  if (!json) throw new Error(`${name} answered ${answer.status} without the JSON its schema describes`);
  const result = v.safeParse(route.response, answer.body);
  if (!result.success) {
    const issues = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(answer)'}: ${issue.message}`);
    throw new Error(
      `${name} answered ${answer.status} outside its response schema:\n  ${issues.join('\n  ')}\n${JSON.stringify(answer.body).slice(0, 2000)}`,
    );
  }
}
