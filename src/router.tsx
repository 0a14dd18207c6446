import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  notFound,
  type ParsedLocation,
  type RouteComponent,
  redirect,
} from '@tanstack/react-router';
import { waitFor } from 'xstate';
import { adminListOrder } from '#domain/admin';
import { ApiError } from '#domain/errors';
import { marketFilter, parseCategories, parseMarketSearch } from '#domain/marketSearch';
import { PUBLIC_STATES, parseProductsSearch, productFilter } from '#domain/products';
import { parseOrderCompleteSearch } from '#domain/purchase';
import { parseSalesSearch } from '#domain/sales';
import type { AdminList } from '#domain/schemas/admin';
import { parseStorefrontsSearch } from '#domain/storefrontsSearch';
import { profileSettled } from '../machines/session';
import type { AppActors } from './views/AppContext';
import { ComingSoonPage } from './views/pages/ComingSoonPage';
import { LoadErrorPage } from './views/pages/LoadErrorPage';
import { NotFoundPage } from './views/pages/NotFoundPage';
import { PagePending } from './views/pages/PagePending';
import { RootLayout } from './views/shell/RootLayout';

// Screens load on demand (Home too: other pages need not carry its content and carousel).
const HomePage = lazyRouteComponent(() => import('./views/pages/HomePage'), 'HomePage');
const AuthLayout = lazyRouteComponent(() => import('./views/auth/AuthLayout'), 'AuthLayout');
const ProfilePage = lazyRouteComponent(() => import('./views/profile/ProfilePage'), 'ProfilePage');
const SettingsLayout = lazyRouteComponent(() => import('./views/settings/SettingsLayout'), 'SettingsLayout');
const AccountSettings = lazyRouteComponent(
  () => import('./views/settings/AccountSettings'),
  'AccountSettings',
);
const SecuritySettings = lazyRouteComponent(
  () => import('./views/settings/SecuritySettings'),
  'SecuritySettings',
);
const WalletSettings = lazyRouteComponent(() => import('./views/settings/WalletSettings'), 'WalletSettings');
const PaymentSettings = lazyRouteComponent(
  () => import('./views/settings/PaymentSettings'),
  'PaymentSettings',
);
const PrivacyPage = lazyRouteComponent(() => import('./views/pages/PrivacyPage'), 'PrivacyPage');
const TermsPage = lazyRouteComponent(() => import('./views/pages/TermsPage'), 'TermsPage');
const CreatorsPage = lazyRouteComponent(() => import('./views/pages/CreatorsPage'), 'CreatorsPage');
const ConfirmEmailPage = lazyRouteComponent(
  () => import('./views/account/ConfirmEmailPage'),
  'ConfirmEmailPage',
);
const CreateStorefrontPage = lazyRouteComponent(
  () => import('./views/storefront/CreateStorefrontPage'),
  'CreateStorefrontPage',
);
const DashboardLayout = lazyRouteComponent(
  () => import('./views/dashboard/DashboardLayout'),
  'DashboardLayout',
);
const PreviewPanel = lazyRouteComponent(() => import('./views/dashboard/PreviewPanel'), 'PreviewPanel');
const AccountPanel = lazyRouteComponent(() => import('./views/dashboard/AccountPanel'), 'AccountPanel');
const ProductsPanel = lazyRouteComponent(() => import('./views/dashboard/ProductsPanel'), 'ProductsPanel');
const SalesPanel = lazyRouteComponent(() => import('./views/dashboard/SalesPanel'), 'SalesPanel');
const HelpPanel = lazyRouteComponent(() => import('./views/dashboard/HelpPanel'), 'HelpPanel');
const NotificationsPanel = lazyRouteComponent(
  () => import('./views/dashboard/NotificationsPanel'),
  'NotificationsPanel',
);
const PayoutsPage = lazyRouteComponent(() => import('./views/payouts/PayoutsPage'), 'PayoutsPage');
const AdminPage = lazyRouteComponent(() => import('./views/admin/AdminPage'), 'AdminPage');
const NftRoute = lazyRouteComponent(() => import('./views/nft/NftRoute'), 'NftRoute');
const MarketplacePage = lazyRouteComponent(
  () => import('./views/catalog/MarketplacePage'),
  'MarketplacePage',
);
const BrowseStorefrontsPage = lazyRouteComponent(
  () => import('./views/catalog/BrowseStorefrontsPage'),
  'BrowseStorefrontsPage',
);
const StorefrontPage = lazyRouteComponent(() => import('./views/catalog/StorefrontPage'), 'StorefrontPage');
const PurchaseCompletePage = lazyRouteComponent(
  () => import('./views/purchase/PurchaseCompletePage'),
  'PurchaseCompletePage',
);
const CheckoutFailedPage = lazyRouteComponent(
  () => import('./views/purchase/CheckoutFailedPage'),
  'CheckoutFailedPage',
);
const CryptoCanceledPage = lazyRouteComponent(
  () => import('./views/purchase/CryptoCanceledPage'),
  'CryptoCanceledPage',
);

