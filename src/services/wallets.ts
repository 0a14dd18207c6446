import { fromPromise, type PromiseActorLogic } from 'xstate';
import { ApiError, ErrorCode, errorMessage } from '#domain/errors';
import type { MobileWallet } from '#domain/ports/checkout';
import type { CardChargeJson, CreateCardChargeBody, PaymentsConfigJson } from '#domain/schemas/checkout';
import type { Api } from './api';
import { GOOGLE_PAY_SCRIPT_TIMEOUT_MS, googlePayLoader, loadScript } from './google-pay-script';
import { googlePayReadyRequest } from './wallet-requests';
import { walletSheet } from './wallet-sheet';

export {
  GOOGLE_PAY_SCRIPT,
  GOOGLE_PAY_SCRIPT_TIMEOUT_MS,
  googlePaySource,
  loadScript,
} from './google-pay-script';
export {
  APPLE_PAY_NETWORKS,
  appleBilling,
  applePayRequest,
  GOOGLE_PAY_NETWORKS,
  type GooglePaymentsClient,
  googleBilling,
  googlePayReadyRequest,
  googlePayRequest,
} from './wallet-requests';

/**
 * Apple Pay and Google Pay in the browser, with their real APIs: `ApplePaySession` (merchant
 * validation through our server, `POST checkout-com-charges/actions/applepay`) and Google's
 * `PaymentsClient` (tokenization gateway `checkoutltd`). Either wallet's token is exchanged for a
 * card token at the card provider (`POST {apiUrl}/tokens { type, token_data }`, with its public
 * key), then charged like a card.
 *
 * Apple Pay needs no script: `ApplePaySession` is Safari's own. Google's `PaymentsClient` comes from
 * Google's script (GOOGLE_PAY_SCRIPT), added to the page the first time the payment methods consider
 * Google Pay, and only where Google Pay is on with a real card provider (the server's
 * Content-Security-Policy then allows its origin). Where the card provider is our sandbox, the
 * stand-ins of wallet-standins.ts play both wallets instead (real wallets' tokens cannot reach the
 * sandbox, and Safari's sheet is not at hand).
 */

export interface WalletsDeps {
  api: Api;
  /** GET config/payments (cached by the card service). */
  config: () => Promise<PaymentsConfigJson>;
  fetch?: typeof fetch;
  /** Loads a script of another origin (Google's pay.js); `loadScript` unless a test says otherwise. */
  loadScript?: (src: string) => Promise<void>;
  /** How long Google's script may take (GOOGLE_PAY_SCRIPT_TIMEOUT_MS). */
  scriptTimeoutMs?: number;
}

export function walletService({
  api,
  config,
  fetch: fetchImpl,
  loadScript: load = loadScript,
  scriptTimeoutMs = GOOGLE_PAY_SCRIPT_TIMEOUT_MS,
}: WalletsDeps) {
  /** Installs the stand-ins where the card provider is our sandbox; answers the wallets' entry points. */
  const ready = async () => {
    const c = await config();
    if (c.walletStandIns) await (await import('./wallet-standins')).installWalletStandIns(c);
    return c;
  };
  const { loadGoogle, googleClient } = googlePayLoader(load, scriptTimeoutMs);

  return {
    /** The wallets this browser can pay with here: Apple Pay with a card set up, Google Pay when ready. */
    async available(): Promise<MobileWallet[]> {
      const c = await ready();
      const wallets: MobileWallet[] = [];
      try {
        if (c.applePay && window.ApplePaySession?.canMakePayments()) wallets.push('applepay');
      } catch {
        // Not in a secure context: no Apple Pay.
      }
      if (c.googlePay && (await loadGoogle(c))) {
        let ready = false;
        try {
          ready = (await googleClient(c)?.isReadyToPay(googlePayReadyRequest(c.googlePay)))?.result === true;
        } catch {
          // Google refused the request or the environment: no Google Pay.
        }
        if (ready) wallets.push('googlepay');
      }
      return wallets;
    },

    /** POST {apiUrl}/tokens { type, token_data }: the card token of a wallet's payment. */
    async tokenize(wallet: MobileWallet, tokenData: unknown): Promise<{ token: string }> {
      const c = await config();
      if (!c.card)
        throw new ApiError(503, {
          code: ErrorCode.PAYMENT_PROVIDER,
          message: errorMessage({ code: ErrorCode.PAYMENT_PROVIDER }),
        });
      const { default: ky } = await import('ky');
      try {
        return await ky
          .post(`${c.card.apiUrl.replace(/\/+$/, '')}/tokens`, {
            headers: { Authorization: `Bearer ${c.card.publicKey}` },
            json: { type: wallet, token_data: tokenData },
            retry: 0,
            timeout: 20_000,
            fetch: fetchImpl,
          })
          .json<{ token: string }>();
      } catch {
        throw new ApiError(400, {
          code: ErrorCode.CHECKOUT_COM_TOKEN,
          message: errorMessage({ code: ErrorCode.CHECKOUT_COM_TOKEN }),
        });
      }
    },

    /** The wallet's payment sheet as the walletPayment machine's `sheet` actor. */
    sheet: walletSheet({ api, config, loadGoogle, googleClient }),
  };
}
export type WalletService = ReturnType<typeof walletService>;

/** The actors walletPaymentMachine names. */
export function walletActors(
  service: WalletService,
  createCharge: PromiseActorLogic<CardChargeJson, CreateCardChargeBody>,
) {
  return {
    sheet: service.sheet,
    tokenizeWallet: fromPromise<{ token: string }, { wallet: MobileWallet; tokenData: unknown }>(
      ({ input }) => service.tokenize(input.wallet, input.tokenData),
    ),
    createCharge,
  };
}
