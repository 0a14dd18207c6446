import { assertEvent, assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { toDate } from '../src/domain/dates';
import { type ApiErrorBody, errorMessage, toErrorBody } from '../src/domain/errors';
import { formatUsd } from '../src/domain/money';
import { type NftJson, seriesLabel } from '../src/domain/nft';
import { orderCompleteTarget } from '../src/domain/purchase';
import type { CardChargeJson, CheckoutItemKind, FreeClaimJson } from '../src/domain/schemas/checkout';
import type { User } from '../src/domain/user';
import { type BuyListingInput, type BuyListingOutput, buyListingMachine } from './buyListing';
import { type CardCheckpoint, type CardPaymentOutput, cardPaymentMachine } from './cardPayment';

/**
 * The checkout of a blueprint or pack (pressing Buy on its item page).
 *
 * Pressing buy: a visitor is asked to sign up. A signed-in buyer's card charge still waiting for
 * 3-D Secure comes first: it is resumed (read again, never charged twice) or canceled. A charge the
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
 * card (the cardPayment machine). A card checkpoint (the charge the buyer left for 3-D Secure) goes
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
}
export type OrderCompleteTarget = ReturnType<typeof orderCompleteTarget>;
export type CheckoutOutput =
  | { kind: 'signUp' }
  | { kind: 'purchased'; target: OrderCompleteTarget }
  | { kind: 'failed'; orderId: string }
  | { kind: 'redirecting'; url: string }
  | null;
export type EditionSort = 'priceAsc' | 'priceDesc' | 'edition';
export type PaymentMethod = 'creditCard';
/** Where the flow goes once the collection is ready. */
export type CheckoutTarget = 'claim' | 'creditCard' | 'listing';

export interface CheckoutContext {
  item: CheckoutItem;
  listings: NftJson[];
  user: CheckoutUser | null;
  walletAddress: string | null;
  checkpoint: CardCheckpoint | null;
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

/** What buyListing needs of a listing: the listing, its seller and edition, and the buyer's wallet. */
export const buyListingInput = (nft: NftJson, walletAddress: string): BuyListingInput => ({
  listing: { ...nft.activeSaleListing!, seller: nft.owner.wallet.walletAddress },
  nft: { flowBlueprintId: nft.blueprintId, seriesNumber: nft.seriesNumber },
  walletAddress,
});

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
type Bought = NonNullable<BuyListingOutput>;
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
    children: {} as { cardPayment: 'cardPayment'; buyListing: 'buyListing' },
  },
  actors: {
    /** GET checkout-com-charges?unresolved=true: the buyer's first charge waiting for 3-D Secure. */
    findPendingCharge: fromPromise<CardChargeJson | null>(async () => {
      throw new Error('findPendingCharge not provided');
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
    buyListing: buyListingMachine,
    cardPayment: cardPaymentMachine,
  },
  guards: {
    signedOut: ({ context }) => context.user === null,
    hasCheckpoint: ({ context }) => context.checkpoint !== null,
    chargeInFlight: ({ context }) => context.checkpoint?.step === 'charging',
    found: (_, charge: CardChargeJson | null) => charge !== null,
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
    bought: (_, output: BuyListingOutput) => output !== null,
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
    /** Back from a resumed or restored charge: the next card payment starts afresh. */
    forgetCharge: assign({ resume: null, checkpoint: null }),
    sortEditions: assign({
      sort: ({ event }) => {
        assertEvent(event, 'checkout.edition.sort');
        return event.sort;
      },
    }),
    aimAtClaim: assign({ target: 'claim' as const }),
    aimAtCard: assign({ target: 'creditCard' as const }),
    chooseListing: assign(({ context, event }) => {
      assertEvent(event, 'checkout.edition.select');
      return {
        target: 'listing' as const,
        listing: context.listings.find((n) => n.id === event.listingId) ?? null,
      };
    }),
    keepWallet: assign({ walletAddress: (_, user: User) => user.wallet.walletAddress }),
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
  },
}).createMachine({
  id: 'checkout',
  context: ({ input }) => ({
    item: input.item,
    listings: input.listings,
    user: input.user,
    walletAddress: input.user?.walletAddress ?? null,
    checkpoint: input.checkpoint ?? null,
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
        { target: 'findingPending' },
      ],
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
      on: {
        'checkout.method.select': { target: 'collection', actions: 'aimAtCard' },
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
        input: ({ context }) => buyListingInput(context.listing!, context.walletAddress!),
        onDone: [
          {
            guard: { type: 'bought', params: ({ event }) => event.output },
            target: 'purchased',
            actions: { type: 'endBought', params: ({ event }) => event.output! },
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
    signUp: { type: 'final' },
    purchased: { type: 'final' },
    /** On the way to the card provider's 3-D Secure page. */
    redirecting: { type: 'final', tags: ['busy'] },
    failed: { type: 'final' },
    closed: { type: 'final' },
  },
});

export type CheckoutPanel =
  | 'loading'
  | 'cardPending'
  | 'selectEdition'
  | 'selectPaymentMethod'
  | 'collectionRequired'
  | 'claiming'
  | 'claimFailed'
  | 'creditCard'
  | 'buyingListing'
  | 'redirecting'
  | 'done';
/** A row of "select edition": a resale listing (its NFT id) or the new edition (null). */
export interface EditionRow {
  listingId: string | null;
  /** "New edition", "Edition #03". */
  edition: string;
  /** "$25", "Free". */
  price: string;
  /** "From the creator", "@ada". */
  seller: string;
  /** The name of the row's Buy button: "Buy edition #03 for $40". */
  buyLabel: string;
}
export interface PaymentMethodOption {
  method: PaymentMethod;
  label: string;
  description: string;
}
type CollectionAction = 'checkout.wallet.connect' | 'checkout.collection.setup';
export interface CheckoutView {
  panel: CheckoutPanel;
  busy: boolean;
  title: string;
  text: string | null;
  /** What runs now, for a status line. */
  status: string | null;
  error: string | null;
  canClose: boolean;
  canBack: boolean;
  canRetry: boolean;
  sort: { value: EditionSort; label: string; options: { value: EditionSort; label: string }[] };
  editions: EditionRow[];
  methods: PaymentMethodOption[];
  /** The collection panel's action: connect a wallet or set up the collection. */
  action: { label: string; event: CollectionAction; enabled: boolean } | null;
  /** The charge waiting for 3-D Secure. */
  pending: {
    itemTitle: string;
    amount: string;
    card: string | null;
    canResume: boolean;
    canCancel: boolean;
  } | null;
}

const editionSorts: EditionSort[] = ['priceAsc', 'priceDesc', 'edition'];
export const sortLabels: Record<EditionSort, string> = {
  priceAsc: 'Price: low to high',
  priceDesc: 'Price: high to low',
  edition: 'Edition',
};
/** The ways to pay for a new edition, in the order offered; a rail shows only when the machine takes it. */
export const paymentRails: readonly PaymentMethodOption[] = [
  { method: 'creditCard', label: 'Credit card', description: 'Visa, Mastercard or Discover' },
];

const priceText = (cents: number) => (cents === 0 ? 'Free' : formatUsd(cents));
type Edition = { nft: NftJson | null; cents: number; serial: number };
const editionOrder: Record<EditionSort, (a: Edition, b: Edition) => number> = {
  priceAsc: (a, b) => a.cents - b.cents || a.serial - b.serial,
  priceDesc: (a, b) => b.cents - a.cents || a.serial - b.serial,
  edition: (a, b) => a.serial - b.serial,
};

/** The new edition (unless none can be bought; it comes after every resold one) and the listings. */
function editionRows({ item, listings, sort }: CheckoutContext): EditionRow[] {
  const editions: Edition[] = listings.flatMap((nft) =>
    nft.activeSaleListing ? [{ nft, cents: nft.activeSaleListing.price, serial: nft.seriesNumber }] : [],
  );
  if (!item.soldOut) editions.push({ nft: null, cents: item.price, serial: Infinity });
  return editions.sort(editionOrder[sort]).map(({ nft, cents }) => {
    const price = priceText(cents);
    if (!nft)
      return {
        listingId: null,
        edition: 'New edition',
        price,
        seller: 'From the creator',
        buyLabel: `Buy a new edition for ${price}`,
      };
    const edition = `Edition ${seriesLabel(nft.seriesNumber)}`;
    const seller = `@${nft.owner.username ?? nft.owner.wallet.walletAddress}`;
    return {
      listingId: nft.id,
      edition,
      price,
      seller,
      buyLabel: `Buy ${edition.toLowerCase()} for ${price}`,
    };
  });
}

type Snapshot = SnapshotFrom<typeof checkoutMachine>;
/** Panel, title, text, status line and the collection panel's action of a step. */
type Copy = [CheckoutPanel, string, string | null, string | null, CollectionAction | null];

const WALLET = 'Connect a Flow wallet first: the editions you buy are minted to it.';
const SETUP =
  'Your wallet needs a Vitrine collection and an FUSD balance before it can hold items. ' +
  'Set them up with one wallet transaction.';
const REQUIRED = 'Collection required';
const CONNECT = 'checkout.wallet.connect';
const SET_UP = 'checkout.collection.setup';

function copyOf(s: Snapshot): Copy {
  const { item, pendingCharge } = s.context;
  const pending = `Your card payment for ${pendingCharge?.order.item.title ?? item.title} is waiting for your bank's verification. Resume it, or cancel it to start again.`;
  const price = `${item.title} · ${priceText(item.price)}`;
  if (s.matches('redirecting'))
    return ['redirecting', 'Verify your payment', null, "Taking you to your bank's verification…", null];
  if (s.status === 'done') return ['done', 'Checkout', null, null, null];
  if (s.matches('cardPending')) return ['cardPending', 'Payment in progress', pending, null, null];
  if (s.matches('cancellingCharge'))
    return ['cardPending', 'Payment in progress', pending, 'Canceling your payment…', null];
  if (s.matches('selectEdition')) return ['selectEdition', 'Choose an edition', item.title, null, null];
  if (s.matches('selectPaymentMethod'))
    return ['selectPaymentMethod', 'How would you like to pay?', price, null, null];
  if (s.matches({ collection: 'walletRequired' }))
    return ['collectionRequired', REQUIRED, WALLET, null, CONNECT];
  if (s.matches({ collection: 'linkingWallet' }))
    return ['collectionRequired', REQUIRED, WALLET, 'Approve the connection in your wallet…', CONNECT];
  if (s.matches({ collection: 'required' })) return ['collectionRequired', REQUIRED, SETUP, null, SET_UP];
  if (s.matches({ collection: 'settingUp' }))
    return [
      'collectionRequired',
      REQUIRED,
      SETUP,
      'Approve the setup in your wallet; it takes a few seconds.',
      SET_UP,
    ];
  if (s.matches({ collection: 'checkFailed' }))
    return ['collectionRequired', REQUIRED, 'We could not check your collection.', null, null];
  if (s.matches('collection'))
    return ['collectionRequired', 'Checking your wallet', null, 'Checking your collection…', null];
  if (s.matches('claiming'))
    return ['claiming', 'Claim for free', item.title, 'Claiming your edition…', null];
  if (s.matches('claimFailed')) return ['claimFailed', 'Claim for free', item.title, null, null];
  if (s.matches('creditCard')) return ['creditCard', 'Checkout', price, null, null];
  if (s.matches('buyingListing')) return ['buyingListing', 'Checkout', item.title, null, null];
  return ['loading', 'Checkout', null, 'Checking your payments…', null];
}
const actionLabels: Record<CollectionAction, string> = {
  [CONNECT]: 'Connect wallet',
  [SET_UP]: 'Set up collection',
};

export function connectCheckout(snapshot: Snapshot): CheckoutView {
  const { context } = snapshot;
  const [panel, title, text, status, action] = copyOf(snapshot);
  const can = (event: CheckoutEvent) => snapshot.can(event);
  const pending = panel === 'cardPending' ? context.pendingCharge : null;
  return {
    panel,
    busy: snapshot.hasTag('busy'),
    title,
    text,
    status,
    error: context.error ? errorMessage(context.error) : null,
    canClose: can({ type: 'checkout.close' }),
    canBack: can({ type: 'checkout.back' }),
    canRetry: can({ type: 'checkout.retry' }),
    sort: {
      value: context.sort,
      label: `Sort: ${sortLabels[context.sort]}`,
      options: editionSorts.map((value) => ({ value, label: sortLabels[value] })),
    },
    editions: panel === 'selectEdition' ? editionRows(context) : [],
    methods: paymentRails.filter((rail) => can({ type: 'checkout.method.select', method: rail.method })),
    action: action && { label: actionLabels[action], event: action, enabled: can({ type: action }) },
    pending: pending && {
      itemTitle: pending.order.item.title,
      amount: formatUsd(pending.order.amount),
      card: pending.last4 ? `Card •••• ${pending.last4}` : null,
      canResume: can({ type: 'checkout.charge.resume' }),
      canCancel: can({ type: 'checkout.charge.cancel' }),
    },
  };
}
