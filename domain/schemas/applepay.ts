import * as v from 'valibot';
import { documented } from '../validation';

/**
 * Apple Pay on the web: merchant validation (`POST checkout-com-charges/actions/applepay`). The
 * browser's `ApplePaySession.onvalidatemerchant` hands over `event.validationURL`; the server asks
 * that Apple gateway for a merchant session (mutual TLS with the merchant identity certificate) and
 * answers it unchanged, for `session.completeMerchantValidation(session)`.
 *
 * Apple: "use a strict allow list for Apple IP addresses and domains … do not allow your server to
 * access any other IP addresses or domains" (Setting Up Your Server,
 * https://developer.apple.com/documentation/applepayontheweb/setting-up-your-server). Today's page
 * lists apple-pay-gateway.apple.com, cn-apple-pay-gateway.apple.com and, for sandbox testing,
 * apple-pay-gateway-cert.apple.com; its earlier revision also listed the regional pods (nc, pr, and
 * China's sh and tj) and cn-apple-pay-gateway-cert.apple.com, which Safari may still hand out.
 */
export const APPLE_PAY_GATEWAY_HOSTS: readonly string[] = [
  'apple-pay-gateway.apple.com',
  'cn-apple-pay-gateway.apple.com',
  'apple-pay-gateway-cert.apple.com',
  'cn-apple-pay-gateway-cert.apple.com',
  ...[1, 2, 3, 4, 5].flatMap((n) => [
    `apple-pay-gateway-nc-pod${n}.apple.com`,
    `apple-pay-gateway-pr-pod${n}.apple.com`,
  ]),
  ...[1, 2, 3].flatMap((n) => [
    `cn-apple-pay-gateway-sh-pod${n}.apple.com`,
    `cn-apple-pay-gateway-tj-pod${n}.apple.com`,
  ]),
];

/** An https URL on one of Apple's gateway hosts, on the default port, without credentials. */
export function isApplePayGatewayUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'https:' &&
    url.port === '' &&
    url.username === '' &&
    url.password === '' &&
    APPLE_PAY_GATEWAY_HOSTS.includes(url.hostname.toLowerCase())
  );
}

/** POST checkout-com-charges/actions/applepay. */
export const ApplePayValidationBody = v.object({
  validationURL: v.pipe(
    v.string('INVALID_VALUE.validationURL'),
    v.maxLength(2048, 'INVALID_VALUE.validationURL'),
    documented<string>({
      type: 'string',
      maxLength: 2048,
      pattern: `^https://(?:${APPLE_PAY_GATEWAY_HOSTS.map((h) => h.replaceAll('.', '\\.')).join('|')})(?:/[A-Za-z0-9._~/-]*)?$`,
    }),
    v.check(isApplePayGatewayUrl, 'INVALID_VALUE.validationURL'),
  ),
});
export type ApplePayValidationBody = v.InferOutput<typeof ApplePayValidationBody>;

/** Answers of these routes: their schemas are in domain/responses/checkout. */
export type { ApplePayMerchantSession } from '../responses/checkout';
