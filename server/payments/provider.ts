/**
 * The card provider as the checkout sees it (Checkout.com's API shape). The implementation in
 * ./checkout-com.ts talks to Checkout.com or to the embedded sandbox (sandbox/checkout-com) through
 * the official SDK; the checkout never sees card numbers, only tokens (tok_…) and sources (src_…).
 *
 * Provider statuses are Checkout.com's, title case: Pending, Authorized, Card Verified, Captured,
 * Declined, Voided, Refunded, Canceled, Expired (and Paid, Partially Captured/Refunded).
 */

export interface ProviderPayment {
  /** pay_… */
  id: string;
  status: string;
  /** The field to branch on: a decline is still a processed payment (HTTP 201) with approved false. */
  approved: boolean;
  amount: number;
  currency: string;
  reference: string | null;
  /** e.g. "10000" approved, "20051" insufficient funds (5-digit string). */
  responseCode: string | null;
  responseSummary: string | null;
  /** Set while the buyer must complete 3-D Secure (HTTP 202, status Pending). */
  redirectUrl: string | null;
  source: {
    id: string | null;
    last4: string | null;
    scheme: string | null;
    expiryMonth: number | null;
    expiryYear: number | null;
  } | null;
}

export interface PaymentRequest {
  /** A new card token (tok_…) or a saved card source (src_…) with the CVV the buyer typed. */
  source: { type: 'token'; token: string } | { type: 'id'; id: string; cvv: string };
  amount: number;
  currency: string;
  /** Our order id; the provider echoes it. */
  reference: string;
  /** Authorize only: the checkout captures once the edition is reserved for the order. */
  capture: boolean;
  /** Ask for 3-D Secure; the provider answers 202 with a redirect when a challenge is needed. */
  threeDs: boolean;
  successUrl: string;
  failureUrl: string;
  customer?: { email?: string; name?: string };
  /** Keep the card as a reusable source (src_…) (saved cards). */
  storeCard?: boolean;
  /** Sent as Cko-Idempotency-Key: a retry with it has no second effect at the provider. */
  idempotencyKey: string;
  metadata?: Record<string, string>;
}

/** A provider answer that is a validation refusal (HTTP 422 error_codes), e.g. token_expired. */
export class ProviderRefusedError extends Error {
  override name = 'ProviderRefusedError';
  constructor(
    readonly errorCodes: string[],
    readonly status: number,
  ) {
    super(`card provider refused the request: ${errorCodes.join(', ') || status}`);
  }
}

/** The provider could not be reached or failed (network, 5xx, timeout). */
export class ProviderUnavailableError extends Error {
  override name = 'ProviderUnavailableError';
}

export interface CardProvider {
  /** POST /payments. */
  requestPayment(request: PaymentRequest): Promise<ProviderPayment>;
  /** GET /payments/{pay_|sid_}. */
  getPayment(id: string): Promise<ProviderPayment>;
  /** POST /payments/{id}/captures (idempotent by key). */
  capture(id: string, idempotencyKey: string): Promise<void>;
  /** POST /payments/{id}/voids: undo an authorization (idempotent by key). */
  void(id: string, idempotencyKey: string): Promise<void>;
  /** POST /payments/{id}/refunds: undo a capture (idempotent by key). */
  refund(id: string, idempotencyKey: string): Promise<void>;
  /** Checks a webhook delivery: Cko-Signature is the lowercase hex HMAC-SHA256 of the raw body. */
  verifyWebhook(rawBody: string, signature: string | undefined): boolean;
  /** What the browser needs to tokenize cards. */
  publicConfig(): { publicKey: string; apiUrl: string };
}

/** A webhook event as the provider sends it (the fields the checkout uses). */
export interface ProviderWebhookEvent {
  /** evt_…: deliveries are at least once; the checkout handles each id once. */
  id: string;
  /** payment_approved, payment_declined, payment_captured, payment_voided, payment_refunded, payment_expired, payment_canceled, … */
  type: string;
  data: {
    id: string;
    reference?: string;
    response_code?: string;
    response_summary?: string;
    amount?: number;
  };
}
