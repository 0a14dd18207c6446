/**
 * The crypto provider as the checkout sees it: hosted charges in Coinbase Commerce's legacy Charge
 * API shape (https://api.commerce.coinbase.com, `X-CC-Api-Key`, `X-CC-Version: 2018-03-22`). The
 * buyer pays on the provider's hosted page; the provider reports with signed webhooks
 * (`X-CC-Webhook-Signature`: lowercase hex HMAC-SHA256 of the raw body with the shared secret).
 *
 * A charge's status is the last entry of its timeline: NEW, PENDING (paid, not yet confirmed: the
 * provider says one may fulfil), COMPLETED (final), EXPIRED (60 minutes without payment), UNRESOLVED
 * (with a context: UNDERPAID, OVERPAID, DELAYED, MULTIPLE, MANUAL, OTHER), RESOLVED, CANCELED.
 * Only a NEW charge can be canceled.
 */

export type CryptoChargeStatus =
  | 'NEW'
  | 'PENDING'
  | 'COMPLETED'
  | 'EXPIRED'
  | 'UNRESOLVED'
  | 'RESOLVED'
  | 'CANCELED';

export interface CryptoCharge {
  /** The provider's UUID. */
  id: string;
  /** 8 upper-case letters and digits; the hosted page is named by it. */
  code: string;
  /** The hosted page where the buyer pays; null when the provider answered none. */
  hostedUrl: string | null;
  status: CryptoChargeStatus;
  /** UNRESOLVED's reason (UNDERPAID, OVERPAID, DELAYED, MULTIPLE, MANUAL, OTHER), else null. */
  context: string | null;
  /** The price asked, in cents of `currency` (USD). */
  amount: number;
  currency: string;
  /** What the buyer paid so far, in cents of the local currency (summed over detected payments). */
  paid: number;
  /** Echoed from the request: our charge id (`vitrineChargeId`) and order id (`orderId`). */
  metadata: Record<string, string>;
  createdAt: Date;
  expiresAt: Date;
}

export interface CryptoChargeRequest {
  name: string;
  description: string;
  /** Cents; sent as `local_price { amount: "12.50", currency: "USD" }` with `pricing_type: fixed_price`. */
  amount: number;
  currency: 'USD';
  /** String values only (the provider's rule). */
  metadata: Record<string, string>;
  /** Where the hosted page sends the buyer after paying, and after canceling. */
  redirectUrl: string;
  cancelUrl: string;
}

/** A webhook delivery, verified: the event and the charge as the event carries it. */
export interface CryptoWebhookEvent {
  /** The event's UUID: each is applied once. */
  id: string;
  /** charge:created, charge:pending, charge:confirmed, charge:failed, charge:delayed, charge:resolved. */
  type: string;
  charge: CryptoCharge;
}

/** The provider refused the request (4xx with its error JSON). */
export class CryptoProviderRefusedError extends Error {
  override name = 'CryptoProviderRefusedError';
  constructor(
    readonly status: number,
    readonly errorType: string,
    message: string,
  ) {
    super(message);
  }
}

/** The provider could not be reached or failed (network, 5xx, timeout). */
export class CryptoProviderUnavailableError extends Error {
  override name = 'CryptoProviderUnavailableError';
}

export interface CryptoProvider {
  /** POST /charges. */
  createCharge(request: CryptoChargeRequest): Promise<CryptoCharge>;
  /** GET /charges/{id|code}. */
  getCharge(idOrCode: string): Promise<CryptoCharge>;
  /** POST /charges/{id|code}/cancel (NEW only; otherwise refused). */
  cancelCharge(idOrCode: string): Promise<CryptoCharge>;
  /** Checks `X-CC-Webhook-Signature` against the raw body; null when it does not match or is not an event. */
  verifyWebhook(rawBody: string, signature: string | undefined): CryptoWebhookEvent | null;
}
