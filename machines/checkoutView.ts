import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { errorMessage } from '#domain/errors';
import { formatUsd } from '#domain/money';
import { type NftJson, seriesLabel } from '#domain/nft';
import type { balancePaymentMachine } from './balancePayment';
import type { buyListingMachine } from './buyListing';
import type { cardPaymentMachine } from './cardPayment';
import type { CheckoutContext, CheckoutEvent, checkoutMachine, EditionSort, PaymentMethod } from './checkout';
import type { cryptoPaymentMachine } from './cryptoPayment';
import type { onrampPaymentMachine } from './onrampPayment';
import { type ButtonProps, buttonProps } from './props';
import type { tokenChargeMachine } from './tokenCharge';
import type { walletPaymentMachine } from './walletPayment';

/**
 * The checkout's view model (zag's `connect`): from a snapshot of the checkout machine to what the
 * dialog renders — the panel, its title and text, the status line while something runs, the error,
 * which of close, back and retry are possible, the editions (sorted), the payment methods the
 * machine takes, the collection panel's action, the pending payment's summary, the payment rail (or
 * resale purchase) that runs inside the dialog, and prop getters that the dialog spreads on its
 * controls (each sends its event).
 */
export type CheckoutPanel =
  | 'loading'
  | 'cardPending'
  | 'cryptoPending'
  | 'selectEdition'
  | 'selectPaymentMethod'
  | 'collectionRequired'
  | 'claiming'
  | 'claimFailed'
  | 'creditCard'
  | 'crypto'
  | 'balance'
  | 'onramp'
  | 'token'
  | 'wallet'
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
  /** A warning beside the rail: "Insufficient funds" when the balance is below the price. */
  note?: string | null;
}
type CollectionAction = 'checkout.wallet.connect' | 'checkout.collection.setup';
/** The payment rail that runs inside the dialog: the panel to render for it, and its actor. */
export type CheckoutRail =
  | { kind: 'creditCard'; actor: ActorRefFrom<typeof cardPaymentMachine> }
  | { kind: 'crypto'; actor: ActorRefFrom<typeof cryptoPaymentMachine> }
  | { kind: 'balance'; actor: ActorRefFrom<typeof balancePaymentMachine> }
  | { kind: 'onramp'; actor: ActorRefFrom<typeof onrampPaymentMachine> }
  | { kind: 'token'; actor: ActorRefFrom<typeof tokenChargeMachine> }
  | { kind: 'wallet'; actor: ActorRefFrom<typeof walletPaymentMachine> };
export interface CheckoutView {
  panel: CheckoutPanel;
  busy: boolean;
  /** A payment rail shows: the dialog is wide and its own actions are the rail's. */
  wide: boolean;
  /** The dialog's footer (back, retry, the collection's action, the pending payment's actions). */
  footer: boolean;
  /** The rail that runs now, if any. */
  rail: CheckoutRail | null;
  /** The resale purchase, which shows in a dialog of its own. */
  listing: ActorRefFrom<typeof buyListingMachine> | null;
  title: string;
  text: string | null;
  /** What runs now, for a status line. */
  status: string | null;
  error: string | null;
  canClose: boolean;
  canBack: boolean;
  canRetry: boolean;
  /** The sort menu: its items. */
  sort: {
    value: EditionSort;
    label: string;
    options: { value: EditionSort; label: string }[];
  };
  editions: EditionRow[];
  methods: PaymentMethodOption[];
  /** The collection panel's action: connect a wallet or set up the collection. */
  action: { label: string; event: CollectionAction; enabled: boolean } | null;
  /** The charge waiting (3-D Secure, or the crypto provider's page): resume or cancel it with their getters. */
  pending: {
    itemTitle: string;
    amount: string;
    card: string | null;
  } | null;
  /** The dialog itself: Escape and its close button close it when the machine allows. */
  getDialogProps: () => { onClose: () => void; showCloseButton: boolean };
  getCloseButtonProps: () => ButtonProps;
  getBackButtonProps: () => ButtonProps;
  getRetryButtonProps: () => ButtonProps;
  /** Sorts the editions by a sort menu item's id. */
  sortBy: (value: string) => void;
  /** A row's Buy: a resale listing by its NFT id, or the new edition (null). */
  getBuyButtonProps: (row: EditionRow) => ButtonProps & { 'aria-label': string };
  getMethodButtonProps: (method: PaymentMethod) => ButtonProps;
  /** Resume or cancel the pending payment. */
  getResumeButtonProps: () => ButtonProps;
  getCancelButtonProps: () => ButtonProps;
  /** The collection panel's action. */
  getActionButtonProps: () => ButtonProps;
}

