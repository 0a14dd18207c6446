import { createRoute, notFound, type RouteComponent, redirect } from '@tanstack/react-router';
import { adminListOrder } from '#domain/adminLists';
import { PUBLIC_STATES, parseProductsSearch, productFilter } from '#domain/productsSearch';
import { parseSalesSearch } from '#domain/salesSearch';
import type { AdminList } from '#domain/schemas/admin';
import { isLoggedIn } from '../../machines/session';
import { ComingSoonPage } from '../views/pages/ComingSoonPage';
import { optionalString, orNull, requireLogin, signedInUser } from './guards';
import { nftMachines, root } from './root';
import {
  AccountPanel,
  AccountSettings,
  AdminPage,
  CheckoutFailedPage,
  CreateStorefrontPage,
  CryptoCanceledPage,
  DashboardLayout,
  HelpPanel,
  NotificationsPanel,
  PaymentSettings,
  PayoutsPage,
  PreviewPanel,
  ProductsPanel,
  ProfilePage,
  SalesPanel,
  SecuritySettings,
  SettingsLayout,
  WalletSettings,
} from './screens';

/**
 * The pages of a signed-in user, under one pathless layout: its guard sends a visitor who is not
 * logged in to sign in (remembering where they were headed) before any of their loaders runs.
 */
export const authenticated = createRoute({
  getParentRoute: () => root,
  id: '_authenticated',
  beforeLoad: requireLogin,
});
const signedInPage = <P extends string>(path: P, component: RouteComponent) =>
  createRoute({ getParentRoute: () => authenticated, path, component });
/**
 * Where a crypto payment the buyer canceled on the provider's page ends (/coinbasecanceled/{chargeId}).
 * Charges are their buyer's.
 */
const cryptoCanceled = createRoute({
  getParentRoute: () => authenticated,
  path: '/coinbasecanceled/$id',
  loader: async ({ context }) => ({ machine: await context.app.flows.cryptoCanceled() }),
  component: CryptoCanceledPage,
});
/**
 * Where a card payment that failed ends (/checkoutcomfailed/{orderId}); from 3-D Secure the provider
 * adds `cko-session-id`. Orders are their buyer's.
 */
const cardFailed = createRoute({
  getParentRoute: () => authenticated,
  path: '/checkoutcomfailed/$reference',
  validateSearch: optionalString('cko-session-id'),
  loader: async ({ context }) => ({ machine: await context.app.flows.checkoutFailed() }),
  component: CheckoutFailedPage,
});

const profile = createRoute({
  getParentRoute: () => authenticated,
  path: '/profile',
  loader: async ({ context }) => {
    // The profile arrives shortly after login; its collectibles are looked up by user id. Without
    // it (the fetch failed, or it did not come in time) the page offers to load again.
    const user = await signedInUser(context.app.session);
    if (!user) {
      if (!isLoggedIn(context.app.session.getSnapshot())) throw redirect({ to: '/auth/connect' });
      throw new Error('The profile could not be loaded');
    }
    const [owned, machines, avatarUpload, storefront] = await Promise.all([
      context.app.nfts.ownedBy(user.id),
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
  beforeLoad: () => {
    throw redirect({ to: '/profile/collection', replace: true });
  },
});
const profileCollection = createRoute({ getParentRoute: () => profile, path: 'collection' });
const profileForSale = createRoute({ getParentRoute: () => profile, path: 'for-sale' });
const avatars = signedInPage('/profile/avatars', () => <ComingSoonPage title="Avatars" />);

const settings = createRoute({
  getParentRoute: () => authenticated,
  path: '/settings',
  loader: async ({ context }) => ({
    settingsForm: await context.app.flows.settingsForm(),
    kyc: await context.app.flows.kyc(),
    walletLink: await context.app.flows.walletLink(),
    collectionCheck: await context.app.flows.collectionCheck(),
    fusdBalance: await context.app.flows.fusdBalance(),
    cryptoTopup: await context.app.flows.cryptoTopup(),
    walletAvailable: await context.app.walletAvailable(),
  }),
  component: SettingsLayout,
});
const settingsIndex = createRoute({
  getParentRoute: () => settings,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/settings/account', replace: true });
  },
});
const settingsChild = <P extends string>(path: P, component: RouteComponent) =>
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

/**
 * The creator dashboard: the caller's storefront (or null), fetched once per navigation before the
 * panels load and shared with them through the route context (the layout shows it too).
 */
const dashboard = createRoute({
  getParentRoute: () => authenticated,
  path: '/dashboard',
  beforeLoad: async ({ context }) => ({ storefront: await context.app.catalog.myStorefront() }),
  loader: ({ context }) => ({ storefront: context.storefront }),
  component: DashboardLayout,
});
const dashboardIndex = createRoute({
  getParentRoute: () => dashboard,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/dashboard/preview', replace: true });
  },
});
const dashboardPreview = createRoute({
  getParentRoute: () => dashboard,
  path: 'preview',
  loader: async ({ context }) => {
    const { storefront } = context;
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
    const { app, storefront } = context;
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
    const { storefront } = context;
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
 * Create-storefront entry: a visitor who is not logged in goes Home; a user who already has a
 * storefront goes to the dashboard; anyone else starts the wizard at its first step.
 */
const createStorefront = createRoute({
  getParentRoute: () => root,
  path: '/create-storefront',
  beforeLoad: async ({ context }) => {
    if (!isLoggedIn(context.app.session.getSnapshot())) throw redirect({ to: '/', replace: true });
    if (await context.app.catalog.myStorefront()) throw redirect({ to: '/dashboard', replace: true });
  },
  loader: async ({ context }) => ({ machine: await context.app.flows.storefrontWizard() }),
  component: CreateStorefrontPage,
});
const createStorefrontIndex = createRoute({
  getParentRoute: () => createStorefront,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/create-storefront/landing', replace: true });
  },
});
const createStorefrontRoutes = [
  createStorefrontIndex,
  ...(['landing', 'name', 'bio', 'category', 'logo', 'banner', 'theme', 'email'] as const).map((path) =>
    createRoute({ getParentRoute: () => createStorefront, path }),
  ),
];
const payouts = createRoute({
  getParentRoute: () => authenticated,
  path: '/payouts',
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
  getParentRoute: () => authenticated,
  path: '/admin/$list',
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

/** The signed-in user's pages (under the authenticated layout) and the storefront wizard. */
export const signedInRoutes = [
  authenticated.addChildren([
    profile.addChildren([profileIndex, profileCollection, profileForSale]),
    avatars,
    settings.addChildren(settingsRoutes),
    dashboard.addChildren(dashboardRoutes),
    payouts,
    adminList,
    cryptoCanceled,
    cardFailed,
  ]),
  createStorefront.addChildren(createStorefrontRoutes),
  adminIndex,
];