/** How long a page waits for the signed-in user's profile before it shows without it. */
const SESSION_WAIT_MS = 5000;

/**
 * The signed-in user's profile once it is settled (here, failed, or the visitor is logged out),
 * waiting at most SESSION_WAIT_MS: null when there is none by then. No loader waits longer.
 */
async function signedInUser(session: RouterContext['app']['session']) {
  const s = await waitFor(session, profileSettled, { timeout: SESSION_WAIT_MS }).catch(() =>
    session.getSnapshot(),
  );
  return s.context.user;
}

/** Query strings: one optional string parameter. */
const optionalString =
  <K extends string>(key: K) =>
  (search: Record<string, unknown>) =>
    (typeof search[key] === 'string' ? { [key]: search[key] } : {}) as { [P in K]?: string };

/** The route table of SPEC §2. Login-required routes remember the destination for after login. */
export interface RouterContext {
  app: AppActors;
}

/** A 404 (or a malformed id) of the API is the Not Found page. */
function orNotFound(error: unknown): never {
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) throw notFound();
  throw error;
}
function orNull(error: unknown): null {
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
  throw error;
}

/** The NFT action flows (list, remove, buy, transfer), loaded with the screens that offer them. */
async function nftMachines(app: AppActors) {
  const [listForSale, removeListing, buyListing, transferNfts] = await Promise.all([
    app.flows.listForSale(),
    app.flows.removeListing(),
    app.flows.buyListing(),
    app.flows.transferNfts(),
  ]);
  return { listForSale, removeListing, buyListing, transferNfts };
}

function requireLogin({ context, location }: { context: RouterContext; location: ParsedLocation }) {
  const session = context.app.session;
  if (!session.getSnapshot().matches('loggedIn')) {
    session.send({ type: 'session.redirect.save', path: location.href });
    throw redirect({ to: '/auth/connect' });
  }
}
/** requireLogin, once a session back from another site (the card provider) has renewed an expired token. */
async function requireLoginAfterResume(args: { context: RouterContext; location: ParsedLocation }) {
  await waitFor(args.context.app.session, (s) => !s.matches('resuming'), { timeout: SESSION_WAIT_MS }).catch(
    () => undefined,
  );
  requireLogin(args);
}
const to = (path: string) => () => {
  throw redirect({ to: path, replace: true });
};

const root = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});
type Screen = RouteComponent;
const page = <P extends string>(path: P, component: Screen) =>
  createRoute({ getParentRoute: () => root, path, component });

