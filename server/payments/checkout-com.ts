import { createHmac, timingSafeEqual } from 'node:crypto';
import { Checkout } from 'checkout-sdk-node';
import {
  type CardProvider,
  type PaymentRequest,
  type ProviderPayment,
  ProviderRefusedError,
  ProviderUnavailableError,
} from './provider';

/**
 * Checkout.com through its official Node SDK (`checkout-sdk-node`), whose `host` option points it at
 * any base URL: the live or sandbox API, or the embedded sandbox (sandbox/checkout-com). Secret-key
 * calls only; the browser tokenizes cards itself with the public key (publicConfig).
 */
export interface CheckoutComOptions {
  secretKey: string;
  publicKey: string;
  /** API base, e.g. https://api.sandbox.checkout.com or http://127.0.0.1:8790. */
  apiUrl: string;
  /** The key webhook deliveries are signed with (Cko-Signature). */
  webhookSignatureKey: string;
  timeoutMs?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: the SDK's answers are plain JSON read field by field
type Json = any;

function payment(body: Json): ProviderPayment {
  const source = body.source ?? null;
  return {
    id: body.id,
    status: body.status,
    approved: body.approved === true,
    amount: body.amount ?? 0,
    currency: body.currency ?? 'USD',
    reference: body.reference ?? null,
    responseCode: body.response_code ?? null,
    responseSummary: body.response_summary ?? null,
    redirectUrl: body.status === 'Pending' ? (body._links?.redirect?.href ?? null) : null,
    source: source
      ? {
          id: source.id ?? null,
          last4: source.last4 ?? null,
          scheme: source.scheme ?? null,
          expiryMonth: source.expiry_month ?? null,
          expiryYear: source.expiry_year ?? null,
        }
      : null,
  };
}

/**
 * Whether the SDK's error is a request that got no answer (the SDK reports a failed fetch as an
 * API error without a status, its text in `body`), as opposed to a status, a timeout or a refusal.
 */
const unanswered = (err: Json) =>
  err?.name === 'API Error' &&
  !err.http_code &&
  typeof err.body === 'string' &&
  /fetch failed/.test(err.body);

/** SDK errors as the checkout reads them: refusals (4xx with error codes) or an unreachable provider. */
function failure(err: Json): Error {
  const status = Number(err?.http_code ?? 0);
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return new ProviderRefusedError(err?.body?.error_codes ?? [], status);
  }
  return new ProviderUnavailableError(`card provider unavailable (${status || err?.name || 'no answer'})`);
}

export function createCheckoutComProvider(options: CheckoutComOptions): CardProvider {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const cko = new Checkout(options.secretKey, {
    pk: options.publicKey,
    host: apiUrl,
    timeout: options.timeoutMs ?? 15_000,
  });
  // Every call either only reads or carries an idempotency key (the provider answers a repeated key
  // with the first call's result), so a call that got no answer at all (the connection was reset or
  // closed: a kept-alive connection the other side had just closed as idle) is sent once more on a
  // fresh connection before the provider counts as unreachable.
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      if (!unanswered(err)) throw failure(err);
    }
    try {
      return await run();
    } catch (err) {
      throw failure(err);
    }
  };
  return {
    async requestPayment(request: PaymentRequest) {
      const source =
        request.source.type === 'token'
          ? { type: 'token', token: request.source.token, store_for_future_use: request.storeCard ?? false }
          : { type: 'id', id: request.source.id, cvv: request.source.cvv };
      const body = await call(() =>
        cko.payments.request(
          {
            source,
            amount: request.amount,
            currency: request.currency,
            reference: request.reference,
            capture: request.capture,
            '3ds': { enabled: request.threeDs },
            success_url: request.successUrl,
            failure_url: request.failureUrl,
            customer: request.customer,
            metadata: request.metadata,
          },
          request.idempotencyKey,
        ),
      );
      return payment(body);
    },
    async getPayment(id) {
      return payment(await call(() => cko.payments.get(id)));
    },
    async capture(id, idempotencyKey) {
      await call(() => cko.payments.capture(id, {}, idempotencyKey));
    },
    async void(id, idempotencyKey) {
      await call(() => cko.payments.void(id, {}, idempotencyKey));
    },
    async refund(id, idempotencyKey) {
      await call(() => cko.payments.refund(id, {}, idempotencyKey));
    },
    verifyWebhook(rawBody, signature) {
      if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return false;
      const expected = createHmac('sha256', options.webhookSignatureKey).update(rawBody).digest();
      return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
    },
    publicConfig() {
      return { publicKey: options.publicKey, apiUrl };
    },
  };
}
