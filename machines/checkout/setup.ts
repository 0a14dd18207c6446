import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { retryable, toErrorBody } from '#domain/errors';
import type { CardChargeJson, FreeClaimJson } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import type { User } from '#domain/user';
import { balancePaymentMachine } from '../balancePayment';
import { buyListingMachine } from '../buyListing';
import { cardPaymentMachine } from '../cardPayment';
import { cryptoPaymentMachine } from '../cryptoPayment';
import { onrampPaymentMachine } from '../onrampPayment';
import type { RailOutcome } from '../railOutcome';
import { tokenChargeMachine } from '../tokenCharge';
import { walletPaymentMachine } from '../walletPayment';
import { claimedResult, railResult } from './rails';
import type { CheckoutContext, CheckoutEvent, CheckoutInput, CheckoutOutput } from './types';

/** The checkout machine's outside work (actors and child machines), guards and actions; its states are in ../checkout.ts. */

/** The error of a failed invoke, for showError. */
export const failure = {
  type: 'showError',
  params: ({ event }: { event: { error: unknown } }) => event.error,
} as const;

export const checkoutSetup = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    input: {} as CheckoutInput,
    output: {} as CheckoutOutput,
    tags: {} as 'busy',
    // The child machines the view renders, by invoke id.
    children: {} as {
      cardPayment: 'cardPayment';
      cryptoPayment: 'cryptoPayment';
      balancePayment: 'balancePayment';
      onrampPayment: 'onrampPayment';
      walletPayment: 'walletPayment';
      tokenCharge: 'tokenCharge';
      buyListing: 'buyListing';
    },
  },
  actors: {
    /** GET checkout-com-charges?unresolved=true: the buyer's first charge waiting for 3-D Secure. */
    findPendingCharge: fromPromise<CardChargeJson | null>(async () => {
      throw new Error('findPendingCharge not provided');
    }),
    /** The buyer's first crypto charge still open (NEW or UNRESOLVED and not expired), or null. */
    findPendingCrypto: fromPromise<CoinbaseChargeJson | null>(async () => {
      throw new Error('findPendingCrypto not provided');
    }),
    /** PATCH coinbase-charges/{id} { status: CANCELED }. */
    cancelCrypto: fromPromise<CoinbaseChargeJson, { id: string }>(async () => {
      throw new Error('cancelCrypto not provided');
    }),
    /** POST checkout-com-charges/{id}/actions/cancel. */
    cancelCharge: fromPromise<CardChargeJson, { id: string }>(async () => {
      throw new Error('cancelCharge not provided');
    }),
    /** POST free-blueprint-claims. */
    claimFree: fromPromise<FreeClaimJson, { blueprintId: string }>(async () => {
      throw new Error('claimFree not provided');
    }),
    /** Connects and proves a wallet, then links it to the account; answers the updated user. */
    linkWallet: fromPromise<{ user: User }, void>(async () => {
      throw new Error('linkWallet not provided');
    }),
    /** Whether the wallet holds a collection and an FUSD vault. */
    checkCollection: fromPromise<{ ready: boolean }, { address: string }>(async () => {
      throw new Error('checkCollection not provided');
    }),
    /** The account-setup transaction, signed in the wallet and awaited until sealed. */
    setupCollection: fromPromise<void, { address: string }>(async () => {
      throw new Error('setupCollection not provided');
    }),
    /** The wallet's FUSD balance, in cents. */
    readBalance: fromPromise<number, { address: string }>(async () => {
      throw new Error('readBalance not provided');
    }),
    buyListing: buyListingMachine,
    balancePayment: balancePaymentMachine,
    onrampPayment: onrampPaymentMachine,
    walletPayment: walletPaymentMachine,
    tokenCharge: tokenChargeMachine,
    cardPayment: cardPaymentMachine,
    cryptoPayment: cryptoPaymentMachine,
  },
  guards: {
    signedOut: ({ context }) => context.user === null,
    hasCheckpoint: ({ context }) => context.checkpoint !== null,
    chargeInFlight: ({ context }) => context.checkpoint?.step === 'charging',
    found: (_, charge: CardChargeJson | null) => charge !== null,
    cryptoFound: (_, charge: CoinbaseChargeJson | null) => charge !== null,
    /** A payment method the server runs (the balance not for a printed item's new edition). */
    offered: ({ context, event }) => {
      assertEvent(event, 'checkout.method.select');
      if (event.method === 'balance' && context.item.printed) return false;
      if (event.method === 'token' && !context.token) return false;
      return context.rails.includes(event.method);
    },
    goingToCrypto: ({ context }) => context.target === 'crypto',
    goingToBalance: ({ context }) => context.target === 'balance',
    goingToOnramp: ({ context }) => context.target === 'onramp',
    goingToToken: ({ context }) => context.target === 'token',
    goingToWallet: ({ context }) => context.target === 'applepay' || context.target === 'googlepay',
    /** The balance rail runs and the buyer has a wallet whose balance can be read. */
    balanceReadable: ({ context }) =>
      context.rails.includes('balance') && !context.item.printed && context.walletAddress !== null,
    /** A free item with an edition left is claimed at once. */
    claimsFree: ({ context }) => context.item.free && !context.item.soldOut,
    offersListings: ({ context }) => context.listings.length > 0,
    /** The new edition, while one can be bought (a free one is claimed before the editions show). */
    newEdition: ({ context, event }) => {
      assertEvent(event, 'checkout.edition.select');
      return event.listingId === null && !context.item.soldOut;
    },
    /** Back from a top-up: its listing is still one of the item's resale listings. */
    reopensListing: ({ context }) =>
      !!context.reopen?.listing &&
      context.listings.some((n) => n.activeSaleListing?.id === context.reopen!.listing),
    /** Back from a top-up of the balance rail, which is still offered for a new edition. */
    reopensBalance: ({ context }) =>
      context.reopen !== null &&
      context.reopen.listing === null &&
      context.rails.includes('balance') &&
      !context.item.printed &&
      !context.item.free &&
      !context.item.soldOut &&
      context.walletAddress !== null,
    knownListing: ({ context, event }) => {
      assertEvent(event, 'checkout.edition.select');
      return context.listings.some((n) => n.id === event.listingId && n.activeSaleListing);
    },
    collectionReady: ({ context }) => context.collectionReady,
    resumingCharge: ({ context }) => context.resume !== null || context.checkpoint !== null,
    noWallet: ({ context }) => context.walletAddress === null,
    collectionSetUp: (_, output: { ready: boolean }) => output.ready,
    setUpOnceLinked: ({ context }) => context.setUpOnceLinked,
    goingToClaim: ({ context }) => context.target === 'claim',
    /** The error is one a retry may get past (a refusal, such as a claim made already, is not). */
    retryable: ({ context }) => retryable(context.error),
    goingToListing: ({ context }) => context.target === 'listing',
    railPaid: ({ context }) => context.outcome?.type === 'paid',
    railRedirect: ({ context }) => context.outcome?.type === 'redirect',
    railFailed: ({ context }) => context.outcome?.type === 'failed',
  },
  actions: {
    /** Leaves for a rail's page: 3-D Secure, the crypto provider's or a top-up's. */
    redirectTo: (_, _params: { url: string }) => {},
    /** Hands the user with the linked wallet to the session. */
    announceWalletLinked: (_, _params: { user: User }) => {},
    askToSignUp: assign({ result: { kind: 'signUp' as const } }),
    rememberPendingCharge: assign({ pendingCharge: (_, charge: CardChargeJson) => charge }),
    resumePendingCharge: assign({
      resume: ({ context }) => context.pendingCharge,
      pendingCharge: null,
      error: null,
    }),
    forgetPendingCharge: assign({ pendingCharge: null }),
    rememberPendingCrypto: assign({ pendingCrypto: (_, charge: CoinbaseChargeJson) => charge }),
    forgetPendingCrypto: assign({ pendingCrypto: null }),
    /** Back to the open crypto charge's payment page. */
    resumeCrypto: assign({
      result: ({ context }) => ({
        kind: 'redirecting' as const,
        url: context.pendingCrypto?.hostedUrl ?? '',
      }),
    }),
    /** Back from a resumed or restored charge: the next card payment starts afresh. */
    forgetCharge: assign({ resume: null, checkpoint: null }),
    sortEditions: assign({
      sort: ({ event }) => {
        assertEvent(event, 'checkout.edition.sort');
        return event.sort;
      },
    }),
    aimAtClaim: assign({ target: 'claim' as const }),
    aimAtMethod: assign({
      target: ({ event }) => {
        assertEvent(event, 'checkout.method.select');
        return event.method;
      },
    }),
    chooseListing: assign(({ context, event }) => {
      assertEvent(event, 'checkout.edition.select');
      return {
        target: 'listing' as const,
        listing: context.listings.find((n) => n.id === event.listingId) ?? null,
      };
    }),
    reopenListing: assign(({ context }) => ({
      target: 'listing' as const,
      listing: context.listings.find((n) => n.activeSaleListing?.id === context.reopen!.listing) ?? null,
    })),
    reopenBalance: assign({ target: 'balance' as const }),
    /** The rail opened again has started: another visit to it starts afresh. */
    forgetReopen: assign({ reopen: null }),
    keepWallet: assign({ walletAddress: (_, user: User) => user.wallet.walletAddress }),
    setUpOnceLinked: assign({ setUpOnceLinked: true }),
    setUpStarted: assign({ setUpOnceLinked: false }),
    keepBalance: assign({ balance: (_, balance: number) => balance }),
    markCollectionReady: assign({ collectionReady: true }),
    showError: assign({ error: (_, error: unknown) => toErrorBody(error) }),
    clearError: assign({ error: null }),
    endClaimed: assign({
      result: (_, claim: FreeClaimJson) => claimedResult(claim),
    }),
    keepOutcome: assign({ outcome: (_, outcome: RailOutcome) => outcome }),
    /** How a rail ended: paid, off to another page, or declined. */
    endRail: assign({ result: ({ context }) => railResult(context.outcome!) }),
  },
});
