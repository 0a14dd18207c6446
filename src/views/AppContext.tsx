import { createContext, useContext } from 'react';
import type { ActorRefFrom, InspectionEvent } from 'xstate';
import type { BlueprintJson, HistoryItem, PackJson, Page, StorefrontJson } from '#domain/catalog';
import type { BlueprintFilter, ShareLinks, StorefrontFilter } from '#domain/filters';
import type { NftJson } from '#domain/nft';
import type { StorefrontPage } from '#domain/responses/catalog';
import type { FavoritePage } from '#domain/responses/favorites';
import type { HomeTrending } from '#domain/responses/home';
import type { OfferJson, OfferPage } from '#domain/responses/offers';
import type { StorefrontStats } from '#domain/responses/stats';
import type { SalesPage, SalesPageSize } from '#domain/sales';
import type { BlueprintPatchInput } from '#domain/schemas/blueprints';
import type { FreeClaimJson } from '#domain/schemas/checkout';
import type { StorefrontPatchInput } from '#domain/schemas/storefronts';
import type { acceptOfferMachine } from '../../machines/acceptOffer';
import type { activityFeedMachine } from '../../machines/activityFeed';
import type { adminListMachine } from '../../machines/adminList';
import type { authMachine } from '../../machines/auth';
import type { avatarUploadMachine } from '../../machines/avatarUpload';
import type { blueprintFormMachine } from '../../machines/blueprintForm';
import type { buyListingMachine } from '../../machines/buyListing';
import type { cancelOfferMachine } from '../../machines/cancelOffer';
import type { CardCheckpoint } from '../../machines/cardPayment';
import type { checkoutMachine, PaymentMethod, TokenRail } from '../../machines/checkout';
import type { checkoutFailedMachine } from '../../machines/checkoutFailed';
import type { collectionCheckMachine } from '../../machines/collectionCheck';
import type { cryptoCanceledMachine } from '../../machines/cryptoCanceled';
import type { cryptoTopupMachine } from '../../machines/cryptoTopup';
import type { dashboardAccountMachine } from '../../machines/dashboardAccount';
import type { favoriteMachine } from '../../machines/favorite';
import type { fusdBalanceMachine } from '../../machines/fusdBalance';
import type { kycMachine } from '../../machines/kyc';
import type { ledgerExportMachine } from '../../machines/ledgerExport';
import type { linkActionMachine } from '../../machines/linkAction';
import type { listForSaleMachine } from '../../machines/listForSale';
import type { makeOfferMachine } from '../../machines/makeOffer';
import type { payoutMachine } from '../../machines/payout';
import type { productActionsMachine } from '../../machines/productActions';
import type { publishMachine } from '../../machines/publish';
import type { purchaseCompleteMachine } from '../../machines/purchaseComplete';
import type { removeListingMachine } from '../../machines/removeListing';
import type { saleNoticesMachine } from '../../machines/saleNotices';
import type { salesChartMachine } from '../../machines/salesChart';
import type { savedCardsMachine } from '../../machines/savedCards';
import type { sessionMachine } from '../../machines/session';
import type { settingsFormMachine } from '../../machines/settingsForm';
import type { storefrontReportMachine } from '../../machines/storefrontReport';
import type { storefrontWizardMachine } from '../../machines/storefrontWizard';
import type { transferNftsMachine } from '../../machines/transferNfts';
import type { uiMachine } from '../../machines/ui';
import type { walletLinkMachine } from '../../machines/walletLink';

/**
 * What views get from the app: the long-lived actors, and loaders of the flow machines with their
 * services provided (route loaders call them, so a flow's code arrives with its screen).
 */
