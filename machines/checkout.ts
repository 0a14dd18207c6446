import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { toDate } from '#domain/dates';
import { type ApiErrorBody, toErrorBody } from '#domain/errors';
import type { NftJson } from '#domain/nft';
import { orderCompleteTarget } from '#domain/purchase';
import type { CardChargeJson, CheckoutItemKind, FreeClaimJson } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import type { User } from '#domain/user';
import { type BalancePaymentOutput, balancePaymentMachine } from './balancePayment';
import { type BuyListingOutput, buyListingInput, buyListingMachine } from './buyListing';
import { type CardCheckpoint, type CardPaymentOutput, cardPaymentMachine } from './cardPayment';
import { type CryptoPaymentOutput, cryptoPaymentMachine } from './cryptoPayment';
import { type OnrampPaymentOutput, onrampPaymentMachine } from './onrampPayment';
import { type TokenChargeOutput, type TokenCheckpoint, tokenChargeMachine } from './tokenCharge';
import { walletPaymentMachine } from './walletPayment';

/**
 * The checkout of a blueprint or pack (pressing Buy on its item page).
 *
 * Pressing buy: a visitor is asked to sign up. A signed-in buyer's open crypto charge comes first:
 * it is resumed on the provider's payment page or canceled. Then a card charge still waiting for
 * 3-D Secure: it is resumed (read again, never charged twice) or canceled. A charge the
 * tab remembers (its checkpoint) that is no longer waiting is read to show how it ended; one whose
 * creation was cut off is read before anything else. Then a free
 * item is claimed; a pack, or an item nobody resells, goes to the payment methods; otherwise the
 * buyer chooses between the new edition and the resale listings.
 *
 * Before paying or claiming, the buyer's wallet must hold a collection: without a wallet the buyer
 * connects one, without a collection the buyer sets it up in the wallet; then the flow goes on to
 * where it was going (the claim, the card rail or the listing). Once ready it is not checked again.
 *
 * Resale listings are bought with the stablecoin balance (the buyListing machine); a new edition by
 * card (the cardPayment machine) or a mobile wallet (Apple Pay, Google Pay: the walletPayment
 * machine, ending as the card rail does), with crypto on the provider's hosted page (the cryptoPayment
 * machine), with the FUSD balance on chain (the balancePayment machine, whose balance shows beside
 * its rail) or by card through the card-to-crypto on-ramp's widget (the onrampPayment machine); the
 * payment methods offered are the rails the server runs (`rails`). A card checkpoint (the charge the buyer left for 3-D Secure) goes
 * straight to the card rail, which reads that charge. The flow ends with its output: signUp,
 * purchased (where the purchase-complete page is), failed (the failed order), redirecting (to 3-D
 * Secure) or null (closed). Closing is possible on every panel where nothing runs.
 */
export interface CheckoutItem {
  kind: CheckoutItemKind;
  id: string;
  title: string;
  /** Cents. */
  price: number;
  /** Price 0 and not in a pack: claimed, not bought. */
  free: boolean;
  /** No new edition can be bought now (none left, or not on sale): only the listings are offered. */
  soldOut?: boolean;
  /**
   * Its editions were printed ahead of the sale: the balance pays only its resale listings, so the
   * balance rail is not offered for a new edition.
   */
  printed?: boolean;
}
export interface CheckoutUser {
  id: string;
  email: string;
  walletAddress: string | null;
}
export interface CheckoutInput {
  item: CheckoutItem;
  /** Resale listings of the item (each with activeSaleListing); empty for packs. */
  listings: NftJson[];
  /** The signed-in buyer; null for a visitor. */
  user: CheckoutUser | null;
  /** The charge the buyer left for 3-D Secure, as the tab remembers it. */
  checkpoint?: CardCheckpoint | null;
  /** The payment methods the server runs (GET config/payments), in the order offered. */
  rails: PaymentMethod[];
  /** The utility-token rail (when it runs): its network, whether a browser wallet is there, and
   * the tab's checkpoint of a token charge under way. */
  token?: TokenRail | null;
}
export interface TokenRail {
  chainId: number;
  walletAvailable: boolean;
  restore: TokenCheckpoint | null;
}
export type OrderCompleteTarget = ReturnType<typeof orderCompleteTarget>;
export type CheckoutOutput =
  | { kind: 'signUp' }
  | { kind: 'purchased'; target: OrderCompleteTarget }
  | { kind: 'failed'; orderId: string }
  | { kind: 'redirecting'; url: string }
  | null;