// Public pages
const home = page('/', HomePage);
const marketplace = createRoute({
  getParentRoute: () => root,
  path: '/marketplace',
  validateSearch: parseMarketSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => ({ page: await context.app.catalog.blueprints(marketFilter(deps)) }),
  component: MarketplacePage,
});
const storefronts = createRoute({
  getParentRoute: () => root,
  path: '/storefronts',
  validateSearch: parseStorefrontsSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => ({
    page: await context.app.catalog.storefronts({
      search: deps.q,
      categories: parseCategories(deps.categories),
      direction: deps.sort === 'oldest' ? 'asc' : 'desc',
      to: 60,
    }),
  }),
  component: BrowseStorefrontsPage,
});
const storefront = createRoute({
  getParentRoute: () => root,
  path: '/s/$vanityUrl',
  validateSearch: (raw: Record<string, unknown>) => {
    const { min, max } = parseMarketSearch(raw);
    return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) } as {
      min?: number;
      max?: number;
    };
  },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, params, deps }) => {
    const s = await context.app.catalog.storefront(params.vanityUrl).catch(orNotFound);
    const [items, share, reportMachine] = await Promise.all([
      // What visitors see, for the owner too (drafts and hidden items stay in the dashboard).
      context.app.catalog.blueprints({
        ...marketFilter(deps),
        storefrontId: s.id,
        states: PUBLIC_STATES,
        visible: true,
        from: 1,
        to: 100,
      }),
      context.app.catalog.share(s.id),
      context.app.flows.storefrontReport(),
    ]);
    return { storefront: s, items, share, reportMachine };
  },
  component: StorefrontPage,
  notFoundComponent: NotFoundPage,
});
const drops = page('/drops', () => <ComingSoonPage title="Drops" />);
const creators = page('/creators', CreatorsPage);
/** The confirmation link sent to a new email address (token in t). */
const confirmEmail = createRoute({
  getParentRoute: () => root,
  path: '/confirm-email',
  validateSearch: optionalString('t'),
  loader: async ({ context }) => ({ machine: await context.app.flows.emailConfirmation() }),
  component: ConfirmEmailPage,
});
const privacy = page('/privacy', PrivacyPage);
const terms = page('/terms', TermsPage);
/**
 * Where a purchase ends (/ordercomplete/{id}?e&t&serial&type): the page waits until the purchase
 * shows among the buyer's own. Open to visitors too: it shows what is known.
 */
const orderComplete = createRoute({
  getParentRoute: () => root,
  path: '/ordercomplete/$id',
  validateSearch: parseOrderCompleteSearch,
  loader: async ({ context }) => {
    const { session } = context.app;
    // The buyer's email and wallet: wait for the profile of a restored session (not for long).
    await signedInUser(session);
    return { machine: await context.app.flows.purchaseComplete() };
  },
  component: PurchaseCompletePage,
});
/**
 * Where a crypto payment the buyer canceled on the provider's page ends (/coinbasecanceled/{chargeId}).
 * Charges are their buyer's: login required.
 */
const cryptoCanceled = createRoute({
  getParentRoute: () => root,
  path: '/coinbasecanceled/$id',
  beforeLoad: requireLoginAfterResume,
  loader: async ({ context }) => ({ machine: await context.app.flows.cryptoCanceled() }),
  component: CryptoCanceledPage,
});
/**
 * Where a card payment that failed ends (/checkoutcomfailed/{orderId}); from 3-D Secure the provider
 * adds `cko-session-id`. Orders are their buyer's: login required.
 */
const cardFailed = createRoute({
  getParentRoute: () => root,
  path: '/checkoutcomfailed/$reference',
  validateSearch: optionalString('cko-session-id'),
  beforeLoad: requireLoginAfterResume,
  loader: async ({ context }) => ({ machine: await context.app.flows.checkoutFailed() }),
  component: CheckoutFailedPage,
});

const nft = createRoute({
  getParentRoute: () => root,
  path: '/nft/$id',
  // An NFT by its chain token id (digits), or the item detail of a blueprint or pack (uuid).
  loader: async ({ context, params }) => {
    const { app } = context;
    if (/^\d{1,20}$/.test(params.id)) {
      const [nft, machines] = await Promise.all([
        app.nfts.get(params.id).catch(orNotFound),
        nftMachines(app),
      ]);
      return { kind: 'nft' as const, nft, machines };
    }
    const blueprint = await app.catalog.blueprint(params.id).catch(orNull);
    if (!blueprint)
      return {
        kind: 'item' as const,
        item: await app.catalog.pack(params.id).catch(orNotFound),
        history: [],
        listings: [],
      };
    const [history, listings] = await Promise.all([
      app.catalog.history(blueprint.id),
      app.nfts.forSale(blueprint.flowBlueprintId),
    ]);
    return { kind: 'item' as const, item: blueprint, history: history.results, listings };
  },
  component: NftRoute,
  notFoundComponent: NotFoundPage,
});
const nftIndex = createRoute({
  getParentRoute: () => nft,
  path: '/',
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/nft/$id/details', params, replace: true });
  },
});
const nftDetails = createRoute({ getParentRoute: () => nft, path: 'details' });
const nftHistory = createRoute({ getParentRoute: () => nft, path: 'history' });

// Auth: the flow machine loads with the screen.
const auth = createRoute({
  getParentRoute: () => root,
  path: '/auth',
  loader: async ({ context }) => ({
    machine: await context.app.flows.auth(),
    avatarUpload: await context.app.flows.avatarUpload(),
    walletAvailable: await context.app.walletAvailable(),
  }),
  component: AuthLayout,
});
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
    validateSearch: optionalString('email'),
  }),
  createRoute({
    getParentRoute: () => auth,
    path: 'reset-password',
    validateSearch: optionalString('t'),
  }),
];

