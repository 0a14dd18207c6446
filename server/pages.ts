/**
 * The SPA's pages as the server knows them, without loading the app: every route path of the
 * route tree (src/routes), the paths search engines are asked to leave alone, and the pages with
 * no data behind them that the sitemap lists.
 */

/**
 * Every full path of the route tree; `$name` stands for one path segment. A unit test
 * (tests/unit/pages.test.ts) holds it to the route tree: a route added or removed fails it.
 */
export const ROUTE_PATHS = [
  '/',
  '/admin',
  '/admin/$list',
  '/auth',
  '/auth/connect',
  '/auth/forgot-password',
  '/auth/login',
  '/auth/name',
  '/auth/reset-password',
  '/auth/signup',
  '/auth/welcome',
  '/checkoutcomfailed/$reference',
  '/coinbasecanceled/$id',
  '/confirm-email',
  '/create-storefront',
  '/create-storefront/banner',
  '/create-storefront/bio',
  '/create-storefront/category',
  '/create-storefront/email',
  '/create-storefront/landing',
  '/create-storefront/logo',
  '/create-storefront/name',
  '/create-storefront/theme',
  '/creators',
  '/dashboard',
  '/dashboard/account',
  '/dashboard/help',
  '/dashboard/notifications',
  '/dashboard/preview',
  '/dashboard/products',
  '/dashboard/sales',
  '/drops',
  '/marketplace',
  '/marketplace/activity',
  '/nft/$id',
  '/nft/$id/activity',
  '/nft/$id/details',
  '/nft/$id/history',
  '/ordercomplete/$id',
  '/payouts',
  '/privacy',
  '/profile',
  '/profile/activity',
  '/profile/avatars',
  '/profile/collection',
  '/profile/favorites',
  '/profile/for-sale',
  '/profile/offers',
  '/s/$vanityUrl',
  '/s/$vanityUrl/activity',
  '/settings',
  '/settings/account',
  '/settings/payment',
  '/settings/security',
  '/settings/wallet',
  '/storefronts',
  '/terms',
  '/unsubscribe',
] as const;

const routePatterns = ROUTE_PATHS.map((path) => new RegExp(`^${path.replace(/\$[A-Za-z]+/g, '[^/]+')}$`));

/** Whether a route of the SPA answers this path (a trailing slash is the same page). */
export function isPagePath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return routePatterns.some((pattern) => pattern.test(path));
}

/**
 * What robots.txt asks crawlers to leave alone: the API, and the pages that are only a signed-in
 * user's (the back office, dashboard, payouts, profile, settings, the storefront wizard), the
 * sign-in and email-link pages, and the pages a checkout returns to. Each is a path prefix.
 */
export const NOT_FOR_CRAWLERS = [
  '/api/',
  '/admin',
  '/auth',
  '/checkoutcomfailed/',
  '/coinbasecanceled/',
  '/confirm-email',
  '/create-storefront',
  '/dashboard',
  '/ordercomplete/',
  '/payouts',
  '/profile',
  '/settings',
  '/unsubscribe',
] as const;

/**
 * The public pages whose content is fixed text, with the day that text last changed (update it
 * with the text): the sitemap's lastmod for them.
 */
export const TEXT_PAGES = [
  { path: '/creators', updated: '2026-11-26' },
  { path: '/privacy', updated: '2022-02-23' },
  { path: '/terms', updated: '2023-02-18' },
] as const;

/**
 * The public pages that show the catalog, with the kinds of sitemap rows they show: the sitemap's
 * lastmod for them is the newest change of those rows.
 */
export const CATALOG_PAGES = [
  { path: '/', shows: ['items', 'packs', 'storefronts'] },
  { path: '/marketplace', shows: ['items', 'packs'] },
  { path: '/storefronts', shows: ['storefronts'] },
] as const;
