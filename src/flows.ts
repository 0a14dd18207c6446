import { type Actor, createActor, fromPromise, type InspectionEvent } from 'xstate';
import type { AssetKind } from '#domain/assets';
import { type FollowedCharge, followCard, followCrypto, followOnramp } from '#domain/chargeProgress';
import { timings } from '#domain/constants';
import { ApiError } from '#domain/errors';
import type { CardChargeJson } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import type { WertChargeJson } from '#domain/schemas/wert';
import type { User } from '#domain/user';
import type { PaymentMethod, TokenRail } from '../machines/checkout';
import type { ChargeSync } from '../machines/checkoutFailed';
import type { TopupRequest } from '../machines/cryptoTopup';
import type { ChargeRef } from '../machines/purchaseComplete';
import type { sessionMachine } from '../machines/session';
import type { WizardFile } from '../machines/storefrontWizard';
import type { uiMachine } from '../machines/ui';
import { once } from './lazy';
import type { accountActors } from './services/accounts';
import type { Api } from './services/api';
import type { catalogService } from './services/catalog';
import type { Flow } from './services/flow';
import type { nftService } from './services/nfts';
import type { salesService } from './services/sales';
import type { uploadService } from './services/uploads';

/** What the flows use from the runtime: the API, the long-lived actors and the eager services. */
export interface FlowDeps {
  api: Api;
  session: Actor<typeof sessionMachine>;
  ui: Actor<typeof uiMachine>;
  /** The chain service (loads on its first call). */
  flow: Flow;
  accounts: ReturnType<typeof accountActors>;
  nfts: ReturnType<typeof nftService>;
  catalog: ReturnType<typeof catalogService>;
  uploads: ReturnType<typeof uploadService>;
  sales: ReturnType<typeof salesService>;
  /** A proven wallet is connected: the session is fully logged in (wallet and auth). */
  walletConnected: () => void;
  inspect?: (event: InspectionEvent) => void;
}

/**
 * The flow machines with their real services provided, and the payment rails the checkout offers.
 * This module loads with the first screen that runs a flow (src/runtime.ts), so the wiring of
 * every flow and the payment services stay out of every page's first load.
 */