// Logged-in areas
const loginPage = <P extends string>(path: P, component: Screen) =>
  createRoute({ getParentRoute: () => root, path, beforeLoad: requireLogin, component });
const profile = createRoute({
  getParentRoute: () => root,
  path: '/profile',
  beforeLoad: requireLogin,
  loader: async ({ context }) => {
    // The profile arrives shortly after login; its collectibles are looked up by user id. Without
    // it (the fetch failed, or it did not come in time) the page offers to load again.
    const user = await signedInUser(context.app.session);
    if (!user) {
      if (!context.app.session.getSnapshot().matches('loggedIn')) throw redirect({ to: '/auth/connect' });
      throw new Error('The profile could not be loaded');
    }
    const [owned, machines, avatarUpload, storefront] = await Promise.all([
      user ? context.app.nfts.ownedBy(user.id) : { results: [], total: 0 },
      nftMachines(context.app),
      context.app.flows.avatarUpload(),
      context.app.catalog.myStorefront(),
    ]);
    return { owned, machines, avatarUpload, storefront };
  },
  component: ProfilePage,
});
const profileIndex = createRoute({
  getParentRoute: () => profile,
  path: '/',
  beforeLoad: to('/profile/collection'),
});
const profileCollection = createRoute({ getParentRoute: () => profile, path: 'collection' });
const profileForSale = createRoute({ getParentRoute: () => profile, path: 'for-sale' });
const avatars = loginPage('/profile/avatars', () => <ComingSoonPage title="Avatars" />);

const settings = createRoute({
  getParentRoute: () => root,
  path: '/settings',
  beforeLoad: requireLogin,
  loader: async ({ context }) => ({
    settingsForm: await context.app.flows.settingsForm(),
    kyc: await context.app.flows.kyc(),
    walletLink: await context.app.flows.walletLink(),
    collectionCheck: await context.app.flows.collectionCheck(),
    cryptoTopup: await context.app.flows.cryptoTopup(),
    walletAvailable: await context.app.walletAvailable(),
  }),
  component: SettingsLayout,
});
const settingsIndex = createRoute({
  getParentRoute: () => settings,
  path: '/',
  beforeLoad: to('/settings/account'),
});
const settingsChild = <P extends string>(path: P, component: Screen) =>
  createRoute({ getParentRoute: () => settings, path, component });
const settingsRoutes = [
  settingsIndex,
  settingsChild('account', AccountSettings),
  settingsChild('security', SecuritySettings),
  // Back from paying a top-up on the crypto provider's page: `topup` names the charge.
  createRoute({
    getParentRoute: () => settings,
    path: 'wallet',
    validateSearch: optionalString('topup'),
    component: WalletSettings,
  }),
  createRoute({
    getParentRoute: () => settings,
    path: 'payment',
    loader: async ({ context }) => ({ machine: await context.app.flows.savedCards() }),
    component: PaymentSettings,
  }),
];

