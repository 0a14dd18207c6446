import { fromPromise } from 'xstate';
import { timings } from '#domain/constants';
import type { ImageFacts, ImageJobFile } from '#domain/ports/uploads';
import type { CardChargeJson } from '#domain/schemas/checkout';
import type { User } from '#domain/user';
import { once } from '../lazy';
import type { FlowDeps } from './deps';

/**
 * What several groups of flows share: the payment services loaded on demand, the toast, the wallet
 * link, the collection check, the buyListing flow (an NFT's page and the checkout) and image uploads.
 */
export function sharedFlowParts(deps: FlowDeps) {
  const { api, session, ui, flow, nfts, uploads, walletConnected } = deps;
  const payments = paymentServices(deps);
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
    return import('../services/flow')
      .then(({ linkWallet }) => linkWallet(flow, api, me))
      .then((linked) => {
        walletConnected();
        return linked;
      });
  });
  function toast(id: string, text: string) {
    ui.send({ type: 'ui.toast.show', id, text, duration: timings.savedToastMs });
  }
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
    (await import('../../machines/buyListing')).buyListingMachine.provide({
      actors: {
        fusdBalance: fromPromise(({ input }) => flow.fusdBalance(input.address)),
        buyListing: fromPromise(({ input }) => flow.buyListing(input)),
        recordPurchase: fromPromise(({ input }) => nfts.recordPurchase(input)),
        createTopup: fromPromise(async ({ input }) => (await payments()).cryptoCalls.createTopup(input)),
        getTopup: fromPromise(async ({ input }) => (await payments()).cryptoCalls.getCharge(input.id)),
      },
      actions: { redirectTo: (_, { url }) => window.location.assign(url) },
    }),
  );
  const imageJob = once(async () =>
    (await import('../../machines/imageJob')).imageJobMachine.provide({
      actors: {
        startJob: fromPromise(({ input }) => uploads.startJob(input)),
        checkJob: fromPromise(({ input }) => uploads.checkJob(input)),
        plainUpload: fromPromise(({ input }) => uploads.plainUpload(input)),
      },
    }),
  );
  /** A form's images uploaded one after the other, each by the imageJob above (a child machine). */
  const imageUploads = once(async () =>
    (await import('../../machines/imageUploads')).imageUploadsMachine.provide({
      actors: { imageJob: await imageJob() },
    }),
  );
  /** Reads a chosen image in the browser (format, bytes, width, height) before it is sent. */
  const inspectImage = fromPromise<ImageFacts, { file: ImageJobFile }>(({ input }) =>
    uploads.inspectImage(input.file),
  );
  return {
    inspectImage,
    payments,
    forgetSettledCheckpoint,
    linkWallet,
    toast,
    announceWalletLinked,
    collectionActors,
    buyListingFlow,
    imageUploads,
  };
}

/**
 * The payment services (card checks with their brand and phone data, the wallets, crypto, the
 * on-ramp, the utility token) load with the first screen that pays, not with every page.
 */
function paymentServices({ api, flow }: FlowDeps) {
  return once(async () => {
    const [cardsModule, wallets, crypto, evm, wert, balance, checkout] = await Promise.all([
      import('../services/cards'),
      import('../services/wallets'),
      import('../services/crypto'),
      import('../services/evm'),
      import('../services/wert'),
      import('../services/balance'),
      import('../services/checkout'),
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
}

export type SharedFlowParts = ReturnType<typeof sharedFlowParts>;