export type EditionSort = 'priceAsc' | 'priceDesc' | 'edition';
export type PaymentMethod =
  | 'creditCard'
  | 'applepay'
  | 'googlepay'
  | 'crypto'
  | 'balance'
  | 'onramp'
  | 'token';
/** Where the flow goes once the collection is ready. */
export type CheckoutTarget =
  | 'claim'
  | 'creditCard'
  | 'applepay'
  | 'googlepay'
  | 'crypto'
  | 'balance'
  | 'onramp'
  | 'token'
  | 'listing';

export interface CheckoutContext {
  item: CheckoutItem;
  listings: NftJson[];
  user: CheckoutUser | null;
  walletAddress: string | null;
  checkpoint: CardCheckpoint | null;
  rails: PaymentMethod[];
  token: TokenRail | null;
  /** The wallet's FUSD balance in cents, read when the payment methods show (balance rail). */
  balance: number | null;
  /** The buyer's open crypto charge, found when buy was pressed. */
  pendingCrypto: CoinbaseChargeJson | null;
  sort: EditionSort;
  /** The buyer's charge waiting for 3-D Secure, found when buy was pressed. */
  pendingCharge: CardChargeJson | null;
  /** The charge the card rail resumes instead of paying afresh. */
  resume: CardChargeJson | null;
  /** The resale listing chosen. */
  listing: NftJson | null;
  target: CheckoutTarget | null;
  collectionReady: boolean;
  error: ApiErrorBody | null;
  result: CheckoutOutput;
}
export type CheckoutEvent =
  | { type: 'checkout.close' }
  | { type: 'checkout.back' }
  | { type: 'checkout.retry' }
  | { type: 'checkout.edition.sort'; sort: EditionSort }
  /** A resale listing by its NFT id, or the new edition (null). */
  | { type: 'checkout.edition.select'; listingId: string | null }
  | { type: 'checkout.method.select'; method: PaymentMethod }
  | { type: 'checkout.charge.resume' }
  | { type: 'checkout.charge.cancel' }
  | { type: 'checkout.wallet.connect' }
  | { type: 'checkout.collection.setup' };

/** Where a card purchase ends: the order's item, since the order was made, reading the charge. */
export function cardTarget(charge: CardChargeJson): OrderCompleteTarget {
  const { item, createdAt } = charge.order;
  const target = orderCompleteTarget({
    id: item.id,
    kind: item.kind === 'pack' ? 'blueprintPack' : 'blueprint',
    startedAt: toDate(createdAt).getTime(),
    type: 'creditCard',
  });
  return { ...target, search: { ...target.search, charge: charge.id } };
}

/** The checkout's end for the card rail's: paid, redirect and failed end it; back does not. */
function cardResult(outcome: CardPaymentOutput): CheckoutOutput {
  switch (outcome.kind) {
    case 'paid':
      return { kind: 'purchased', target: cardTarget(outcome.charge) };
    case 'redirect':
      return { kind: 'redirecting', url: outcome.url };
    case 'failed':
      return { kind: 'failed', orderId: outcome.orderId };
    default:
      return null;
  }
}
const redirectUrl = (outcome: CardPaymentOutput) => (outcome.kind === 'redirect' ? outcome.url : '');
type Bought = Extract<BuyListingOutput, { kind: 'bought' }>;
/** The error of a failed invoke, for showError. */
const failure = {
  type: 'showError',
  params: ({ event }: { event: { error: unknown } }) => event.error,
} as const;