const editionSorts: EditionSort[] = ['priceAsc', 'priceDesc', 'edition'];
export const sortLabels: Record<EditionSort, string> = {
  priceAsc: 'Price: low to high',
  priceDesc: 'Price: high to low',
  edition: 'Edition',
};
/** The ways to pay for a new edition, in the order offered; a rail shows only when the machine takes it. */
export const paymentRails: readonly PaymentMethodOption[] = [
  { method: 'applepay', label: 'Apple Pay', description: 'A card in your Apple Wallet' },
  { method: 'googlepay', label: 'Google Pay', description: 'A card in your Google account' },
  { method: 'creditCard', label: 'Credit card', description: 'Visa, Mastercard or Discover' },
  { method: 'crypto', label: 'Crypto', description: 'ETH, BTC, BCH or USDC on a payment page' },
  { method: 'balance', label: 'Balance', description: 'FUSD in your wallet' },
  { method: 'onramp', label: 'Card to crypto', description: 'Pay by card in the Wert payment window' },
  { method: 'token', label: 'NFM', description: 'The Vitrine utility token, from your browser wallet' },
];

/** The balance rail shows the balance once read, and "Insufficient funds" below the price. */
function railOption(
  rail: PaymentMethodOption,
  { balance, item, token }: CheckoutContext,
): PaymentMethodOption {
  // Without a browser wallet the token rail says what it needs (its panel explains).
  if (rail.method === 'token') return token?.walletAvailable ? rail : { ...rail, note: 'MetaMask required' };
  if (rail.method !== 'balance' || balance === null) return rail;
  return {
    ...rail,
    description: `${formatUsd(balance)} FUSD in your wallet`,
    note: balance < item.price ? 'Insufficient funds' : null,
  };
}

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
    return s.context.target === 'crypto' || s.context.target === 'balance' || s.context.pendingCrypto
      ? ['redirecting', 'Pay with crypto', null, 'Taking you to the payment page…', null]
      : ['redirecting', 'Verify your payment', null, "Taking you to your bank's verification…", null];
  if (s.status === 'done') return ['done', 'Checkout', null, null, null];
  if (s.matches('cardPending')) return ['cardPending', 'Payment in progress', pending, null, null];
  const cryptoText = `Your crypto payment for ${s.context.pendingCrypto?.order?.item.title ?? item.title} is still open. Resume it on the payment page, or cancel it to start again.`;
  if (s.matches('cryptoPending'))
    return ['cryptoPending', 'Crypto payment in progress', cryptoText, null, null];
  if (s.matches('cancellingCrypto'))
    return ['cryptoPending', 'Crypto payment in progress', cryptoText, 'Canceling your payment…', null];
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
  // A payment rail's own panel names the item and its price: the dialog does not repeat them.
  if (s.matches('creditCard')) return ['creditCard', 'Checkout', null, null, null];
  if (s.matches('crypto')) return ['crypto', 'Checkout', null, null, null];
  if (s.matches('balance')) return ['balance', 'Checkout', null, null, null];
  if (s.matches('onramp')) return ['onramp', 'Checkout', null, null, null];
  if (s.matches('token')) return ['token', 'Checkout', null, null, null];
  if (s.matches('wallet')) return ['wallet', 'Checkout', null, null, null];
  if (s.matches('buyingListing')) return ['buyingListing', 'Checkout', item.title, null, null];
  return ['loading', 'Checkout', null, 'Checking your payments…', null];
}
const actionLabels: Record<CollectionAction, string> = {
  [CONNECT]: 'Connect wallet',
  [SET_UP]: 'Set up collection',
};