export interface AppActors {
  session: ActorRefFrom<typeof sessionMachine>;
  ui: ActorRefFrom<typeof uiMachine>;
  flows: {
    auth: () => Promise<typeof authMachine>;
    settingsForm: () => Promise<typeof settingsFormMachine>;
    walletLink: () => Promise<typeof walletLinkMachine>;
    collectionCheck: () => Promise<typeof collectionCheckMachine>;
    fusdBalance: () => Promise<typeof fusdBalanceMachine>;
    listForSale: () => Promise<typeof listForSaleMachine>;
    removeListing: () => Promise<typeof removeListingMachine>;
    favorite: () => Promise<typeof favoriteMachine>;
    /** The signed-in user's saved item ids, read once (empty for a visitor). */
    favoriteIds: () => Promise<Set<string>>;
    /** A page of the signed-in user's saved items (GET users/me/favorites). */
    favoritesPage: (page: number) => Promise<FavoritePage>;
    /** Offers on NFTs (GET offers, newest first, at most 50) and their flows. */
    offers: (query: { nftId?: string; ownerId?: string; buyerId?: string }) => Promise<OfferPage>;
    /** The signed-in user's offers, received and made (the profile's Offers tab). */
    myOffers: () => Promise<{ received: OfferJson[]; made: OfferJson[] }>;
    makeOffer: () => Promise<typeof makeOfferMachine>;
    acceptOffer: () => Promise<typeof acceptOfferMachine>;
    cancelOffer: () => Promise<typeof cancelOfferMachine>;
    /** An Activity tab's feed (GET activity), a page at a time. */
    activityFeed: () => Promise<typeof activityFeedMachine>;
    buyListing: () => Promise<typeof buyListingMachine>;
    purchaseComplete: () => Promise<typeof purchaseCompleteMachine>;
    transferNfts: () => Promise<typeof transferNftsMachine>;
    storefrontReport: () => Promise<typeof storefrontReportMachine>;
    kyc: () => Promise<typeof kycMachine>;
    adminList: () => Promise<typeof adminListMachine>;
    saleNotices: () => Promise<typeof saleNoticesMachine>;
    salesChart: () => Promise<typeof salesChartMachine>;
    avatarUpload: () => Promise<typeof avatarUploadMachine>;
    /** The emailed links' pages (/confirm-email, /unsubscribe): one machine, each its action. */
    emailConfirmation: () => Promise<typeof linkActionMachine>;
    saleEmailsOff: () => Promise<typeof linkActionMachine>;
    storefrontWizard: () => Promise<typeof storefrontWizardMachine>;
    blueprintForm: () => Promise<typeof blueprintFormMachine>;
    publish: () => Promise<typeof publishMachine>;
    productActions: () => Promise<typeof productActionsMachine>;
    payout: () => Promise<typeof payoutMachine>;
    ledgerExport: () => Promise<typeof ledgerExportMachine>;
    dashboardAccount: () => Promise<typeof dashboardAccountMachine>;
    savedCards: () => Promise<typeof savedCardsMachine>;
    checkoutFailed: () => Promise<typeof checkoutFailedMachine>;
    cryptoTopup: () => Promise<typeof cryptoTopupMachine>;
    cryptoCanceled: () => Promise<typeof cryptoCanceledMachine>;
    checkout: () => Promise<typeof checkoutMachine>;
  };
  /** Catalog reads and the storefront report, for route loaders and flows. */
  catalog: {
    blueprints(filter?: BlueprintFilter): Promise<Page<BlueprintJson>>;
    blueprint(id: string): Promise<BlueprintJson>;
    history(id: string): Promise<{ results: HistoryItem[] }>;
    pack(id: string): Promise<PackJson>;
    storefronts(filter?: StorefrontFilter): Promise<StorefrontPage>;
    storefront(key: string): Promise<StorefrontJson>;
    stats(id: string): Promise<StorefrontStats>;
    homeTrending(): Promise<HomeTrending>;
    share(storefrontId: string, caption?: string): Promise<ShareLinks>;
    myStorefront(): Promise<StorefrontJson | null>;
    updateBlueprint(id: string, body: BlueprintPatchInput): Promise<BlueprintJson>;
    updateStorefront(id: string, patch: StorefrontPatchInput): Promise<StorefrontJson>;
  };
  /** NFT reads for route loaders. */
  nfts: {
    get(id: string): Promise<NftJson>;
    history(id: string): Promise<{ results: HistoryItem[] }>;
    ownedBy(ownerId: string): Promise<{ results: NftJson[]; total: number }>;
    forSale(flowBlueprintId: string): Promise<NftJson[]>;
    /** The signed-in user's claim of a free blueprint, or null. */
    claimOf(blueprintId: string): Promise<FreeClaimJson | null>;
  };
  /** A storefront's sales (the dashboard's Sales), for its route loader. */
  sales: {
    list(query: { storefrontId: string; page?: number; pageSize?: SalesPageSize }): Promise<SalesPage>;
  };
  walletAvailable: () => Promise<boolean>;
  /** The card charge this tab left for 3-D Secure (session storage), for the checkout to restore. */
  cardCheckpoint: () => Promise<CardCheckpoint | null>;
  /** The country of the last card paid with in this browser: the next card form starts with it. */
  billingCountry: () => string | null;
  /** The payment methods the server runs (GET config/payments). */
  paymentRails: () => Promise<PaymentMethod[]>;
  /** The utility-token rail, when the server runs it (NFM_PAYMENTS). */
  tokenRail: () => Promise<TokenRail | null>;
  /** Form drafts kept in the tab (a save the session's end interrupted), by the form's key. */
  drafts: { read: (key: string) => Record<string, unknown> | null };
  inspect?: (event: InspectionEvent) => void;
}

export const AppContext = createContext<AppActors | null>(null);

export function useApp(): AppActors {
  const app = useContext(AppContext);
  if (!app) throw new Error('useApp outside AppContext');
  return app;
}
