import { fromCallback, fromPromise, type PromiseActorLogic } from 'xstate';
import type {
  MobileWallet,
  WalletBilling,
  WalletPaymentEvent,
  WalletSheetCommand,
} from '../../machines/walletPayment';
import { ApiError, ErrorCode, errorMessage } from '../domain/errors';
import type { CardChargeJson, CreateCardChargeBody, PaymentsConfigJson } from '../domain/schemas/checkout';
import type { Api } from './api';

/**
 * Apple Pay and Google Pay in the browser, with their real APIs: `ApplePaySession` (merchant
 * validation through our server, `POST checkout-com-charges/actions/applepay`) and Google's
 * `PaymentsClient` (tokenization gateway `checkoutltd`). Either wallet's token is exchanged for a
 * card token at the card provider (`POST {apiUrl}/tokens { type, token_data }`, with its public
 * key), then charged like a card. Where the card provider is our sandbox, the stand-ins of
 * wallet-standins.ts play both wallets (Google's script cannot load here, and Safari's sheet is not
 * at hand).
 */

/* ---- The browser APIs, as far as they are used ---- */

interface ApplePayContact {
  givenName?: string;
  familyName?: string;
  addressLines?: string[];
  locality?: string;
  administrativeArea?: string;
  postalCode?: string;
  countryCode?: string;
  phoneNumber?: string;
}
interface ApplePaySessionLike extends EventTarget {
  begin(): void;
  abort(): void;
  completeMerchantValidation(session: unknown): void;
  completePayment(status: number): void;
  onvalidatemerchant: ((event: { validationURL: string }) => void) | null;
}
interface ApplePaySessionClass {
  new (version: number, request: unknown): ApplePaySessionLike;
  canMakePayments(): boolean;
  STATUS_SUCCESS?: number;
  STATUS_FAILURE?: number;
}
interface GoogleAddress {
  name?: string;
  address1?: string;
  address2?: string;
  locality?: string;
  administrativeArea?: string;
  postalCode?: string;
  countryCode?: string;
  phoneNumber?: string;
}
export interface GooglePaymentsClient {
  isReadyToPay(request: unknown): Promise<{ result: boolean }>;
  loadPaymentData(request: unknown): Promise<{
    paymentMethodData: {
      tokenizationData: { type: string; token: string };
      info?: { billingAddress?: GoogleAddress };
    };
  }>;
}
declare global {
  interface Window {
    ApplePaySession?: ApplePaySessionClass;
    google?: {
      payments: { api: { PaymentsClient: new (options: { environment: string }) => GooglePaymentsClient } };
    };
  }
}

/** The networks each wallet offers (Apple's names are camelCase, Google's upper case). */
export const APPLE_PAY_NETWORKS = ['visa', 'masterCard', 'amex', 'discover'];
export const GOOGLE_PAY_NETWORKS = ['AMEX', 'DISCOVER', 'JCB', 'MASTERCARD', 'VISA'];

const amount = (cents: number) => (cents / 100).toFixed(2);

/** Apple's payment request for the price (merchant in the US, USD). */
export function applePayRequest(price: number, label: string) {
  return {
    countryCode: 'US',
    currencyCode: 'USD',
    supportedNetworks: APPLE_PAY_NETWORKS,
    merchantCapabilities: ['supports3DS'],
    requiredBillingContactFields: ['postalAddress', 'name'],
    total: { label, amount: amount(price), type: 'final' },
  };
}

/** Google's payment data request for the price, tokenized for the card provider. */
export function googlePayRequest(price: number, google: NonNullable<PaymentsConfigJson['googlePay']>) {
  return {
    apiVersion: 2,
    apiVersionMinor: 0,
    allowedPaymentMethods: [
      {
        type: 'CARD',
        parameters: {
          allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'],
          allowedCardNetworks: GOOGLE_PAY_NETWORKS,
          billingAddressRequired: true,
          billingAddressParameters: { format: 'FULL', phoneNumberRequired: true },
        },
        tokenizationSpecification: {
          type: 'PAYMENT_GATEWAY',
          parameters: { gateway: 'checkoutltd', gatewayMerchantId: google.gatewayMerchantId },
        },
      },
    ],
    merchantInfo: { merchantId: google.merchantId, merchantName: google.merchantName },
    transactionInfo: {
      totalPriceStatus: 'FINAL',
      totalPrice: amount(price),
      currencyCode: 'USD',
      countryCode: 'US',
    },
  };
}

