/**
 * The product's route names and paths. What the shell itself uses (which paths hide it, the
 * footer's external links) is in domain/chrome.ts, re-exported here: the shell loads with every
 * page, the rest with the screens.
 */
export { externalLinks, isChromelessPath } from './chrome';

/** The product's route names and their paths (links are built from these, never from string literals). */
export const routePaths = {
  Home: '/',
  Marketplace: '/marketplace',
  MarketplacePage: '/marketplace',
  BrowseStorefronts: '/storefronts',
  AuthConnect: '/auth/connect',
  Login: '/auth/login',
  ForgotPassword: '/auth/forgot-password',
  PrivateProfile: '/profile/collection',
  UserSettingsPage: '/settings',
  AccountSettingsPage: '/settings/account',
  SecuritySettingsPage: '/settings/security',
  WalletSettingsPage: '/settings/wallet',
  PaymentSettingsPage: '/settings/payment',
  CreateStorefront: '/create-storefront',
  TermsPage: '/terms',
  PrivacyPolicyPage: '/privacy',
  Creators: '/creators',
  Drops: '/drops',
  Payouts: '/payouts',
  Dashboard: '/dashboard',
} as const;

/** Where to go after login: the remembered target, unless it is the login flow itself (then Home). */
export function afterLoginTarget(loginRedirect: string | null): string {
  if (!loginRedirect || /^\/auth(\/|$|\?)/.test(loginRedirect)) return routePaths.Home;
  return loginRedirect;
}

/**
 * Where a top-up opened in a purchase dialog returns (its payment page's redirect and cancel URL,
 * which the server completes with `topup={charge id}`): the item page /nft/{id} (a token id, or a
 * blueprint's or pack's id) with that dialog open again, on the resale listing (`listing`, its sale
 * listing id) or on the balance rail of a new edition (`buy=balance`).
 */
export function purchaseReturnPath(pageId: string, open: { listing: string } | { buy: 'balance' }): string {
  const query = 'listing' in open ? `listing=${encodeURIComponent(open.listing)}` : 'buy=balance';
  return `/nft/${encodeURIComponent(pageId)}?${query}`;
}

/** The item page with its checkout opening afresh: where signing in from its Buy now leads back to. */
export const buyNowPath = (pathname: string) => `${pathname}?buy=now`;

/** A uuid (sale listings and charges are named by one); the route tree loads with every page, valibot does not. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
/** The item page's query: the purchase dialog to open again, and the top-up the buyer came back from. */
export interface ItemPageSearch {
  /** A resale listing's id: its purchase dialog opens. */
  listing?: string;
  /**
   * `balance`: the checkout opens on the balance rail of a new edition; `now`: it opens afresh, as
   * Buy now does (the way back after signing in from Buy now).
   */
  buy?: 'balance' | 'now';
  /** The top-up charge the buyer came back from. */
  topup?: string;
}

/** The item page's query as the router reads it: what is malformed is left out. */
export function parseItemPageSearch(raw: Record<string, unknown>): ItemPageSearch {
  return {
    ...(isUuid(raw.listing) ? { listing: raw.listing } : {}),
    ...(raw.buy === 'balance' || raw.buy === 'now' ? { buy: raw.buy } : {}),
    ...(isUuid(raw.topup) ? { topup: raw.topup } : {}),
  };
}
