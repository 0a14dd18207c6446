import { fromCallback, fromPromise, type PromiseActorLogic } from 'xstate';
import { ApiError, ErrorCode, errorMessage } from '#domain/errors';
import type {
  MobileWallet,
  WalletBilling,
  WalletPaymentEvent,
  WalletSheetCommand,
} from '#domain/ports/checkout';
import type { CardChargeJson, CreateCardChargeBody, PaymentsConfigJson } from '#domain/schemas/checkout';
import type { Api } from './api';

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

/**
 * Apple's payment request for the price (merchant in the US, USD). A billing contact can only ask for
 * the postal address (the name comes with it); the phone is a contact field of the shipping contact,
 * which, asked for the phone alone, carries no address.
 */
export function applePayRequest(price: number, label: string) {
  return {
    countryCode: 'US',
    currencyCode: 'USD',
    supportedNetworks: APPLE_PAY_NETWORKS,
    merchantCapabilities: ['supports3DS'],
    requiredBillingContactFields: ['postalAddress'],
    requiredShippingContactFields: ['phone'],
    total: { label, amount: amount(price), type: 'final' },
  };
}

/**
 * Google's IsReadyToPayRequest: the API version and the same allowed payment methods as the payment
 * request, so the answer is about the cards this checkout would take.
 */
export function googlePayReadyRequest(google: NonNullable<PaymentsConfigJson['googlePay']>) {
  const { apiVersion, apiVersionMinor, allowedPaymentMethods } = googlePayRequest(0, google);
  return { apiVersion, apiVersionMinor, allowedPaymentMethods };
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

/** Apple's billing contact, with the phone of its shipping contact. */
export const appleBilling = (
  c: ApplePayContact | undefined,
  shipping?: ApplePayContact,
): Partial<WalletBilling> => ({
  firstName: c?.givenName,
  lastName: c?.familyName,
  addressLine1: c?.addressLines?.[0],
  addressLine2: c?.addressLines?.[1],
  city: c?.locality,
  state: c?.administrativeArea,
  zipCode: c?.postalCode,
  country: c?.countryCode,
  phoneNumber: shipping?.phoneNumber ?? c?.phoneNumber,
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

/** Google's client library, loaded by the page that pays (Google Pay API for web). */
export const GOOGLE_PAY_SCRIPT = 'https://pay.google.com/gp/p/js/pay.js';
/** How long the payment methods wait for Google's script before going on without Google Pay. */
export const GOOGLE_PAY_SCRIPT_TIMEOUT_MS = 5_000;

/**
 * Where this page's Google `PaymentsClient` comes from: none when Google Pay is off; the stand-in
 * where the card provider is the embedded sandbox (its tokens are the sandbox's test format, which
 * real Google Pay cannot make); else Google's own script (TEST or PRODUCTION with Checkout.com).
 */
export function googlePaySource(c: PaymentsConfigJson): 'off' | 'stand-in' | 'script' {
  if (!c.googlePay) return 'off';
  return c.walletStandIns ? 'stand-in' : 'script';
}

const scripts = new Map<string, Promise<void>>();

/**
 * Adds `<script async src>` to the document once and settles when it has loaded (or failed: then it
 * is removed, and a later call tries again).
 */
export function loadScript(src: string): Promise<void> {
  const known = scripts.get(src);
  if (known) return known;
  const loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener(
      'error',
      () => {
        scripts.delete(src);
        script.remove();
        reject(new Error(`Unable to load ${src}`));
      },
      { once: true },
    );
    document.head.append(script);
  });
  scripts.set(src, loading);
  return loading;
}

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
  /**
   * Google's script, loaded when Google Pay is first considered (never where it is off or played by
   * the stand-in); false when it could not load in time.
   */
  let googleScript: Promise<boolean> | null = null;
  const loadGoogle = (c: PaymentsConfigJson): Promise<boolean> => {
    if (googlePaySource(c) !== 'script') return Promise.resolve(true);
    if (window.google?.payments?.api?.PaymentsClient) return Promise.resolve(true);
    googleScript ??= new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), scriptTimeoutMs);
      load(GOOGLE_PAY_SCRIPT).then(
        () => {
          clearTimeout(timer);
          resolve(!!window.google?.payments?.api?.PaymentsClient);
        },
        () => {
          clearTimeout(timer);
          resolve(false);
        },
      );
    }).then((loaded) => {
      // A failed load may be tried again by the next checkout.
      if (!loaded) googleScript = null;
      return loaded;
    });
    return googleScript;
  };
  /** One PaymentsClient per page, as Google advises; null when Google Pay is off or not loaded. */
  let client: { environment: string; client: GooglePaymentsClient } | null = null;
  const googleClient = (c: PaymentsConfigJson): GooglePaymentsClient | null => {
    const PaymentsClient = window.google?.payments?.api?.PaymentsClient;
    if (!PaymentsClient || !c.googlePay) return null;
    const { environment } = c.googlePay;
    if (client?.environment !== environment)
      client = { environment, client: new PaymentsClient({ environment }) };
    return client.client;
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
          // Version 3: supports3DS and the contact fields used here. Safari throws on a malformed request.
          let session: ApplePaySessionLike;
          try {
            session = new ApplePaySession(3, applePayRequest(input.price, input.label));
          } catch (error) {
            send({ type: 'wallet.failed', error });
            return;
          }
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
              payment: {
                token: { paymentData: unknown };
                billingContact?: ApplePayContact;
                shippingContact?: ApplePayContact;
              };
            };
            send({
              type: 'wallet.authorized',
              authorization: {
                tokenData: payment.token.paymentData,
                billing: appleBilling(payment.billingContact, payment.shippingContact),
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
            if (c.googlePay) await loadGoogle(c);
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
