import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  type ParsedLocation,
  redirect,
} from '@tanstack/react-router';
import * as v from 'valibot';
import type { AppActors } from './views/AppContext';
import { AuthLayout } from './views/auth/AuthLayout';
import { ComingSoonPage } from './views/pages/ComingSoonPage';
import { HomePage } from './views/pages/HomePage';
import { NotFoundPage } from './views/pages/NotFoundPage';
import { PageFrame } from './views/pages/PageFrame';
import { ProfilePage } from './views/profile/ProfilePage';
import { AccountSettings } from './views/settings/AccountSettings';
import { SecuritySettings } from './views/settings/SecuritySettings';
import { SettingsLayout } from './views/settings/SettingsLayout';
import { WalletSettings } from './views/settings/WalletSettings';
import { RootLayout } from './views/shell/RootLayout';

/** The route table of SPEC §2. Login-required routes remember the destination for after login. */
export interface RouterContext {
  app: AppActors;
}

function requireLogin({ context, location }: { context: RouterContext; location: ParsedLocation }) {
  const session = context.app.session;
  if (!session.getSnapshot().matches('loggedIn')) {
    session.send({ type: 'session.redirect.save', path: location.href });
    throw redirect({ to: '/auth/connect' });
  }
}
const to = (path: string) => () => {
  throw redirect({ to: path, replace: true });
};

const root = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});
const page = <P extends string>(path: P, component: () => React.ReactNode) =>
  createRoute({ getParentRoute: () => root, path, component });

// Public pages
const home = page('/', HomePage);
const marketplace = page('/marketplace', () => <PageFrame title="Marketplace" />);
const storefronts = page('/storefronts', () => <PageFrame title="Storefronts" />);
const storefront = page('/s/$vanityUrl', () => <PageFrame title="Storefront" />);
const drops = page('/drops', () => <ComingSoonPage title="Drops" />);
const creators = page('/creators', () => <PageFrame title="Creators" />);
const privacy = page('/privacy', () => <PageFrame title="Privacy Policy" />);
const terms = page('/terms', () => <PageFrame title="Terms of Service" />);
const orderComplete = page('/ordercomplete/$id', () => <PageFrame title="Purchase" />);
const cryptoCanceled = page('/coinbasecanceled/$id', () => <PageFrame title="Purchase canceled" />);
const cardFailed = page('/checkoutcomfailed/$reference', () => <PageFrame title="Purchase failed" />);

const nft = page('/nft/$id', () => <PageFrame title="Item" />);
const nftIndex = createRoute({
  getParentRoute: () => nft,
  path: '/',
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/nft/$id/details', params, replace: true });
  },
});
const nftDetails = createRoute({ getParentRoute: () => nft, path: 'details' });
const nftHistory = createRoute({ getParentRoute: () => nft, path: 'history' });

// Auth
const auth = page('/auth', AuthLayout);
const authChild = <P extends string>(path: P) => createRoute({ getParentRoute: () => auth, path });
const authIndex = createRoute({ getParentRoute: () => auth, path: '/', beforeLoad: to('/auth/connect') });
const authRoutes = [
  authIndex,
  authChild('connect'),
  authChild('signup'),
  authChild('welcome'),
  authChild('name'),
  authChild('login'),
  createRoute({
    getParentRoute: () => auth,
    path: 'forgot-password',
    validateSearch: v.object({ email: v.optional(v.string()) }),
  }),
  createRoute({
    getParentRoute: () => auth,
    path: 'reset-password',
    validateSearch: v.object({ t: v.optional(v.string()) }),
  }),
];

// Logged-in areas
const loginPage = <P extends string>(path: P, component: () => React.ReactNode) =>
  createRoute({ getParentRoute: () => root, path, beforeLoad: requireLogin, component });
const profile = loginPage('/profile', ProfilePage);
const profileIndex = createRoute({
  getParentRoute: () => profile,
  path: '/',
  beforeLoad: to('/profile/collection'),
});
const profileCollection = createRoute({ getParentRoute: () => profile, path: 'collection' });
const profileForSale = createRoute({ getParentRoute: () => profile, path: 'for-sale' });
const avatars = loginPage('/profile/avatars', () => <ComingSoonPage title="Avatars" />);

const settings = loginPage('/settings', SettingsLayout);
const settingsIndex = createRoute({
  getParentRoute: () => settings,
  path: '/',
  beforeLoad: to('/settings/account'),
});
const settingsChild = <P extends string>(path: P, component: () => React.ReactNode) =>
  createRoute({ getParentRoute: () => settings, path, component });
const settingsRoutes = [
  settingsIndex,
  settingsChild('account', AccountSettings),
  settingsChild('security', SecuritySettings),
  settingsChild('wallet', WalletSettings),
  settingsChild('payment', () => <PageFrame title="Payment" level={2} />),
];

const dashboard = loginPage('/dashboard', () => <PageFrame title="Dashboard" />);
const dashboardIndex = createRoute({
  getParentRoute: () => dashboard,
  path: '/',
  beforeLoad: to('/dashboard/preview'),
});
const dashboardRoutes = [
  dashboardIndex,
  ...(['preview', 'account', 'products', 'sales', 'help'] as const).map((path) =>
    createRoute({ getParentRoute: () => dashboard, path }),
  ),
];

const createStorefront = loginPage('/create-storefront', () => <PageFrame title="Create your storefront" />);
const createStorefrontIndex = createRoute({
  getParentRoute: () => createStorefront,
  path: '/',
  beforeLoad: to('/create-storefront/landing'),
});
const createStorefrontRoutes = [
  createStorefrontIndex,
  ...(['landing', 'name', 'bio', 'category', 'logo', 'banner', 'theme', 'email'] as const).map((path) =>
    createRoute({ getParentRoute: () => createStorefront, path }),
  ),
];
const payouts = loginPage('/payouts', () => <PageFrame title="Payouts" />);

export const routeTree = root.addChildren([
  home,
  marketplace,
  storefronts,
  storefront,
  drops,
  creators,
  privacy,
  terms,
  orderComplete,
  cryptoCanceled,
  cardFailed,
  nft.addChildren([nftIndex, nftDetails, nftHistory]),
  auth.addChildren(authRoutes),
  profile.addChildren([profileIndex, profileCollection, profileForSale]),
  avatars,
  settings.addChildren(settingsRoutes),
  dashboard.addChildren(dashboardRoutes),
  createStorefront.addChildren(createStorefrontRoutes),
  payouts,
]);

export function createAppRouter(app: AppActors) {
  return createRouter({ routeTree, context: { app }, defaultPreload: false, scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
