import type { BillingDetails, BillingFormValues, CardDetails } from '../billing';
import type { CheckoutItemKind } from '../schemas/checkout';
import type { CreateCoinbaseChargeBody } from '../schemas/crypto';
import type { TokenChargeJson } from '../schemas/token';

/**
 * What the browser's payment services supply to the checkout machines (and take from them): the
 * requests a machine makes, the answers and events a service gives back. The machines declare the
 * actors they need with these types; src/services implements them.
 */

/** The item a payment is for, as the checkout shows it. */
export interface PaidItem {
  kind: CheckoutItemKind;
  id: string;
  title: string;
}

export interface OnrampChargeRequest {
  item: PaidItem;
  price: number;
  idempotencyKey: string;
}

/** The widget's payment statuses (its `payment-status` event). */
export type WidgetPaymentStatus = 'pending' | 'success' | 'failed' | 'canceled' | 'failover';

export type OnrampPaymentEvent =
  | { type: 'onramp.acknowledge'; value: boolean }
  | { type: 'onramp.submit' }
  | { type: 'onramp.back' }
  /** The open charge found: pay it in the widget again, or give it up. */
  | { type: 'onramp.resume' }
  | { type: 'onramp.cancel' }
  /** A payment status of the widget; `txId` once it names the transaction (with pending). */
  | { type: 'onramp.widget.status'; status: WidgetPaymentStatus; txId?: string | null }
  | { type: 'onramp.widget.close' };

/** What the server is told of the widget's pending payment. */
export interface OnrampReport {
  id: string;
  status: 'paymentStarted' | 'transferStarted';
}

export type MobileWallet = 'applepay' | 'googlepay';

/** The wallet's billing contact, as our billing fields. */
export interface WalletBilling {
  firstName: string;
  lastName: string;
  addressLine1: string;
  addressLine2?: string;
  city: string;
  state?: string;
  zipCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  phoneNumber?: string;
}

/** What the sheet hands over once the buyer authorized the payment. */
export interface WalletAuthorization {
  /** Apple's `paymentData`, or Google's parsed `tokenizationData.token`. */
  tokenData: unknown;
  billing: Partial<WalletBilling>;
}

export type WalletSheetEvent =
  | { type: 'wallet.authorized'; authorization: WalletAuthorization }
  | { type: 'wallet.canceled' }
  | { type: 'wallet.failed'; error: unknown };

export type WalletPaymentEvent =
  | { type: 'wallet.acknowledge'; value: boolean }
  | { type: 'wallet.submit' }
  | { type: 'wallet.back' }
  | { type: 'wallet.billing.change'; values: Partial<BillingFormValues> }
  | { type: 'wallet.billing.submit' }
  | WalletSheetEvent;

/** What the machine tells the open sheet. */
export type WalletSheetCommand = { type: 'wallet.complete'; success: boolean };

export interface BalanceOrderRequest {
  item: PaidItem;
  price: number;
  idempotencyKey: string;
}

export interface PayOrderRequest {
  address: string;
  orderId: string;
  /** UFix64 text. */
  amount: string;
}

/** A top-up of a purchase dialog's shortfall: it returns to the dialog's page (`returnTo`, a ReturnPath). */
export interface TopupChargeRequest extends TopupRequest {
  returnTo: string;
}

export interface CardCheckpoint {
  chargeId: string;
  step: 'charging' | 'redirect';
}

/** A card token made at the provider with the provider's public key. */
export interface CardToken {
  token: string;
  scheme: string | null;
  last4: string | null;
}

export interface TokenizeInput {
  card: CardDetails;
  billing: BillingDetails;
}

export interface ChargeSync {
  id: string;
  ckoSessionId: string | null;
}

/** What the createCharge actor sends: POST coinbase-charges, a direct purchase of the item. */
export interface CryptoChargeRequest {
  item: PaidItem;
  price: number;
  idempotencyKey: string;
}

/** What the createTopup actor sends: POST coinbase-charges, a top-up of `amount` cents. */
export interface TopupRequest {
  /** Cents, TOPUP_MIN_CENTS to TOPUP_MAX_CENTS. */
  amount: number;
  idempotencyKey: string;
  /** The page the payment page sends the buyer back to; without it, Settings → Wallet. */
  returnTo?: string;
}

/** POST coinbase-charges' body for a top-up (for the service's createTopup). */
export function topupChargeBody({
  amount,
  idempotencyKey,
  returnTo,
}: TopupRequest): CreateCoinbaseChargeBody {
  return { type: 'topup', topupAmount: amount, idempotencyKey, ...(returnTo ? { returnTo } : {}) };
}

export interface TokenCheckpoint {
  chargeId: string;
  /** The item the charge pays for: only its checkout resumes it. */
  item?: { kind: CheckoutItemKind; id: string };
  /** The transfer's hash, once the wallet sent it. */
  transactionHash?: string | null;
}

export interface WalletAccount {
  address: string;
  chainId: number;
}

export interface CreateTokenChargeRequest {
  item: PaidItem;
  price: number;
  ethAddress: string;
  idempotencyKey: string;
}

/** What the chain shows of a charge's transfer: the charge as the server read it, and whether a
 * transaction of its address is still waiting to be mined. */
export interface TransferCheck {
  charge: TokenChargeJson;
  pending: boolean;
}

export interface PurchaseRecord {
  id: string;
  transactionId: string;
  purchasedOn: string;
}

export interface RecordListingInput {
  blockchainListingId: string;
  flowBlueprintId: string;
  nftSeriesNumber: string;
  walletAddress: string;
}
