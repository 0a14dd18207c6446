import { PaymentsConfigJson } from '#domain/responses/checkout';
import type { Services } from '../deps';
import { defineRoute, type Route } from '../http';

/**
 * Whether the browser plays Apple Pay and Google Pay with stand-ins: the card provider is the
 * embedded sandbox, which real wallets' tokens cannot reach.
 */
export const walletStandIns = (s: Services) =>
  s.cardProvider !== null && s.config.checkoutCom.mode === 'embedded';

/**
 * Whether the browser loads Google's Google Pay script: Google Pay is on with a real card provider
 * (the server's Content-Security-Policy then allows its origin).
 */
export const googlePayScript = (s: Services) =>
  s.cardProvider !== null && !!s.config.googlePay && !walletStandIns(s);

/** What the browser needs to pay: the card provider's public key and API base (never a secret), and which rails run. */
export function paymentsConfigRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/config/payments',
      tag: 'checkout',
      summary:
        'The card provider’s public key and API base the browser tokenizes cards with (card is null when card payments are off), which rails run (crypto, the balance, the card-to-crypto on-ramp), and the Apple Pay and Google Pay settings (null when off)',
      response: PaymentsConfigJson,
      responses: {
        200: '{ card: { publicKey, apiUrl } | null, crypto: boolean, balance: boolean, onramp: boolean, token?: { chainId, chainName, rpcUrl | null, tokenAddress, paymentsAddress } (only with NFM_PAYMENTS=on), applePay: { merchantId, displayName } | null, googlePay: { gateway, gatewayMerchantId, merchantId, merchantName, environment } | null }',
      },
      handler(c) {
        const body: PaymentsConfigJson = {
          card: s.cardProvider?.publicConfig() ?? null,
          crypto: s.cryptoProvider !== null,
          balance: s.chainClient !== null,
          // The on-ramp's widget details (partner id, origin) come with each charge (POST wert-charges).
          onramp: s.onrampProvider !== null,
          // The utility token (NFM) from a browser wallet: only with the NFM_PAYMENTS flag on.
          ...(s.tokenChain
            ? {
                token: {
                  chainId: s.tokenChain.chainId,
                  chainName: s.tokenChain.chainName,
                  rpcUrl: s.tokenChain.publicRpcUrl,
                  tokenAddress: s.tokenChain.tokenAddress,
                  paymentsAddress: s.tokenChain.paymentsAddress,
                },
              }
            : {}),
          // The wallets are paid through the card provider: off without it.
          applePay:
            s.cardProvider && s.config.applePay
              ? { merchantId: s.config.applePay.merchantId, displayName: s.config.applePay.displayName }
              : null,
          googlePay:
            s.cardProvider && s.config.googlePay
              ? {
                  gateway: 'checkoutltd',
                  gatewayMerchantId: s.cardProvider.publicConfig().publicKey,
                  merchantId: s.config.googlePay.merchantId,
                  merchantName: s.config.googlePay.merchantName,
                  environment: s.config.googlePay.environment,
                }
              : null,
          walletStandIns: walletStandIns(s),
        };
        return c.json(body);
      },
    }),
  ];
}
