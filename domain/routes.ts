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
export type RouteName = keyof typeof routePaths;

/** Where to go after login: the remembered target, unless it is the login flow itself (then Home). */
export function afterLoginTarget(loginRedirect: string | null): string {
  if (!loginRedirect || /^\/auth(\/|$|\?)/.test(loginRedirect)) return routePaths.Home;
  return loginRedirect;
}