const RAILS: readonly CheckoutPanel[] = ['creditCard', 'crypto', 'balance', 'onramp', 'token', 'wallet'];

/** The child actor of the rail panel that shows, by the rail's invoke id. */
function railOf(panel: CheckoutPanel, children: Snapshot['children']): CheckoutRail | null {
  const rail = (kind: CheckoutRail['kind'], actor: CheckoutRail['actor'] | undefined) =>
    actor ? ({ kind, actor } as CheckoutRail) : null;
  switch (panel) {
    case 'creditCard':
      return rail(panel, children.cardPayment);
    case 'crypto':
      return rail(panel, children.cryptoPayment);
    case 'balance':
      return rail(panel, children.balancePayment);
    case 'onramp':
      return rail(panel, children.onrampPayment);
    case 'token':
      return rail(panel, children.tokenCharge);
    case 'wallet':
      return rail(panel, children.walletPayment);
    default:
      return null;
  }
}

export function connectCheckout(snapshot: Snapshot, send: (event: CheckoutEvent) => void): CheckoutView {
  const { context } = snapshot;
  const [panel, title, text, status, action] = copyOf(snapshot);
  const can = (event: CheckoutEvent) => snapshot.can(event);
  const pending = panel === 'cardPending' ? context.pendingCharge : null;
  const crypto = panel === 'cryptoPending' ? context.pendingCrypto : null;
  const wide = RAILS.includes(panel);
  const busy = snapshot.hasTag('busy');
  /** A button that sends `event`, enabled when the machine takes it. */
  const button = (event: CheckoutEvent, working = false) =>
    buttonProps({ onClick: () => send(event), disabled: !can(event), busy: working });
  return {
    panel,
    busy,
    wide,
    footer: !wide && panel !== 'redirecting' && panel !== 'loading',
    rail: railOf(panel, snapshot.children),
    listing: panel === 'buyingListing' ? (snapshot.children.buyListing ?? null) : null,
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
    methods: paymentRails
      .filter((rail) => can({ type: 'checkout.method.select', method: rail.method }))
      .map((rail) => railOption(rail, context)),
    action: action && { label: actionLabels[action], event: action, enabled: can({ type: action }) },
    pending: pending
      ? {
          itemTitle: pending.order.item.title,
          amount: formatUsd(pending.order.amount),
          card: pending.last4 ? `Card •••• ${pending.last4}` : null,
        }
      : crypto && {
          itemTitle: crypto.order?.item.title ?? 'FUSD top-up',
          amount: formatUsd(crypto.amount),
          card: null,
        },
    getDialogProps: () => ({
      onClose: () => {
        if (can({ type: 'checkout.close' })) send({ type: 'checkout.close' });
      },
      showCloseButton: can({ type: 'checkout.close' }),
    }),
    getCloseButtonProps: () => button({ type: 'checkout.close' }),
    getBackButtonProps: () => button({ type: 'checkout.back' }),
    getRetryButtonProps: () => button({ type: 'checkout.retry' }),
    sortBy: (value) => {
      const sort = editionSorts.find((s) => s === value);
      if (sort) send({ type: 'checkout.edition.sort', sort });
    },
    getBuyButtonProps: (row) => ({
      ...button({ type: 'checkout.edition.select', listingId: row.listingId }),
      'aria-label': row.buyLabel,
    }),
    getMethodButtonProps: (method) => button({ type: 'checkout.method.select', method }),
    getResumeButtonProps: () => button({ type: 'checkout.charge.resume' }),
    getCancelButtonProps: () => button({ type: 'checkout.charge.cancel' }, busy),
    getActionButtonProps: () => (action ? button({ type: action }, busy) : buttonProps({ disabled: true })),
  };
}
