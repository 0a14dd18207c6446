import { createMemoryHistory, createRouter } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { isPagePath, NOT_FOR_CRAWLERS, ROUTE_PATHS } from '../../server/pages';
import { routeTree } from '../../src/routeTree.gen';

/** The routes of the app's route tree (src/routes) with their ids and full paths. */
const routes = (() => {
  const router = createRouter({ routeTree, history: createMemoryHistory(), context: {} as never });
  return Object.values(router.routesById as unknown as Record<string, { id: string; fullPath: string }>)
    .filter((r) => r.id !== '__root__' && !r.id.split('/').at(-1)!.startsWith('_'))
    .map((r) => ({ id: r.id, path: r.fullPath.length > 1 ? r.fullPath.replace(/\/$/, '') : r.fullPath }));
})();

/** The server's knowledge of the SPA's pages (server/pages.ts), held to the route tree. */
describe('the pages the server knows', () => {
  it('are exactly the route tree’s paths', () => {
    expect([...new Set(routes.map((r) => r.path))].sort()).toEqual([...ROUTE_PATHS].sort());
  });

  it('answer a path of each route, and no other path', () => {
    expect(isPagePath('/nft/42/history')).toBe(true);
    expect(isPagePath('/s/some-shop')).toBe(true);
    expect(isPagePath('/auth/')).toBe(true);
    expect(isPagePath('/')).toBe(true);
    for (const path of ['/no-such-page', '/nft', '/nft/42/nope', '/s/a/b', '/sitemap.xml', '/api/health'])
      expect(isPagePath(path), path).toBe(false);
  });

  it('keep crawlers out of every page behind sign-in, and out of no public page', () => {
    const disallowed = (path: string) => NOT_FOR_CRAWLERS.some((prefix) => path.startsWith(prefix));
    for (const route of routes.filter((r) => r.id.startsWith('/_authenticated')))
      expect(disallowed(route.path), route.path).toBe(true);
    for (const path of [
      '/',
      '/marketplace',
      '/storefronts',
      '/creators',
      '/nft/x',
      '/s/x',
      '/privacy',
      '/terms',
    ])
      expect(disallowed(path), path).toBe(false);
  });
});