/** The creator dashboard (SPEC §2 Dashboard): the caller's storefront (or null) for every panel. */
const dashboard = createRoute({
  getParentRoute: () => root,
  path: '/dashboard',
  beforeLoad: requireLogin,
  loader: async ({ context }) => ({ storefront: await context.app.catalog.myStorefront() }),
  component: DashboardLayout,
});
const dashboardIndex = createRoute({
  getParentRoute: () => dashboard,
  path: '/',
  beforeLoad: to('/dashboard/preview'),
});
const dashboardPreview = createRoute({
  getParentRoute: () => dashboard,
  path: 'preview',
  loader: async ({ context }) => {
    const storefront = await context.app.catalog.myStorefront();
    return {
      items: storefront
        ? await context.app.catalog.blueprints({
            storefrontId: storefront.id,
            states: PUBLIC_STATES,
            visible: true,
            to: 100,
          })
        : { results: [], total: 0 },
    };
  },
  component: PreviewPanel,
});
const dashboardAccount = createRoute({
  getParentRoute: () => dashboard,
  path: 'account',
  loader: async ({ context }) => ({ machine: await context.app.flows.dashboardAccount() }),
  component: AccountPanel,
});
const dashboardProducts = createRoute({
  getParentRoute: () => dashboard,
  path: 'products',
  validateSearch: parseProductsSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const { app } = context;
    const storefront = await app.catalog.myStorefront();
    const [page, editing, blueprintForm, publish, productActions] = await Promise.all([
      storefront
        ? app.catalog.blueprints(productFilter(storefront.id, deps.q, deps.status ?? 'all', deps.page))
        : { results: [], total: 0 },
      deps.edit && deps.edit !== 'new' ? app.catalog.blueprint(deps.edit).catch(orNull) : null,
      app.flows.blueprintForm(),
      app.flows.publish(),
      app.flows.productActions(),
    ]);
    return { page, editing, machines: { blueprintForm, publish, productActions } };
  },
  component: ProductsPanel,
});
const dashboardSales = createRoute({
  getParentRoute: () => dashboard,
  path: 'sales',
  validateSearch: parseSalesSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const storefront = await context.app.catalog.myStorefront();
    const [sales, ledgerExport, salesChart] = await Promise.all([
      storefront ? context.app.sales.list({ storefrontId: storefront.id, ...deps }) : null,
      context.app.flows.ledgerExport(),
      context.app.flows.salesChart(),
    ]);
    return { sales, ledgerExport, salesChart };
  },
  component: SalesPanel,
});
const dashboardHelp = createRoute({ getParentRoute: () => dashboard, path: 'help', component: HelpPanel });
const dashboardNotifications = createRoute({
  getParentRoute: () => dashboard,
  path: 'notifications',
  loader: async ({ context }) => ({ machine: await context.app.flows.saleNotices() }),
  component: NotificationsPanel,
});
const dashboardRoutes = [
  dashboardIndex,
  dashboardPreview,
  dashboardAccount,
  dashboardProducts,
  dashboardSales,
  dashboardNotifications,
  dashboardHelp,
];

/**
 * Create-storefront entry (SPEC §2): logged out → Home; a user who already has a storefront → the
 * dashboard; otherwise the wizard, from its first step.
 */
const createStorefront = createRoute({
  getParentRoute: () => root,
  path: '/create-storefront',
  beforeLoad: async ({ context }) => {
    if (!context.app.session.getSnapshot().matches('loggedIn')) throw redirect({ to: '/', replace: true });
    if (await context.app.catalog.myStorefront()) throw redirect({ to: '/dashboard', replace: true });
  },
  loader: async ({ context }) => ({ machine: await context.app.flows.storefrontWizard() }),
  component: CreateStorefrontPage,
});
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
const payouts = createRoute({
  getParentRoute: () => root,
  path: '/payouts',
  beforeLoad: requireLogin,
  loader: async ({ context }) => {
    const [machine, salesChart, storefront] = await Promise.all([
      context.app.flows.payout(),
      context.app.flows.salesChart(),
      context.app.catalog.myStorefront(),
    ]);
    return { machine, salesChart, storefront };
  },
  component: PayoutsPage,
});

/** The back office: /admin opens its first list; non-admins see that the area is restricted. */
const adminIndex = createRoute({
  getParentRoute: () => root,
  path: '/admin',
  beforeLoad: () => {
    throw redirect({ to: '/admin/$list', params: { list: adminListOrder[0]! } });
  },
});
const adminList = createRoute({
  getParentRoute: () => root,
  path: '/admin/$list',
  beforeLoad: requireLogin,
  params: {
    parse: ({ list }) => {
      if (!(adminListOrder as readonly string[]).includes(list)) throw notFound();
      return { list: list as AdminList };
    },
    stringify: ({ list }) => ({ list }),
  },
  loader: async ({ context, params }) => ({
    machine: await context.app.flows.adminList(),
    list: params.list,
    admin: context.app.session.getSnapshot().context.role === 'admin',
  }),
  component: AdminPage,
});

export const routeTree = root.addChildren([
  home,
  marketplace,
  storefronts,
  storefront,
  drops,
  creators,
  confirmEmail,
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
  adminIndex,
  adminList,
]);

export function createAppRouter(app: AppActors) {
  return createRouter({
    routeTree,
    context: { app },
    defaultPreload: false,
    scrollRestoration: true,
    defaultErrorComponent: LoadErrorPage,
    // A page still loading after a second shows the shell (and its account banner) with a spinner.
    defaultPendingComponent: PagePending,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