export function createFlows(deps: FlowDeps) {
  const { api, session, ui, flow, accounts, nfts, catalog, uploads, sales, walletConnected, inspect } = deps;
  /**
   * The payment services (card checks with their brand and phone data, the wallets, crypto, the
   * on-ramp, the utility token) load with the first screen that pays, not with every page.
   */
  const payments = once(async () => {
    const [cardsModule, wallets, crypto, evm, wert, balance, checkout] = await Promise.all([
      import('./services/cards'),
      import('./services/wallets'),
      import('./services/crypto'),
      import('./services/evm'),
      import('./services/wert'),
      import('./services/balance'),
      import('./services/checkout'),
    ]);
    const cardCalls = cardsModule.cardService(api);
    const cryptoCalls = crypto.cryptoService(api);
    return {
      cardCalls,
      cards: cardsModule.cardActors(api, cardCalls),
      cardCheckpoints: cardsModule.cardCheckpoints,
      mobileWallets: wallets.walletService({ api, config: cardCalls.config }),
      walletActors: wallets.walletActors,
      cryptoCalls,
      cryptoActors: () => crypto.cryptoActors(api, cryptoCalls),
      evm,
      wertActors: () => wert.wertActors(api),
      balanceActors: () => balance.balanceActors(api, flow, cryptoCalls),
      checkoutActors: () => checkout.checkoutActors(api, checkout.checkoutService(api, cardCalls)),
    };
  });

  /**
   * Back from 3-D Secure on the purchase-complete or failed page: a settled charge's checkpoint is
   * forgotten, so the next checkout does not restore it.
   */
  const forgetSettledCheckpoint = async (charge: CardChargeJson) => {
    const { cardCheckpoints } = await payments();
    if (!charge.unresolved && cardCheckpoints.read()?.chargeId === charge.id) cardCheckpoints.clear();
    return charge;
  };
  /** Connects and proves a wallet, then links it to the signed-in account. */
  const linkWallet = fromPromise<{ user: User }, void>(() => {
    const me = session.getSnapshot().context.user;
    if (!me) throw new Error('not signed in');
    return import('./services/flow')
      .then(({ linkWallet }) => linkWallet(flow, api, me))
      .then((linked) => {
        walletConnected();
        return linked;
      });
  });
  const announceWalletLinked = (user: User) => {
    session.send({ type: 'session.user.updated', user });
    toast('wallet-linked', 'Wallet linked');
  };
  const collectionActors = {
    checkCollection: fromPromise<{ ready: boolean }, { address: string }>(({ input }) =>
      flow.checkCollection(input.address),
    ),
    setupCollection: fromPromise<void, { address: string }>(({ input }) =>
      flow.setupCollection(input.address),
    ),
  };
  /** The buyListing flow with its chain and API calls (on an NFT's page, and inside the checkout). */
  const buyListingFlow = once(async () =>
    (await import('../machines/buyListing')).buyListingMachine.provide({
      actors: {
        fusdBalance: fromPromise(({ input }) => flow.fusdBalance(input.address)),
        buyListing: fromPromise(({ input }) => flow.buyListing(input)),
        recordPurchase: fromPromise(({ input }) => nfts.recordPurchase(input)),
        createTopup: fromPromise(async ({ input }) => (await payments()).cryptoCalls.createTopup(input)),
      },
      actions: { redirectTo: (_, { url }) => window.location.assign(url) },
    }),
  );

  // Flow machines load with the screens that use them (keeps Home's first load small), once each.
  const flows = {
    auth: once(async () =>
      (await import('../machines/auth')).authMachine.provide({
        actors: {
          ...accounts,
          connectWallet: fromPromise(async () => {
            const result = await flow.connectWallet();
            walletConnected();
            return result;
          }),
        },
        actions: {
          announceLogin: (_, { authToken }) => session.send({ type: 'session.login', token: authToken }),
          announceUser: (_, { user }) => session.send({ type: 'session.user.updated', user }),
        },
      }),
    ),
    settingsForm: once(async () =>
      (await import('../machines/settingsForm')).settingsFormMachine.provide({
        actors: { save: accounts.saveSettings },
        actions: {
          announceSaved: (_, { user, authToken }) => {
            const asked =
              user.pendingEmail && user.pendingEmail !== session.getSnapshot().context.user?.pendingEmail;
            session.send({ type: 'session.user.updated', user, token: authToken });
            ui.send({
              type: 'ui.toast.show',
              id: 'settings-saved',
              text: asked
                ? `Saved. Open the link we sent to ${user.pendingEmail} to confirm your new email.`
                : 'Saved',
              duration: timings.savedToastMs,
            });
          },
        },
      }),
    ),
    collectionCheck: once(async () =>
      (await import('../machines/collectionCheck')).collectionCheckMachine.provide({
        actors: collectionActors,
      }),
    ),
    walletLink: once(async () =>
      (await import('../machines/walletLink')).walletLinkMachine.provide({
        actors: { linkWallet },
        actions: { announceLinked: (_, { user }) => announceWalletLinked(user) },
      }),
    ),
    listForSale: once(async () =>
      (await import('../machines/listForSale')).listForSaleMachine.provide({
        actors: {
          createListing: fromPromise(({ input }) => flow.createListing(input)),
          recordListing: fromPromise(({ input }) => nfts.recordListing(input)),
        },
        actions: { announceListed: () => toast('nft-listed', 'Listed for sale') },
      }),
    ),
    removeListing: once(async () =>
      (await import('../machines/removeListing')).removeListingMachine.provide({
        actors: {
          removeListing: fromPromise(({ input }) => flow.removeListing(input)),
          cancelListing: fromPromise(({ input }) => nfts.cancelListing(input)),
        },
        actions: { announceRemoved: () => toast('nft-unlisted', 'Removed from the marketplace') },
      }),
    ),
    buyListing: buyListingFlow,
    purchaseComplete: once(async () =>
      (await import('../machines/purchaseComplete')).purchaseCompleteMachine.provide({
        actors: {
          findPurchase: fromPromise(({ input }) => nfts.findPurchase(input)),
          // The charge of the rail the purchase was paid with, as the server has it.
          getCharge: fromPromise<FollowedCharge, ChargeRef>(async ({ input }) => {
            const id = encodeURIComponent(input.id);
            if (input.rail === 'crypto')
              return followCrypto(await api.get<CoinbaseChargeJson>(`coinbase-charges/${id}`));
            if (input.rail === 'onramp')
              return followOnramp(await api.get<WertChargeJson>(`wert-charges/${id}`));
            return followCard(await api.get<CardChargeJson>(`checkout-com-charges/${id}`));
          }),
          // …and as its provider has it now (the server asks and applies what it says).
          syncCharge: fromPromise<FollowedCharge, ChargeRef>(async ({ input }) => {
            const id = encodeURIComponent(input.id);
            if (input.rail === 'crypto')
              return followCrypto(await api.patch<CoinbaseChargeJson>(`coinbase-charges/${id}`, {}));
            if (input.rail === 'onramp')
              return followOnramp(await api.patch<WertChargeJson>(`wert-charges/${id}`, {}));
            const charge = await api.patch<CardChargeJson>(`checkout-com-charges/${id}/actions/sync`, {
              ckoSessionId: input.ckoSessionId ?? undefined,
            });
            return followCard(await forgetSettledCheckpoint(charge));
          }),
        },
      }),
    ),
    transferNfts: once(async () =>
      (await import('../machines/transferNfts')).transferNftsMachine.provide({
        actors: { transferNfts: fromPromise(({ input }) => flow.transferNfts(input)) },
        actions: { announceTransferred: () => toast('nft-transferred', 'Transfer sent') },
      }),
    ),
    imageJob: once(async () =>
      (await import('../machines/imageJob')).imageJobMachine.provide({
        actors: {
          startJob: fromPromise(({ input }) => uploads.startJob(input)),
          checkJob: fromPromise(({ input }) => uploads.checkJob(input)),
          plainUpload: fromPromise(({ input }) => uploads.plainUpload(input)),
        },
      }),
    ),
    storefrontWizard: once(async () => {
      const upload = await imageUploader();
      return (await import('../machines/storefrontWizard')).storefrontWizardMachine.provide({
        actors: {
          uploadLogo: fromPromise(({ input }) => upload(input.file, 'storefrontLogo')),
          uploadBanner: fromPromise(({ input }) => upload(input.file, 'storefrontBanner')),
          createStorefront: fromPromise(({ input }) => catalog.createStorefront(input)),
        },
        actions: { announceCreated: () => toast('storefront-created', 'Your storefront is live') },
      });
    }),
    blueprintForm: once(async () => {
      const upload = await imageUploader();
      return (await import('../machines/blueprintForm')).blueprintFormMachine.provide({
        actors: {
          uploadFile: fromPromise(({ input }) => upload(input.file, input.assetKind, input.optimize)),
          saveBlueprint: fromPromise(({ input }) =>
            input.id === null
              ? catalog.createBlueprint(input.body)
              : catalog.updateBlueprint(input.id, input.body),
          ),
        },
        actions: { announceSaved: () => toast('product-saved', 'Saved') },
      });
    }),
    publish: once(async () =>
      (await import('../machines/publish')).publishMachine.provide({
        actors: {
          setReadyToSell: fromPromise(({ input }) =>
            catalog.updateBlueprint(input.blueprintId, { status: 'readyToSell' }),
          ),
          fetchBlueprint: fromPromise(({ input }) => catalog.blueprint(input.blueprintId)),
        },
      }),
    ),
    productActions: once(async () =>
      (await import('../machines/productActions')).productActionsMachine.provide({
        actors: {
          updateProduct: fromPromise(({ input }) => catalog.updateBlueprint(input.id, input.change)),
        },
      }),
    ),
    avatarUpload: once(async () => {
      const upload = await imageUploader();
      return (await import('../machines/avatarUpload')).avatarUploadMachine.provide({
        actors: {
          inspectImage: fromPromise(({ input }) => uploads.inspectImage(input.file)),
          uploadAvatar: fromPromise(({ input }) => upload(input.file, 'userAvatar')),
          saveAvatar: accounts.saveAvatar,
        },
        actions: {
          announceUser: (_, { user }) => session.send({ type: 'session.user.updated', user }),
        },
      });
    }),
    salesChart: once(async () =>
      (await import('../machines/salesChart')).salesChartMachine.provide({
        actors: {
          fetchChart: fromPromise(({ input }) =>
            api.get('sales/chart', {
              storefrontId: input.storefrontId,
              days: input.days,
              bucket: input.bucket,
            }),
          ),
        },
      }),
    ),
    saleNotices: once(async () =>
      (await import('../machines/saleNotices')).saleNoticesMachine.provide({
        actors: {
          fetchNotices: fromPromise(() => api.get('notifications')),
          markRead: fromPromise(() => api.post('notifications/actions/read')),
          saveSaleEmails: fromPromise(async ({ input }) => ({
            user: await api.patch<User>('users/me', { saleEmails: input.saleEmails }),
          })),
        },
        actions: {
          announceUser: (_, { user }) => session.send({ type: 'session.user.updated', user }),
        },
      }),
    ),
    adminList: once(async () =>
      (await import('../machines/adminList')).adminListMachine.provide({
        actors: {
          fetchList: fromPromise(({ input }) =>
            api.get(`admin/${input.list}`, {
              page: input.query.page,
              pageSize: input.query.pageSize,
              searchText: input.query.searchText,
              status: input.query.status,
            }),
          ),
          performAction: fromPromise(({ input }) => api.patch(input.path, input.body)),
        },
      }),
    ),
    kyc: once(async () =>
      (await import('../machines/kyc')).kycMachine.provide({
        actors: {
          createSession: accounts.createKycSession,
          readStatus: fromPromise(async () => ({ user: await api.get<User>('users/me') })),
        },
        actions: {
          openVerification: (_, { url }) => window.location.assign(url),
          announceUser: (_, { user }) => session.send({ type: 'session.user.updated', user }),
        },
      }),
    ),
    storefrontReport: once(async () =>
      (await import('../machines/storefrontReport')).storefrontReportMachine.provide({
        actors: { submitReport: fromPromise(({ input }) => catalog.report(input)) },
        actions: { announceReported: () => toast('storefront-reported', 'Report sent') },
      }),
    ),
    emailConfirmation: once(async () =>
      (await import('../machines/emailConfirmation')).emailConfirmationMachine.provide({
        actors: { confirmEmail: accounts.confirmEmail },
        actions: {
          announceConfirmed: (_, { email }) => {
            const user = session.getSnapshot().context.user;
            if (user)
              session.send({ type: 'session.user.updated', user: { ...user, email, pendingEmail: null } });
          },
        },
      }),
    ),
    savedCards: once(async () => {
      const { cards } = await payments();
      return (await import('../machines/savedCards')).savedCardsMachine.provide({
        actors: {
          listBillingInfo: cards.listBillingInfo,
          tokenizeCard: cards.tokenizeCard,
          saveBillingInfo: cards.saveBillingInfo,
          deleteBillingInfo: cards.deleteBillingInfo,
        },
        actions: {
          announceAdded: () => toast('card-added', 'Card saved'),
          announceRemoved: () => toast('card-removed', 'Card removed'),
        },
      });
    }),
    checkout: once(async () => {
      const [
        { checkoutMachine },
        { cardPaymentMachine },
        { cryptoPaymentMachine },
        { balancePaymentMachine },
        { onrampPaymentMachine },
        { walletPaymentMachine },
        { tokenChargeMachine },
        buyListing,
        pay,
      ] = await Promise.all([
        import('../machines/checkout'),
        import('../machines/cardPayment'),
        import('../machines/cryptoPayment'),
        import('../machines/balancePayment'),
        import('../machines/onrampPayment'),
        import('../machines/walletPayment'),
        import('../machines/tokenCharge'),
        buyListingFlow(),
        payments(),
      ]);
      const { cards, cryptoCalls, evm } = pay;
      return checkoutMachine.provide({
        actors: {
          ...pay.checkoutActors(),
          findPendingCrypto: fromPromise(async () => {
            const userId = session.getSnapshot().context.user?.id;
            return userId ? ((await cryptoCalls.openCharges(userId))[0] ?? null) : null;
          }),
          cancelCrypto: fromPromise(({ input }: { input: { id: string } }) =>
            cryptoCalls.cancelCharge(input.id),
          ),
          cryptoPayment: cryptoPaymentMachine.provide({ actors: pay.cryptoActors() }),
          balancePayment: balancePaymentMachine.provide({ actors: pay.balanceActors() }),
          onrampPayment: onrampPaymentMachine.provide({ actors: pay.wertActors() }),
          walletPayment: walletPaymentMachine.provide({
            actors: pay.walletActors(pay.mobileWallets, cards.createCharge),
          }),
          tokenCharge: tokenChargeMachine.provide({
            actors: evm.tokenActors(api, evm.evmWallet()),
            actions: {
              saveCheckpoint: (_, checkpoint) => evm.tokenCheckpoint.save(checkpoint),
              clearCheckpoint: () => evm.tokenCheckpoint.clear(),
            },
          }),
          readBalance: fromPromise(({ input }: { input: { address: string } }) =>
            flow.fusdBalance(input.address),
          ),
          linkWallet,
          ...collectionActors,
          buyListing,
          cardPayment: cardPaymentMachine.provide({
            actors: {
              listBillingInfo: cards.listBillingInfo,
              tokenizeCard: cards.tokenizeCard,
              createCharge: cards.createCharge,
              getCharge: cards.getCharge,
            },
            actions: {
              saveCheckpoint: (_, checkpoint) => pay.cardCheckpoints.save(checkpoint),
              clearCheckpoint: () => pay.cardCheckpoints.clear(),
            },
          }),
        },
        actions: {
          redirectTo: (_, { url }) => window.location.assign(url),
          announceWalletLinked: (_, { user }) => announceWalletLinked(user),
        },
      });
    }),
    checkoutFailed: once(async () => {
      const { cards, cardCalls } = await payments();
      return (await import('../machines/checkoutFailed')).checkoutFailedMachine.provide({
        actors: {
          findCharge: cards.findCharge,
          syncCharge: fromPromise<CardChargeJson, ChargeSync>(({ input }) =>
            cardCalls.syncCharge(input.id, input.ckoSessionId).then(forgetSettledCheckpoint),
          ),
          loadOrder: cards.loadOrder,
        },
      });
    }),
    cryptoTopup: once(async () => {
      const { cryptoCalls } = await payments();
      return (await import('../machines/cryptoTopup')).cryptoTopupMachine.provide({
        actors: {
          createTopup: fromPromise<CoinbaseChargeJson, TopupRequest>(({ input }) =>
            cryptoCalls.createTopup(input),
          ),
          getCharge: fromPromise<CoinbaseChargeJson, { id: string }>(({ input }) =>
            cryptoCalls.getCharge(input.id),
          ),
        },
        actions: {
          redirectTo: (_, { url }) => window.location.assign(url),
          announceAdded: () => toast('topup-added', 'FUSD added to your balance'),
        },
      });
    }),
    cryptoCanceled: once(async () =>
      (await import('../machines/cryptoCanceled')).cryptoCanceledMachine.provide({
        actors: {
          // The buyer canceled on the provider's page: apply the provider's word now (PATCH {}).
          syncCharge: fromPromise<CoinbaseChargeJson, { id: string }>(({ input }) =>
            api.patch<CoinbaseChargeJson>(`coinbase-charges/${encodeURIComponent(input.id)}`, {}),
          ),
          loadCharge: fromPromise<CoinbaseChargeJson, { id: string }>(({ input }) =>
            api.get<CoinbaseChargeJson>(`coinbase-charges/${encodeURIComponent(input.id)}`),
          ),
        },
      }),
    ),
    payout: once(async () =>
      (await import('../machines/payout')).payoutMachine.provide({
        actors: {
          loadPayouts: fromPromise(() => sales.payouts()),
          createPayout: fromPromise(({ input }) => sales.requestPayout(input)),
          cancelPayout: fromPromise(({ input }) => sales.cancelPayout(input)),
        },
        actions: {
          announceRequested: () => toast('payout-requested', 'Payout requested'),
          announceCancelled: () => toast('payout-cancelled', 'Payout request cancelled'),
        },
      }),
    ),
    ledgerExport: once(async () =>
      (await import('../machines/ledgerExport')).ledgerExportMachine.provide({
        actors: { exportLedger: fromPromise(({ input }) => sales.exportLedger(input)) },
        actions: { announceExported: () => toast('ledger-exported', 'Ledger exported') },
      }),
    ),
    dashboardAccount: once(async () => {
      const upload = await imageUploader();
      return (await import('../machines/dashboardAccount')).dashboardAccountMachine.provide({
        actors: {
          uploadLogo: fromPromise(({ input }) => upload(input.file, 'storefrontLogo')),
          uploadBanner: fromPromise(({ input }) => upload(input.file, 'storefrontBanner')),
          saveStorefront: fromPromise(({ input }) => catalog.updateStorefront(input.id, input.patch)),
          setEnabled: fromPromise(({ input }) =>
            catalog.updateStorefront(input.id, { enabled: input.enabled }),
          ),
        },
        actions: {
          announceSaved: () => toast('storefront-saved', 'Saved'),
          announceEnabled: (_, { storefront }) =>
            toast('storefront-enabled', storefront.enabled ? 'Storefront enabled' : 'Storefront disabled'),
        },
      });
    }),
  };
  /** The imageJob flow to its end: the uploaded URL, or the error of the failed upload. */
  async function imageUploader() {
    const imageJob = await flows.imageJob();
    return (file: WizardFile, assetKind: AssetKind, optimize = true) =>
      new Promise<{ url: string }>((resolve, reject) => {
        const job = createActor(imageJob, { input: { file, assetKind, optimize }, inspect }).start();
        job.subscribe((s) => {
          if (s.status === 'done') resolve({ url: s.output!.url });
          else if (s.matches('failed')) {
            job.stop();
            reject(new ApiError(400, s.context.error!));
          }
        });
      });
  }
  function toast(id: string, text: string) {
    ui.send({ type: 'ui.toast.show', id, text, duration: timings.savedToastMs });
  }

  /** The charge this tab left for 3-D Secure, if any: the checkout restores it. */
  const cardCheckpoint = async () => (await payments()).cardCheckpoints.read();
  /** The payment methods the server runs, in the order the checkout offers them. */
  const paymentRails = async (): Promise<PaymentMethod[]> => {
    try {
      const { cardCalls, mobileWallets } = await payments();
      const config = await cardCalls.config();
      // Apple Pay and Google Pay only where this browser can pay with them.
      const wallets = await mobileWallets.available().catch(() => []);
      return [
        ...wallets,
        ...(config.card ? (['creditCard'] as const) : []),
        ...(config.crypto ? (['crypto'] as const) : []),
        ...(config.balance ? (['balance'] as const) : []),
        ...(config.onramp ? (['onramp'] as const) : []),
        ...(config.token ? (['token'] as const) : []),
      ];
    } catch {
      // Not known now: the card rail says itself when it cannot reach the provider.
      return ['creditCard'];
    }
  };

  /** The utility-token rail when it runs: its network, the browser wallet, a charge to resume. */
  const tokenRail = async (): Promise<TokenRail | null> => {
    const { cardCalls, evm } = await payments();
    const token = (await cardCalls.config().catch(() => null))?.token;
    if (!token) return null;
    return {
      chainId: token.chainId,
      walletAvailable: evm.evmWallet().available(),
      restore: evm.tokenCheckpoint.read(),
    };
  };

  return { flows, cardCheckpoint, paymentRails, tokenRail };
}

export type Flows = ReturnType<typeof createFlows>['flows'];
