/**
 * What the shell (header, footer, menus), which every page loads, needs of the routes: the paths
 * that hide it and the footer's external links. The route names and paths are in domain/routes.ts.
 */

/** Paths whose screens hide the header, footer, nav menu and user menu. */
export const isChromelessPath = (path: string) => /^\/(dashboard|create-storefront)(\/|$)/.test(path);

/** External links of the footer. */
export const externalLinks = {
  blog: 'https://blog.vitrine.market',
  contact: 'mailto:support@vitrine.market',
  whitepaper: 'https://vitrine.market/whitepaper.pdf',
  telegram: 'https://t.me/vitrinemarket',
  twitter: 'https://twitter.com/vitrinemarket',
};
