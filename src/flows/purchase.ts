import { fromPromise } from 'xstate';
import {
  type FollowedCharge,
  followCard,
  followCrypto,
  followOnramp,
  followOrder,
} from '#domain/chargeProgress';
import type { CardChargeJson } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import type { PaymentMethod, TokenRail } from '../../machines/checkout';
import type { ChargeSync } from '../../machines/checkoutFailed';
import type { TopupRequest } from '../../machines/cryptoTopup';
import type { ChargeRef, FollowRef } from '../../machines/purchaseComplete';
import { once } from '../lazy';
import { browserStorage } from '../services/storage';
import type { FlowDeps } from './deps';
import type { SharedFlowParts } from './shared';

/** The payment flows: the checkout and its rails, saved cards, top-ups, and the pages a payment ends on. */
export function purchaseFlows(deps: FlowDeps, shared: SharedFlowParts) {
  return { ...checkoutFlows(deps, shared), ...paymentEndFlows(deps, shared) };
}

/** The checkout with its rails, and the saved cards. */
function checkoutFlows(deps: FlowDeps, shared: SharedFlowParts) {
  const { api, session, flow } = deps;
  const { payments, linkWallet, toast, announceWalletLinked, collectionActors, buyListingFlow } = shared;
  return {
    savedCards: once(async () => {
      const { cards } = await payments();
      return (await import('../../machines/savedCards')).savedCardsMachine.provide({
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
        import('../../machines/checkout'),
        import('../../machines/cardPayment'),
        import('../../machines/cryptoPayment'),
        import('../../machines/balancePayment'),
        import('../../machines/onrampPayment'),
        import('../../machines/walletPayment'),
        import('../../machines/tokenCharge'),
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
          // The checkout leaves for a rail's page itself (every rail's redirect, in one place).
          buyListing: buyListing.provide({ actions: { redirectTo: () => {} } }),
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
              rememberCountry: (_, country) => browserStorage.setBillingCountry(country),
            },
          }),
        },
        actions: {
          redirectTo: (_, { url }) => window.location.assign(url),
          announceWalletLinked: (_, { user }) => announceWalletLinked(user),
        },
      });
    }),
  };
}

/** The pages a payment ends on (complete, failed, crypto canceled) and the crypto top-up's. */
function paymentEndFlows(deps: FlowDeps, shared: SharedFlowParts) {
  const { api, nfts } = deps;
  const { payments, forgetSettledCheckpoint, toast } = shared;
  return {
    purchaseComplete: once(async () =>
      (await import('../../machines/purchaseComplete')).purchaseCompleteMachine.provide({
        actors: {
          findPurchase: fromPromise(({ input }) => nfts.findPurchase(input)),
          // The order as the server has it: through the charge of the rail that paid it, else itself.
          follow: fromPromise<FollowedCharge, FollowRef>(async ({ input: { charge, order } }) => {
            if (!charge) return followOrder(await api.get('/orders/{id}', { params: { id: order! } }));
            const params = { id: charge.id };
            if (charge.rail === 'crypto')
              return followCrypto(await api.get('/coinbase-charges/{id}', { params }));
            if (charge.rail === 'onramp')
              return followOnramp(await api.get('/wert-charges/{id}', { params }));
            return followCard(await api.get('/checkout-com-charges/{id}', { params }));
          }),
          // …and as its provider has it now (the server asks and applies what it says).
          syncCharge: fromPromise<FollowedCharge, ChargeRef>(async ({ input }) => {
            const { id } = input;
            if (input.rail === 'crypto')
              return followCrypto(await api.patch('/coinbase-charges/{id}', { params: { id }, json: {} }));
            if (input.rail === 'onramp')
              return followOnramp(await api.patch('/wert-charges/{id}', { params: { id }, json: {} }));
            const charge = await api.patch('/checkout-com-charges/{id}/actions/sync', {
              params: { id },
              json: {
                ckoSessionId: input.ckoSessionId ?? undefined,
              },
            });
            return followCard(await forgetSettledCheckpoint(charge));
          }),
        },
      }),
    ),
    checkoutFailed: once(async () => {
      const { cards, cardCalls } = await payments();
      return (await import('../../machines/checkoutFailed')).checkoutFailedMachine.provide({
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
      return (await import('../../machines/cryptoTopup')).cryptoTopupMachine.provide({
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
      (await import('../../machines/cryptoCanceled')).cryptoCanceledMachine.provide({
        actors: {
          // The buyer canceled on the provider's page: apply the provider's word now (PATCH {}).
          syncCharge: fromPromise<CoinbaseChargeJson, { id: string }>(({ input }) =>
            api.patch('/coinbase-charges/{id}', { params: { id: input.id }, json: {} }),
          ),
          loadCharge: fromPromise<CoinbaseChargeJson, { id: string }>(({ input }) =>
            api.get('/coinbase-charges/{id}', { params: { id: input.id } }),
          ),
        },
      }),
    ),
  };
}

/** What the checkout asks before it starts: the rails the server runs and the charge to restore. */
export function paymentQueries({ payments }: SharedFlowParts) {
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
  return { cardCheckpoint, paymentRails, tokenRail };
}
