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

/** Paths whose screens hide the header, footer, nav menu and user menu. */
export const isChromelessPath = (path: string) => /^\/(dashboard|create-storefront)(\/|$)/.test(path);

/** Where to go after login: the remembered target, unless it is the login flow itself (then Home). */
export function afterLoginTarget(loginRedirect: string | null): string {
  if (!loginRedirect || /^\/auth(\/|$|\?)/.test(loginRedirect)) return routePaths.Home;
  return loginRedirect;
}

/** External links of the footer. */
export const externalLinks = {
  blog: 'https://blog.vitrine.market',
  contact: 'mailto:support@vitrine.market',
  whitepaper: 'https://vitrine.market/whitepaper.pdf',
  telegram: 'https://t.me/vitrinemarket',
  twitter: 'https://twitter.com/vitrinemarket',
};