export const checkoutMachine = setup({
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
    tokenPaid: (_, output: TokenChargeOutput) => output.kind === 'paid',
    goingToWallet: ({ context }) => context.target === 'applepay' || context.target === 'googlepay',
    onrampPaid: (_, output: OnrampPaymentOutput) => output.kind === 'paid',
    /** The balance rail runs and the buyer has a wallet whose balance can be read. */
    balanceReadable: ({ context }) =>
      context.rails.includes('balance') && !context.item.printed && context.walletAddress !== null,
    balancePaid: (_, output: BalancePaymentOutput) => output.kind === 'paid',
    balanceRedirect: (_, output: BalancePaymentOutput) => output.kind === 'redirect',
    cryptoRedirect: (_, output: CryptoPaymentOutput) => output.kind === 'redirect',
    /** A free item with an edition left is claimed at once. */
    claimsFree: ({ context }) => context.item.free && !context.item.soldOut,
    offersListings: ({ context }) => context.listings.length > 0,
    /** The new edition, while one can be bought (a free one is claimed before the editions show). */
    newEdition: ({ context, event }) => {
      assertEvent(event, 'checkout.edition.select');
      return event.listingId === null && !context.item.soldOut;
    },
    knownListing: ({ context, event }) => {
      assertEvent(event, 'checkout.edition.select');
      return context.listings.some((n) => n.id === event.listingId && n.activeSaleListing);
    },
    collectionReady: ({ context }) => context.collectionReady,
    resumingCharge: ({ context }) => context.resume !== null || context.checkpoint !== null,
    noWallet: ({ context }) => context.walletAddress === null,
    collectionSetUp: (_, output: { ready: boolean }) => output.ready,
    goingToClaim: ({ context }) => context.target === 'claim',
    goingToListing: ({ context }) => context.target === 'listing',
    bought: (_, output: BuyListingOutput) => output?.kind === 'bought',
    listingTopup: (_, output: BuyListingOutput) => output?.kind === 'redirect',
    cardPaid: (_, output: CardPaymentOutput) => output.kind === 'paid',
    cardRedirect: (_, output: CardPaymentOutput) => output.kind === 'redirect',
    cardFailed: (_, output: CardPaymentOutput) => output.kind === 'failed',
  },
  actions: {
    /** Leaves for the card provider's 3-D Secure page. */
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
    keepWallet: assign({ walletAddress: (_, user: User) => user.wallet.walletAddress }),
    keepBalance: assign({ balance: (_, balance: number) => balance }),
    markCollectionReady: assign({ collectionReady: true }),
    showError: assign({ error: (_, error: unknown) => toErrorBody(error) }),
    clearError: assign({ error: null }),
    endClaimed: assign({
      result: ({ context }, claim: FreeClaimJson) => ({
        kind: 'purchased' as const,
        target: orderCompleteTarget({
          id: context.item.id,
          kind: 'blueprint',
          startedAt: toDate(claim.order.createdAt).getTime(),
          type: 'freeBlueprintClaim',
        }),
      }),
    }),
    endBought: assign({
      result: (_, bought: Bought) => ({
        kind: 'purchased' as const,
        target: orderCompleteTarget({
          id: bought.listingId,
          kind: 'nftSaleListing',
          startedAt: toDate(bought.purchase.purchasedOn).getTime(),
          type: 'saleListing',
          serial: bought.seriesNumber,
        }),
      }),
    }),
    /** How the card rail ended: paid, sent to 3-D Secure or declined. */
    endCard: assign({ result: (_, outcome: CardPaymentOutput) => cardResult(outcome) }),
    /** Paid from the balance (the order), or off to a top-up's payment page. */
    endBalance: assign({
      result: (_, outcome: BalancePaymentOutput): CheckoutOutput => {
        if (outcome.kind === 'redirect') return { kind: 'redirecting', url: outcome.url };
        if (outcome.kind !== 'paid') return null;
        const { item, createdAt } = outcome.order.order;
        return {
          kind: 'purchased',
          target: orderCompleteTarget({
            id: item.id,
            kind: item.kind === 'pack' ? 'blueprintPack' : 'blueprint',
            startedAt: toDate(createdAt).getTime(),
            type: 'fusd',
          }),
        };
      },
    }),
    /** Paid in NFM from the browser wallet: the purchase-complete page waits for the edition. */
    endToken: assign({
      result: (_, outcome: TokenChargeOutput): CheckoutOutput => {
        if (outcome.kind !== 'paid' || !outcome.charge.order) return null;
        const { item, createdAt } = outcome.charge.order;
        return {
          kind: 'purchased',
          target: orderCompleteTarget({
            id: item.id,
            kind: item.kind === 'pack' ? 'blueprintPack' : 'blueprint',
            startedAt: toDate(createdAt).getTime(),
            type: 'token',
          }),
        };
      },
    }),
    /** Paid by card through the on-ramp: the purchase-complete page follows the charge to the edition. */
    endOnramp: assign({
      result: (_, outcome: OnrampPaymentOutput): CheckoutOutput => {
        if (outcome.kind !== 'paid') return null;
        const { item, createdAt } = outcome.charge.order;
        const target = orderCompleteTarget({
          id: item.id,
          kind: item.kind === 'pack' ? 'blueprintPack' : 'blueprint',
          startedAt: toDate(createdAt).getTime(),
          type: 'wert',
        });
        return {
          kind: 'purchased',
          target: { ...target, search: { ...target.search, charge: outcome.charge.id } },
        };
      },
    }),
    /** The crypto rail opened a hosted charge: the buyer pays on the provider's page. */
    endCrypto: assign({
      result: (_, outcome: CryptoPaymentOutput) =>
        outcome.kind === 'redirect' ? { kind: 'redirecting' as const, url: outcome.url } : null,
    }),
  },
}).createMachine({
  id: 'checkout',
  context: ({ input }) => ({
    item: input.item,
    listings: input.listings,
    user: input.user,
    walletAddress: input.user?.walletAddress ?? null,
    checkpoint: input.checkpoint ?? null,
    rails: input.rails,
    token: input.token ?? null,
    balance: null,
    pendingCrypto: null,
    sort: 'priceAsc',
    pendingCharge: null,
    resume: null,
    listing: null,
    target: null,
    collectionReady: false,
    error: null,
    result: null,
  }),
  initial: 'start',
  output: ({ context }) => context.result,
  states: {
    start: {
      always: [
        { guard: 'signedOut', target: 'signUp', actions: 'askToSignUp' },
        // Left while the charge was being created: only reading that charge can tell how it went.
        { guard: 'chargeInFlight', target: 'creditCard' },
        { target: 'findingPendingCrypto' },
      ],
    },
    findingPendingCrypto: {
      tags: ['busy'],
      invoke: {
        id: 'findPendingCrypto',
        src: 'findPendingCrypto',
        onDone: [
          {
            guard: { type: 'cryptoFound', params: ({ event }) => event.output },
            target: 'cryptoPending',
            actions: { type: 'rememberPendingCrypto', params: ({ event }) => event.output! },
          },
          { target: 'findingPending' },
        ],
        // Not known now: a second crypto charge would be refused (CHARGE_PENDING) with its reason.
        onError: { target: 'findingPending' },
      },
    },
    cryptoPending: {
      on: {
        'checkout.charge.resume': {
          target: 'redirecting',
          actions: [
            'resumeCrypto',
            {
              type: 'redirectTo',
              params: ({ context }) => ({ url: context.pendingCrypto?.hostedUrl ?? '' }),
            },
          ],
        },
        'checkout.charge.cancel': { target: 'cancellingCrypto', actions: 'clearError' },
        'checkout.close': 'closed',
      },
    },
    cancellingCrypto: {
      tags: ['busy'],
      invoke: {
        id: 'cancelCrypto',
        src: 'cancelCrypto',
        input: ({ context }) => ({ id: context.pendingCrypto!.id }),
        onDone: { target: 'findingPending', actions: 'forgetPendingCrypto' },
        // Paid meanwhile (CHARGE_NOT_CANCELLABLE) or not reached: the reason shows on the panel.
        onError: { target: 'cryptoPending', actions: failure },
      },
    },
    findingPending: {
      tags: ['busy'],
      invoke: {
        id: 'findPendingCharge',
        src: 'findPendingCharge',
        onDone: [
          {
            guard: { type: 'found', params: ({ event }) => event.output },
            target: 'cardPending',
            actions: { type: 'rememberPendingCharge', params: ({ event }) => event.output! },
          },
          // The charge the buyer left for 3-D Secure ended meanwhile: reading it shows how.
          { guard: 'hasCheckpoint', target: 'creditCard' },
          { target: 'choosing' },
        ],
        // Not known now: a second charge would be refused (CHARGE_PENDING) with its reason.
        onError: [{ guard: 'hasCheckpoint', target: 'creditCard' }, { target: 'choosing' }],
      },
    },
    choosing: {
      always: [
        { guard: 'claimsFree', target: 'collection', actions: 'aimAtClaim' },
        { guard: 'offersListings', target: 'selectEdition' },
        { target: 'selectPaymentMethod' },
      ],
    },
    cardPending: {
      on: {
        'checkout.charge.resume': { target: 'creditCard', actions: 'resumePendingCharge' },
        'checkout.charge.cancel': { target: 'cancellingCharge', actions: 'clearError' },
        'checkout.close': 'closed',
      },
    },
    cancellingCharge: {
      tags: ['busy'],
      invoke: {
        id: 'cancelCharge',
        src: 'cancelCharge',
        input: ({ context }) => ({ id: context.pendingCharge!.id }),
        onDone: { target: 'choosing', actions: 'forgetPendingCharge' },
        // Settled meanwhile (CHARGE_NOT_CANCELLABLE) or not reached: resuming reads how it ended.
        onError: { target: 'cardPending', actions: failure },
      },
    },
    selectEdition: {
      on: {
        'checkout.edition.sort': { actions: 'sortEditions' },
        'checkout.edition.select': [
          { guard: 'newEdition', target: 'selectPaymentMethod' },
          { guard: 'knownListing', target: 'collection', actions: 'chooseListing' },
        ],
        'checkout.close': 'closed',
      },
    },
    selectPaymentMethod: {
      // The balance shows beside its rail (with "Insufficient funds" when short); reading it never blocks.
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'balanceReadable', target: 'readingBalance' }, { target: 'shown' }] },
        readingBalance: {
          invoke: {
            id: 'readBalance',
            src: 'readBalance',
            input: ({ context }) => ({ address: context.walletAddress! }),
            onDone: {
              target: 'shown',
              actions: { type: 'keepBalance', params: ({ event }) => event.output },
            },
            onError: 'shown',
          },
        },
        shown: {},
      },
      on: {
        'checkout.method.select': { guard: 'offered', target: 'collection', actions: 'aimAtMethod' },
        'checkout.back': [{ guard: 'offersListings', target: 'selectEdition' }, { target: 'closed' }],
        'checkout.close': 'closed',
      },
    },
    collection: {
      initial: 'deciding',
      states: {
        deciding: {
          always: [
            { guard: 'collectionReady', target: 'ready' },
            { guard: 'noWallet', target: 'walletRequired' },
            { target: 'checking' },
          ],
        },
        walletRequired: {
          on: {
            'checkout.wallet.connect': { target: 'linkingWallet', actions: 'clearError' },
            'checkout.close': '#checkout.closed',
          },
        },
        linkingWallet: {
          tags: ['busy'],
          invoke: {
            id: 'linkWallet',
            src: 'linkWallet',
            onDone: {
              target: 'deciding',
              actions: [
                { type: 'keepWallet', params: ({ event }) => event.output.user },
                { type: 'announceWalletLinked', params: ({ event }) => ({ user: event.output.user }) },
              ],
            },
            onError: { target: 'walletRequired', actions: failure },
          },
        },
        checking: {
          tags: ['busy'],
          invoke: {
            id: 'checkCollection',
            src: 'checkCollection',
            input: ({ context }) => ({ address: context.walletAddress! }),
            onDone: [
              {
                guard: { type: 'collectionSetUp', params: ({ event }) => event.output },
                target: 'ready',
                actions: 'markCollectionReady',
              },
              { target: 'required' },
            ],
            onError: { target: 'checkFailed', actions: failure },
          },
        },
        checkFailed: {
          on: {
            'checkout.retry': { target: 'checking', actions: 'clearError' },
            'checkout.close': '#checkout.closed',
          },
        },
        required: {
          on: {
            'checkout.collection.setup': { target: 'settingUp', actions: 'clearError' },
            'checkout.close': '#checkout.closed',
          },
        },
        settingUp: {
          tags: ['busy'],
          invoke: {
            id: 'setupCollection',
            src: 'setupCollection',
            input: ({ context }) => ({ address: context.walletAddress! }),
            onDone: 'checking',
            onError: { target: 'required', actions: failure },
          },
        },
        ready: {
          always: [
            { guard: 'goingToClaim', target: '#checkout.claiming' },
            { guard: 'goingToListing', target: '#checkout.buyingListing' },
            { guard: 'goingToCrypto', target: '#checkout.crypto' },
            { guard: 'goingToBalance', target: '#checkout.balance' },
            { guard: 'goingToOnramp', target: '#checkout.onramp' },
            { guard: 'goingToToken', target: '#checkout.token' },
            { guard: 'goingToWallet', target: '#checkout.wallet' },
            { target: '#checkout.creditCard' },
          ],
        },
      },
    },
    claiming: {
      tags: ['busy'],
      invoke: {
        id: 'claimFree',
        src: 'claimFree',
        input: ({ context }) => ({ blueprintId: context.item.id }),
        onDone: {
          target: 'purchased',
          actions: { type: 'endClaimed', params: ({ event }) => event.output },
        },
        onError: { target: 'claimFailed', actions: failure },
      },
    },
    claimFailed: {
      on: {
        'checkout.retry': { target: 'claiming', actions: 'clearError' },
        'checkout.close': 'closed',
      },
    },
    buyingListing: {
      invoke: {
        id: 'buyListing',
        src: 'buyListing',
        input: ({ context }) =>
          buyListingInput(context.listing!, context.walletAddress!, context.rails.includes('crypto')),
        onDone: [
          {
            guard: { type: 'bought', params: ({ event }) => event.output },
            target: 'purchased',
            actions: { type: 'endBought', params: ({ event }) => event.output as Bought },
          },
          // Off to a crypto top-up's page (the buyListing flow sent the browser there).
          {
            guard: { type: 'listingTopup', params: ({ event }) => event.output },
            target: 'redirecting',
            actions: assign({
              result: ({ event }) =>
                event.output?.kind === 'redirect'
                  ? { kind: 'redirecting' as const, url: event.output.url }
                  : null,
            }),
          },
          // Closed without buying: the editions again.
          { target: 'selectEdition' },
        ],
      },
    },
    creditCard: {
      invoke: {
        id: 'cardPayment',
        src: 'cardPayment',
        input: ({ context }) => {
          const email = context.user!.email;
          const charge = context.resume;
          if (charge) return { item: charge.order.item, price: charge.order.amount, email, resume: charge };
          const { kind, id, title, price } = context.item;
          return { item: { kind, id, title }, price, email, checkpoint: context.checkpoint };
        },
        onDone: [
          {
            guard: { type: 'cardPaid', params: ({ event }) => event.output },
            target: 'purchased',
            actions: { type: 'endCard', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'cardRedirect', params: ({ event }) => event.output },
            target: 'redirecting',
            actions: [
              { type: 'endCard', params: ({ event }) => event.output },
              { type: 'redirectTo', params: ({ event }) => ({ url: redirectUrl(event.output) }) },
            ],
          },
          {
            guard: { type: 'cardFailed', params: ({ event }) => event.output },
            target: 'failed',
            actions: { type: 'endCard', params: ({ event }) => event.output },
          },
          // Back from a charge resumed or restored: where pressing buy leads; else the methods again.
          { guard: 'resumingCharge', target: 'choosing', actions: 'forgetCharge' },
          { target: 'selectPaymentMethod' },
        ],
      },
    },
    crypto: {
      invoke: {
        id: 'cryptoPayment',
        src: 'cryptoPayment',
        input: ({ context }) => {
          const { kind, id, title, price } = context.item;
          return { item: { kind, id, title }, price, email: context.user!.email };
        },
        onDone: [
          {
            guard: { type: 'cryptoRedirect', params: ({ event }) => event.output },
            target: 'redirecting',
            actions: [
              { type: 'endCrypto', params: ({ event }) => event.output },
              {
                type: 'redirectTo',
                params: ({ event }) => ({ url: event.output.kind === 'redirect' ? event.output.url : '' }),
              },
            ],
          },
          { target: 'selectPaymentMethod' },
        ],
      },
    },
    balance: {
      invoke: {
        id: 'balancePayment',
        src: 'balancePayment',
        input: ({ context }) => {
          const { kind, id, title, price } = context.item;
          return {
            item: { kind, id, title },
            price,
            walletAddress: context.walletAddress!,
            canTopUp: context.rails.includes('crypto'),
          };
        },
        onDone: [
          {
            guard: { type: 'balancePaid', params: ({ event }) => event.output },
            target: 'purchased',
            actions: { type: 'endBalance', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'balanceRedirect', params: ({ event }) => event.output },
            target: 'redirecting',
            actions: [
              { type: 'endBalance', params: ({ event }) => event.output },
              {
                type: 'redirectTo',
                params: ({ event }) => ({ url: event.output.kind === 'redirect' ? event.output.url : '' }),
              },
            ],
          },
          { target: 'selectPaymentMethod' },
        ],
      },
    },
    /** Apple Pay or Google Pay: a card payment from the wallet's sheet; it ends as the card rail does. */
    wallet: {
      invoke: {
        id: 'walletPayment',
        src: 'walletPayment',
        input: ({ context }) => {
          const { kind, id, title, price } = context.item;
          return {
            wallet: context.target === 'googlepay' ? ('googlepay' as const) : ('applepay' as const),
            item: { kind, id, title },
            price,
            email: context.user!.email,
          };
        },
        onDone: [
          {
            guard: { type: 'cardPaid', params: ({ event }) => event.output },
            target: 'purchased',
            actions: { type: 'endCard', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'cardRedirect', params: ({ event }) => event.output },
            target: 'redirecting',
            actions: [
              { type: 'endCard', params: ({ event }) => event.output },
              { type: 'redirectTo', params: ({ event }) => ({ url: redirectUrl(event.output) }) },
            ],
          },
          {
            guard: { type: 'cardFailed', params: ({ event }) => event.output },
            target: 'failed',
            actions: { type: 'endCard', params: ({ event }) => event.output },
          },
          { target: 'selectPaymentMethod' },
        ],
      },
    },
    onramp: {
      invoke: {
        id: 'onrampPayment',
        src: 'onrampPayment',
        input: ({ context }) => {
          const { kind, id, title, price } = context.item;
          const { id: userId, email } = context.user!;
          return { userId, item: { kind, id, title }, price, email };
        },
        onDone: [
          {
            guard: { type: 'onrampPaid', params: ({ event }) => event.output },
            target: 'purchased',
            actions: { type: 'endOnramp', params: ({ event }) => event.output },
          },
          { target: 'selectPaymentMethod' },
        ],
      },
    },
    /** The utility token (NFM) from the browser wallet. */
    token: {
      invoke: {
        id: 'tokenCharge',
        src: 'tokenCharge',
        input: ({ context }) => {
          const { kind, id, title, price } = context.item;
          const rail = context.token!;
          return {
            item: { kind, id, title },
            price,
            walletAvailable: rail.walletAvailable,
            chainId: rail.chainId,
            restore: rail.restore,
          };
        },
        onDone: [
          {
            guard: { type: 'tokenPaid', params: ({ event }) => event.output },
            target: 'purchased',
            actions: { type: 'endToken', params: ({ event }) => event.output },
          },
          { target: 'selectPaymentMethod' },
        ],
      },
    },
    signUp: { type: 'final' },
    purchased: { type: 'final' },
    /** On the way to the card provider's 3-D Secure page. */
    redirecting: { type: 'final', tags: ['busy'] },
    failed: { type: 'final' },
    closed: { type: 'final' },
  },
});
