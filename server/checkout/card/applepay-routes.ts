import { readFileSync } from 'node:fs';
import { ErrorCode } from '#domain/errors';
import { ApplePayMerchantSession } from '#domain/responses/checkout';
import { ApplePayValidationBody } from '#domain/schemas/applepay';
import type { Services } from '../../deps';
import { apiError, badRequest, defineRoute, type Route } from '../../http';
import {
  ApplePayRefusedError,
  ApplePayUnavailableError,
  createApplePayGateway,
} from '../../payments/applepay';

/** Where the embedded card sandbox plays Apple's gateway. */
export const SANDBOX_APPLE_PAY_PATH = '/applepay/paymentSession';

/**
 * Apple Pay merchant validation (docs/checkout.md, "Apple Pay and Google Pay"). The payment itself
 * is a card charge (POST checkout-com-charges with billingInfo.wallet 'applepay').
 */
export function applePayRoutes(s: Services): Route[] {
  // The merchant identity certificate is read once, at start: a missing file stops the server.
  const apple = s.config.applePay;
  const tls =
    apple?.merchantCertFile && apple.merchantKeyFile
      ? { cert: readFileSync(apple.merchantCertFile), key: readFileSync(apple.merchantKeyFile) }
      : undefined;

  return [
    defineRoute({
      method: 'post',
      path: '/checkout-com-charges/actions/applepay',
      tag: 'checkout',
      auth: 'required',
      summary:
        'Apple Pay merchant validation: asks the Apple gateway of the validationURL (an allow-listed Apple host) for a merchant session and answers it unchanged',
      body: ApplePayValidationBody,
      response: ApplePayMerchantSession,
      responses: {
        200: 'Apple’s merchant session (opaque; single use, valid 5 minutes): pass it to completeMerchantValidation',
        400: 'INVALID_VALUE.validationURL (not an https URL of an Apple Pay gateway host), WALLET_REQUIRED',
        401: 'Not logged in',
        502: 'PAYMENT_PROVIDER (the gateway could not be reached), PROCESSING_ERROR (the gateway refused)',
        503: 'Apple Pay is off',
      },
      async handler(c, { body }) {
        const config = s.config.applePay;
        if (!config || !s.cardProvider)
          throw apiError(503, 'unavailable', undefined, 'Apple Pay is not available.');
        // A session is only worth asking for when the buyer can pay: the purchase needs a wallet.
        if (!c.get('user')!.walletAddress) throw badRequest(ErrorCode.WALLET_REQUIRED);
        const sandbox =
          s.config.checkoutCom.mode === 'embedded'
            ? `${s.cardProvider.publicConfig().apiUrl.replace(/\/+$/, '')}${SANDBOX_APPLE_PAY_PATH}`
            : undefined;
        const gateway = createApplePayGateway({
          merchantId: config.merchantId,
          displayName: config.displayName,
          // The domain registered with Apple: the one the buyer's page is on.
          initiativeContext: new URL(s.config.publicUrl).hostname,
          gatewayUrl: config.gatewayUrl ?? sandbox,
          tls,
        });
        try {
          return c.json(await gateway.merchantSession(body.validationURL));
        } catch (err) {
          if (err instanceof ApplePayUnavailableError) {
            s.log.error('Apple Pay merchant validation: gateway unreachable', err.message);
            throw apiError(502, ErrorCode.PAYMENT_PROVIDER);
          }
          if (err instanceof ApplePayRefusedError) {
            s.log.error('Apple Pay merchant validation refused', err.message);
            throw apiError(502, ErrorCode.PROCESSING_ERROR);
          }
          throw err;
        }
      },
    }),
  ];
}
