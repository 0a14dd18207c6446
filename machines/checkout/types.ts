import type { ApiErrorBody } from '#domain/errors';
import type { NftJson } from '#domain/nft';
import type { CardChargeJson, CheckoutItemKind } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import type { CardCheckpoint } from '../cardPayment';
import type { OrderCompleteTarget, RailOutcome } from '../railOutcome';
import type { TokenCheckpoint } from '../tokenCharge';

/** The checkout machine's input, context, events and output. */
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
  /** The account's name: the new-card form starts with it. */
  firstName?: string;
  lastName?: string | null;
  /** The country of the last card paid with in this browser (the new-card form starts with it). */
  billingCountry?: string | null;
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
  /** Back from a crypto top-up's page that this checkout opened: where to open again. */
  reopen?: CheckoutReopen | null;
}
/**
 * Where a checkout that sent the buyer to a top-up's page opens again when they come back (the
 * item page's `?listing=` or `?buy=balance`, and `?topup=`): on that resale listing, or on the
 * balance rail of a new edition; there the top-up is followed until its FUSD arrives.
 */
export interface CheckoutReopen {
  /** The resale listing by its sale listing id; null: the balance rail of a new edition. */
  listing: string | null;
  /** The top-up charge the buyer came back from, if the page names one. */
  topup: string | null;
}
export interface TokenRail {
  chainId: number;
  walletAvailable: boolean;
  restore: TokenCheckpoint | null;
}
export type { OrderCompleteTarget };
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
  /** Where to open again after a top-up, until the rail it names has started. */
  reopen: CheckoutReopen | null;
  target: CheckoutTarget | null;
  collectionReady: boolean;
  /**
   * A wallet was connected in this checkout: a missing collection is then set up at once (the
   * wallet asks for its approval next), without a second button to press.
   */
  setUpOnceLinked: boolean;
  error: ApiErrorBody | null;
  /** How the last rail ended. */
  outcome: RailOutcome | null;
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
