import { createRoute, type RouteComponent, redirect } from '@tanstack/react-router';
import { marketFilter, parseCategories, parseMarketSearch } from '#domain/marketSearch';
import { parseOrderCompleteSearch } from '#domain/orderComplete';
import { PUBLIC_STATES } from '#domain/productsSearch';
import { parseItemPageSearch } from '#domain/routes';
import { parseStorefrontsSearch } from '#domain/storefrontsSearch';
import { ComingSoonPage } from '../views/pages/ComingSoonPage';
import { NotFoundPage } from '../views/pages/NotFoundPage';
import { optionalString, orNotFound, orNull, signedInUser } from './guards';
import { nftMachines, root } from './root';
import {
  AuthLayout,
  BrowseStorefrontsPage,
  ConfirmEmailPage,
  CreatorsPage,
  HomePage,
  MarketplacePage,
  NftRoute,
  PrivacyPage,
  PurchaseCompletePage,
  StorefrontPage,
  TermsPage,
  UnsubscribePage,
} from './screens';

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
  loader: async ({ context, deps }) => ({
    page: await context.app.catalog.blueprints({ ...marketFilter(deps), countAvailable: true }),
  }),
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
/** The link in every sale email that turns sale emails off (signed token in t; no sign-in). */
const unsubscribe = createRoute({
  getParentRoute: () => root,
  path: '/unsubscribe',
  validateSearch: optionalString('t'),
  loader: async ({ context }) => ({ machine: await context.app.flows.saleEmailsOff() }),
  component: UnsubscribePage,
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
const nft = createRoute({
  getParentRoute: () => root,
  path: '/nft/$id',
  // Back from a top-up opened in a purchase dialog: the dialog to open again (useReturnedPurchase).
  validateSearch: parseItemPageSearch,
  // An NFT by its chain token id (digits), or the item detail of a blueprint or pack (uuid).
  loader: async ({ context, params }) => {
    const { app } = context;
    if (/^\d{1,20}$/.test(params.id)) {
      const [nft, history, machines] = await Promise.all([
        app.nfts.get(params.id).catch(orNotFound),
        app.nfts.history(params.id).catch(orNotFound),
        nftMachines(app),
      ]);
      return { kind: 'nft' as const, nft, history: history.results, machines };
    }
    const blueprint = await app.catalog.blueprint(params.id).catch(orNull);
    if (!blueprint)
      return {
        kind: 'item' as const,
        item: await app.catalog.pack(params.id).catch(orNotFound),
        history: [],
        listings: [],
        claim: null,
      };
    const [history, listings, claim] = await Promise.all([
      app.catalog.history(blueprint.id),
      app.nfts.forSale(blueprint.flowBlueprintId),
      // A free item (price 0, not in a pack) the signed-in user claimed already is theirs: the page
      // says so instead of offering the claim again.
      blueprint.price === 0 && !blueprint.blueprintPackId
        ? signedInUser(app.session).then((user) => (user ? app.nfts.claimOf(blueprint.id) : null))
        : null,
    ]);
    return { kind: 'item' as const, item: blueprint, history: history.results, listings, claim };
  },
  component: NftRoute,
  notFoundComponent: NotFoundPage,
});
const nftIndex = createRoute({
  getParentRoute: () => nft,
  path: '/',
  // The query goes along: a purchase dialog to open again (useReturnedPurchase) is named there.
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/nft/$id/details', params, search: true, replace: true });
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
const authIndex = createRoute({
  getParentRoute: () => auth,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/auth/connect', replace: true });
  },
});
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

/** The pages anyone can open, the NFT pages and the sign-in flow. */
export const publicRoutes = [
  home,
  marketplace,
  storefronts,
  storefront,
  drops,
  creators,
  confirmEmail,
  unsubscribe,
  privacy,
  terms,
  orderComplete,
  nft.addChildren([nftIndex, nftDetails, nftHistory]),
  auth.addChildren(authRoutes),
];