export const appleBilling = (c: ApplePayContact | undefined): Partial<WalletBilling> => ({
  firstName: c?.givenName,
  lastName: c?.familyName,
  addressLine1: c?.addressLines?.[0],
  addressLine2: c?.addressLines?.[1],
  city: c?.locality,
  state: c?.administrativeArea,
  zipCode: c?.postalCode,
  country: c?.countryCode,
  phoneNumber: c?.phoneNumber,
});

export const googleBilling = (a: GoogleAddress | undefined): Partial<WalletBilling> => {
  const [firstName, ...rest] = (a?.name ?? '').trim().split(/\s+/);
  return {
    firstName: firstName || undefined,
    lastName: rest.join(' ') || undefined,
    addressLine1: a?.address1,
    addressLine2: a?.address2,
    city: a?.locality,
    state: a?.administrativeArea,
    zipCode: a?.postalCode,
    country: a?.countryCode,
    phoneNumber: a?.phoneNumber,
  };
};

export interface WalletsDeps {
  api: Api;
  /** GET config/payments (cached by the card service). */
  config: () => Promise<PaymentsConfigJson>;
  fetch?: typeof fetch;
}

export function walletService({ api, config, fetch: fetchImpl }: WalletsDeps) {
  /** Installs the stand-ins where the card provider is our sandbox; answers the wallets' entry points. */
  const ready = async () => {
    const c = await config();
    if (c.walletStandIns) await (await import('./wallet-standins')).installWalletStandIns(c);
    return c;
  };
  const googleClient = (c: PaymentsConfigJson) => {
    const PaymentsClient = window.google?.payments.api.PaymentsClient;
    return PaymentsClient && c.googlePay
      ? new PaymentsClient({ environment: c.googlePay.environment })
      : null;
  };

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
      const google = googleClient(c);
      if (google && c.googlePay) {
        const request = googlePayRequest(0, c.googlePay);
        const { result } = await google
          .isReadyToPay({ ...request, allowedPaymentMethods: request.allowedPaymentMethods })
          .catch(() => ({ result: false }));
        if (result) wallets.push('googlepay');
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
    sheet: fromCallback<WalletSheetCommand, { wallet: MobileWallet; price: number; label: string }>(
      ({ input, sendBack, receive }) => {
        const send = (event: WalletPaymentEvent) => sendBack(event as never);
        let ended = false;
        if (input.wallet === 'applepay') {
          const ApplePaySession = window.ApplePaySession;
          if (!ApplePaySession) {
            send({ type: 'wallet.failed', error: new Error('Apple Pay is not available') });
            return;
          }
          // Version 3: supports3DS and the billing contact fields used here.
          const session = new ApplePaySession(3, applePayRequest(input.price, input.label));
          session.onvalidatemerchant = (event) => {
            api
              .post<unknown>('checkout-com-charges/actions/applepay', { validationURL: event.validationURL })
              .then((merchantSession) => session.completeMerchantValidation(merchantSession))
              .catch((error) => {
                ended = true;
                session.abort();
                send({ type: 'wallet.failed', error });
              });
          };
          session.addEventListener('paymentauthorized', (event) => {
            const { payment } = event as unknown as {
              payment: { token: { paymentData: unknown }; billingContact?: ApplePayContact };
            };
            send({
              type: 'wallet.authorized',
              authorization: {
                tokenData: payment.token.paymentData,
                billing: appleBilling(payment.billingContact),
              },
            });
          });
          session.addEventListener('cancel', () => {
            if (ended) return;
            ended = true;
            send({ type: 'wallet.canceled' });
          });
          receive((command) => {
            ended = true;
            session.completePayment(
              command.success ? (ApplePaySession.STATUS_SUCCESS ?? 0) : (ApplePaySession.STATUS_FAILURE ?? 1),
            );
          });
          session.begin();
          return () => {
            if (!ended) session.abort();
          };
        }
        let stopped = false;
        void config()
          .then(async (c) => {
            const client = googleClient(c);
            if (!client || !c.googlePay) throw new Error('Google Pay is not available');
            const data = await client.loadPaymentData(googlePayRequest(input.price, c.googlePay));
            if (stopped) return;
            send({
              type: 'wallet.authorized',
              authorization: {
                tokenData: JSON.parse(data.paymentMethodData.tokenizationData.token),
                billing: googleBilling(data.paymentMethodData.info?.billingAddress),
              },
            });
          })
          .catch((error: { statusCode?: string }) => {
            if (stopped) return;
            send(
              error?.statusCode === 'CANCELED'
                ? { type: 'wallet.canceled' }
                : { type: 'wallet.failed', error },
            );
          });
        return () => {
          stopped = true;
        };
      },
    ),
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
