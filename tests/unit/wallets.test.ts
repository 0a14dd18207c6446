import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { phoneCallingCode, walletContactGap } from '#domain/billing';
import { errorMessage } from '#domain/errors';
import type { CardChargeJson, CreateCardChargeBody, PaymentsConfigJson } from '#domain/schemas/checkout';
import { walletPaymentMachine } from '../../machines/walletPayment';
import { applePayRequestProblem, googlePayRequestProblem } from '../../sandbox/checkout-com/wallets';
import type { Api } from '../../src/services/api';
import {
  applePayContacts,
  googlePayBillingAddress,
  PaymentsClientStandIn,
  TEST_CONTACT,
} from '../../src/services/wallet-standins';
import {
  applePayRequest,
  GOOGLE_PAY_SCRIPT,
  type GooglePaymentsClient,
  googlePayReadyRequest,
  googlePayRequest,
  googlePaySource,
  loadScript,
  walletService,
} from '../../src/services/wallets';

/**
 * Apple Pay and Google Pay in the browser: the requests the checkout hands to ApplePaySession and
 * Google's PaymentsClient, the stand-ins refusing what the real clients refuse, where Google's
 * client comes from (Google's script or the stand-in), and the test wallet's sheet.
 */

const GOOGLE: NonNullable<PaymentsConfigJson['googlePay']> = {
  gateway: 'checkoutltd',
  gatewayMerchantId: 'pk_sbox_vitrinetestkey0000000000000',
  merchantId: 'BCR2DN4T1234567',
  merchantName: 'Vitrine',
  environment: 'PRODUCTION',
};
/** The card sandbox's public key: its gateway merchant id. */
const SANDBOX_PUBLIC_KEY = 'pk_sbox_vitrinesandboxpublickeyabcd';
const config = (change: Partial<PaymentsConfigJson> = {}): PaymentsConfigJson => ({
  card: { publicKey: GOOGLE.gatewayMerchantId, apiUrl: 'https://api.sandbox.checkout.com' },
  crypto: false,
  balance: false,
  onramp: false,
  applePay: null,
  googlePay: GOOGLE,
  walletStandIns: false,
  ...change,
});

describe('the wallets’ payment requests', () => {
  it('asks Google Pay for API 2.0, PAN_ONLY and CRYPTOGRAM_3DS on five networks, tokenized for Checkout.com', () => {
    expect(googlePayRequest(2550, GOOGLE)).toEqual({
      apiVersion: 2,
      apiVersionMinor: 0,
      allowedPaymentMethods: [
        {
          type: 'CARD',
          parameters: {
            allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'],
            allowedCardNetworks: ['AMEX', 'DISCOVER', 'JCB', 'MASTERCARD', 'VISA'],
            billingAddressRequired: true,
            billingAddressParameters: { format: 'FULL', phoneNumberRequired: true },
          },
          tokenizationSpecification: {
            type: 'PAYMENT_GATEWAY',
            parameters: { gateway: 'checkoutltd', gatewayMerchantId: GOOGLE.gatewayMerchantId },
          },
        },
      ],
      merchantInfo: { merchantId: 'BCR2DN4T1234567', merchantName: 'Vitrine' },
      transactionInfo: {
        totalPriceStatus: 'FINAL',
        totalPrice: '25.50',
        currencyCode: 'USD',
        countryCode: 'US',
      },
    });
    // isReadyToPay: the same payment methods, nothing about the transaction.
    expect(googlePayReadyRequest(GOOGLE)).toEqual({
      apiVersion: 2,
      apiVersionMinor: 0,
      allowedPaymentMethods: googlePayRequest(2550, GOOGLE).allowedPaymentMethods,
    });
  });

  it('asks Apple Pay for visa, masterCard, amex and discover with supports3DS, the billing address and a phone', () => {
    expect(applePayRequest(2550, 'Sunrise #3')).toEqual({
      countryCode: 'US',
      currencyCode: 'USD',
      supportedNetworks: ['visa', 'masterCard', 'amex', 'discover'],
      merchantCapabilities: ['supports3DS'],
      requiredBillingContactFields: ['postalAddress'],
      requiredShippingContactFields: ['phone'],
      total: { label: 'Sunrise #3', amount: '25.50', type: 'final' },
    });
  });

  it('are well formed by Google’s and Apple’s rules; the rules refuse requests of the wrong shape', () => {
    const google = googlePayRequest(2550, GOOGLE);
    const expected = {
      environment: 'PRODUCTION',
      gateway: 'checkoutltd',
      gatewayMerchantId: GOOGLE.gatewayMerchantId,
    };
    expect(googlePayRequestProblem(google, 'loadPaymentData', expected)).toBeNull();
    expect(googlePayRequestProblem(googlePayReadyRequest(GOOGLE), 'isReadyToPay', expected)).toBeNull();
    const method = google.allowedPaymentMethods[0]!;
    for (const [change, call, problem] of [
      [{ apiVersion: 1 }, 'isReadyToPay', /apiVersion/],
      [{ apiVersionMinor: 1 }, 'isReadyToPay', /apiVersionMinor/],
      [{ allowedPaymentMethods: [] }, 'isReadyToPay', /allowedPaymentMethods/],
      [
        {
          allowedPaymentMethods: [
            { ...method, parameters: { ...method.parameters, allowedCardNetworks: ['visa'] } },
          ],
        },
        'isReadyToPay',
        /allowedCardNetworks/,
      ],
      [
        {
          allowedPaymentMethods: [
            { ...method, parameters: { ...method.parameters, allowedAuthMethods: ['3DS'] } },
          ],
        },
        'isReadyToPay',
        /allowedAuthMethods/,
      ],
      [
        {
          allowedPaymentMethods: [
            { ...method, parameters: { ...method.parameters, billingAddressParameters: { format: 'LONG' } } },
          ],
        },
        'isReadyToPay',
        /format/,
      ],
      [
        { allowedPaymentMethods: [{ type: 'CARD', parameters: method.parameters }] },
        'loadPaymentData',
        /tokenization/,
      ],
      [
        {
          allowedPaymentMethods: [
            {
              ...method,
              tokenizationSpecification: {
                type: 'PAYMENT_GATEWAY',
                parameters: { gateway: 'stripe', gatewayMerchantId: 'x' },
              },
            },
          ],
        },
        'loadPaymentData',
        /checkoutltd/,
      ],
      [{ merchantInfo: { merchantName: 'Vitrine' } }, 'loadPaymentData', /merchantId/],
      [{ transactionInfo: { ...google.transactionInfo, totalPrice: 25.5 } }, 'loadPaymentData', /totalPrice/],
      [
        { transactionInfo: { ...google.transactionInfo, totalPrice: '25.5' } },
        'loadPaymentData',
        /totalPrice/,
      ],
      [
        { transactionInfo: { ...google.transactionInfo, currencyCode: 'usd' } },
        'loadPaymentData',
        /currencyCode/,
      ],
      [{ transactionInfo: undefined }, 'loadPaymentData', /transactionInfo/],
    ] as const) {
      expect({ change, problem: googlePayRequestProblem({ ...google, ...change }, call, expected) }).toEqual({
        change,
        problem: expect.stringMatching(problem),
      });
    }

    const apple = applePayRequest(2550, 'Sunrise #3');
    expect(applePayRequestProblem(apple)).toBeNull();
    for (const [change, problem] of [
      [{ supportedNetworks: ['visa', 'mastercard'] }, /supportedNetworks/],
      [{ supportedNetworks: ['VISA'] }, /supportedNetworks/],
      [{ merchantCapabilities: ['supportsCredit'] }, /supports3DS/],
      [{ countryCode: 'USA' }, /countryCode/],
      [{ requiredShippingContactFields: ['telephone'] }, /requiredShippingContactFields/],
      [{ total: { label: 'x', amount: 25.5 } }, /total.amount/],
      [{ total: { label: '', amount: '25.50' } }, /total.label/],
    ] as const) {
      expect({ change, problem: applePayRequestProblem({ ...apple, ...change }) }).toEqual({
        change,
        problem: expect.stringMatching(problem),
      });
    }
  });

  it('the Google Pay stand-in refuses a request of the wrong shape as Google’s client does, before showing a sheet', async () => {
    const client = new PaymentsClientStandIn({ environment: 'TEST' }, SANDBOX_PUBLIC_KEY);
    const test = { ...GOOGLE, environment: 'TEST' as const, gatewayMerchantId: SANDBOX_PUBLIC_KEY };
    expect(await client.isReadyToPay(googlePayReadyRequest(test))).toEqual({ result: true });
    await expect(client.isReadyToPay({ ...googlePayReadyRequest(test), apiVersion: 1 })).rejects.toEqual({
      statusCode: 'DEVELOPER_ERROR',
      statusMessage: 'apiVersion must be 2',
    });
    // The sandbox plays Checkout.com: another gateway merchant's request is refused.
    await expect(client.loadPaymentData(googlePayRequest(100, GOOGLE))).rejects.toMatchObject({
      statusCode: 'DEVELOPER_ERROR',
      statusMessage: 'gatewayMerchantId is not this gateway merchant',
    });
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    // Not ready in PRODUCTION: its tokens would be test tokens.
    const production = new PaymentsClientStandIn({ environment: 'PRODUCTION' }, SANDBOX_PUBLIC_KEY);
    expect(await production.isReadyToPay(googlePayReadyRequest(test))).toEqual({ result: false });
    expect(() => new PaymentsClientStandIn({ environment: 'LIVE' }, SANDBOX_PUBLIC_KEY)).toThrow(
      /environment/,
    );
  });
});

describe('Apple Pay’s contact rule', () => {
  const contact = {
    addressLine1: '1 Test Street',
    city: 'Arlington',
    state: 'VA',
    zipCode: '22201',
    country: 'US',
    phoneNumber: '+1 703 555 0100',
  };

  it('tells the country calling code from the phone: international, or national in the contact’s country', () => {
    expect(phoneCallingCode('+1 703 555 0100', 'US')).toBe('1');
    expect(phoneCallingCode('+44 20 7946 0000', 'US')).toBe('44');
    expect(phoneCallingCode('(703) 555-0100', 'US')).toBe('1');
    expect(phoneCallingCode('020 7946 0000', 'gb')).toBe('44');
    for (const [phone, country] of [
      [undefined, 'US'],
      ['  ', 'US'],
      ['7035550100', undefined],
      ['555', 'US'],
      ['+999 555 0100', 'US'],
      ['phone', 'US'],
    ] as const)
      expect({ phone, code: phoneCallingCode(phone, country) }).toEqual({ phone, code: null });
  });

  it('needs phone, calling code, address line 1, postal code, city, state and country for Apple Pay; four for Google Pay', () => {
    expect(walletContactGap('applepay', contact)).toBeNull();
    for (const [change, field] of [
      [{ phoneNumber: undefined }, 'phoneNumber'],
      [{ phoneNumber: '12' }, 'phoneNumber'],
      [{ addressLine1: '' }, 'addressLine1'],
      [{ zipCode: ' ' }, 'zipCode'],
      [{ city: undefined }, 'city'],
      [{ state: '' }, 'state'],
      [{ country: undefined, phoneNumber: '+1 703 555 0100' }, 'country'],
      [{ country: 'RU', phoneNumber: '+7 495 123 4567' }, 'country'],
    ] as const)
      expect({ change, gap: walletContactGap('applepay', { ...contact, ...change }) }).toEqual({
        change,
        gap: field,
      });
    // Google Pay: no state or phone needed (its billing panel asks for the rest of an address).
    expect(
      walletContactGap('googlepay', { ...contact, state: undefined, phoneNumber: undefined }),
    ).toBeNull();
    expect(walletContactGap('googlepay', { ...contact, city: '' })).toBe('city');
    expect(walletContactGap('googlepay', { ...contact, country: 'KP' })).toBe('country');
  });

  it('the test wallet shares the address as Apple’s billing contact and the phone as its shipping contact, as asked, each of which can be left out', () => {
    const asked = applePayRequest(2550, 'Sunrise #3');
    expect(TEST_CONTACT).toMatchObject({
      name: 'Grace Hopper',
      phoneNumber: '+1 703 555 0100',
      countryCode: 'US',
    });
    expect(applePayContacts({ shareAddress: true, contact: TEST_CONTACT }, asked)).toEqual({
      billingContact: {
        givenName: 'Grace',
        familyName: 'Hopper',
        addressLines: ['1 Test Street'],
        locality: 'Arlington',
        administrativeArea: 'VA',
        postalCode: '22201',
        countryCode: 'US',
      },
      shippingContact: { phoneNumber: '+1 703 555 0100' },
    });
    const { phoneNumber: _p, administrativeArea: _s, ...rest } = TEST_CONTACT;
    expect(applePayContacts({ shareAddress: true, contact: rest }, asked)).toEqual({
      billingContact: expect.not.objectContaining({ administrativeArea: expect.anything() }),
      shippingContact: {},
    });
    expect(applePayContacts({ shareAddress: false, contact: TEST_CONTACT }, asked).billingContact).toEqual({
      givenName: 'Grace',
      familyName: 'Hopper',
    });
    // Apple hands over only what the request asks for: no phone unless the shipping contact asks.
    expect(applePayContacts({ shareAddress: true, contact: TEST_CONTACT }, {})).toEqual({
      billingContact: {},
      shippingContact: {},
    });
    expect(
      applePayContacts(
        { shareAddress: true, contact: TEST_CONTACT },
        { requiredBillingContactFields: ['postalAddress'], requiredShippingContactFields: ['email'] },
      ).shippingContact,
    ).toEqual({});
    expect(googlePayBillingAddress({ shareAddress: true, contact: TEST_CONTACT })).toEqual(TEST_CONTACT);
    expect(googlePayBillingAddress({ shareAddress: false, contact: TEST_CONTACT })).toBeUndefined();
  });
});

/** Google's PaymentsClient as Google's script would define it, recording its use. */
function fakeGoogleScript() {
  const made: { environment: string }[] = [];
  const ready: unknown[] = [];
  class PaymentsClient implements GooglePaymentsClient {
    constructor(options: { environment: string }) {
      made.push(options);
    }
    async isReadyToPay(request: unknown) {
      ready.push(request);
      return { result: true };
    }
    async loadPaymentData(): Promise<never> {
      throw { statusCode: 'CANCELED' };
    }
  }
  const load = vi.fn(async (src: string) => {
    expect(src).toBe(GOOGLE_PAY_SCRIPT);
    window.google = { payments: { api: { PaymentsClient } } };
  });
  return { made, ready, load };
}
const noApi = {} as Api;

describe('where Google’s PaymentsClient comes from', () => {
  afterEach(() => {
    delete window.google;
  });

  it('is Google’s script with a real card provider, the stand-in with the sandbox, nothing when Google Pay is off', () => {
    expect(googlePaySource(config())).toBe('script');
    expect(googlePaySource(config({ googlePay: { ...GOOGLE, environment: 'TEST', merchantId: null } }))).toBe(
      'script',
    );
    expect(googlePaySource(config({ walletStandIns: true }))).toBe('stand-in');
    expect(googlePaySource(config({ googlePay: null }))).toBe('off');
    expect(GOOGLE_PAY_SCRIPT).toBe('https://pay.google.com/gp/p/js/pay.js');
  });

  it('loads Google’s script once, when Google Pay is considered, and asks isReadyToPay in the configured environment', async () => {
    const google = fakeGoogleScript();
    const service = walletService({ api: noApi, config: async () => config(), loadScript: google.load });
    expect(google.load).not.toHaveBeenCalled();
    expect(await service.available()).toEqual(['googlepay']);
    expect(await service.available()).toEqual(['googlepay']);
    expect(google.load).toHaveBeenCalledTimes(1);
    expect(google.made).toEqual([{ environment: 'PRODUCTION' }]);
    expect(google.ready).toEqual([googlePayReadyRequest(GOOGLE), googlePayReadyRequest(GOOGLE)]);
  });

  it('loads nothing while Google Pay is off', async () => {
    const google = fakeGoogleScript();
    const service = walletService({
      api: noApi,
      config: async () => config({ googlePay: null }),
      loadScript: google.load,
    });
    expect(await service.available()).toEqual([]);
    expect(google.load).not.toHaveBeenCalled();
  });

  it('goes on without Google Pay when the script fails or takes too long, and tries again next time', async () => {
    const failing = vi.fn(async () => {
      throw new Error('blocked');
    });
    const service = walletService({ api: noApi, config: async () => config(), loadScript: failing });
    expect(await service.available()).toEqual([]);
    expect(await service.available()).toEqual([]);
    expect(failing).toHaveBeenCalledTimes(2);

    const hanging = vi.fn(() => new Promise<void>(() => {}));
    const slow = walletService({
      api: noApi,
      config: async () => config(),
      loadScript: hanging,
      scriptTimeoutMs: 20,
    });
    expect(await slow.available()).toEqual([]);
  });

  it('adds Google’s script to the page once, async, and takes it away when it fails to load', async () => {
    const scripts = () => [
      ...document.head.querySelectorAll<HTMLScriptElement>(`script[src="${GOOGLE_PAY_SCRIPT}"]`),
    ];
    const first = loadScript(GOOGLE_PAY_SCRIPT);
    expect(loadScript(GOOGLE_PAY_SCRIPT)).toBe(first);
    expect(scripts()).toHaveLength(1);
    expect(scripts()[0]!.async).toBe(true);
    scripts()[0]!.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBeUndefined();

    const other = 'https://pay.google.com/gp/p/js/pay.js?failing';
    const failing = loadScript(other);
    document.head
      .querySelector<HTMLScriptElement>(`script[src="${other}"]`)!
      .dispatchEvent(new Event('error'));
    await expect(failing).rejects.toThrow(/Unable to load/);
    expect(document.head.querySelector(`script[src="${other}"]`)).toBeNull();
    const again = loadScript(other);
    expect(again).not.toBe(failing);
    document.head
      .querySelector<HTMLScriptElement>(`script[src="${other}"]`)!
      .dispatchEvent(new Event('load'));
    await again;
  });

  // Last: the stand-ins, once installed, stay for the page.
  it('is the stand-in with the embedded sandbox: no script, and the test wallet’s sheet lets the buyer leave the phone out', async () => {
    const google = fakeGoogleScript();
    const sandbox = config({
      applePay: { merchantId: 'merchant.test.vitrine.sandbox', displayName: 'Vitrine' },
      googlePay: { ...GOOGLE, environment: 'TEST', merchantId: null, gatewayMerchantId: SANDBOX_PUBLIC_KEY },
      walletStandIns: true,
    });
    const validations: unknown[] = [];
    const api = {
      post: async (path: string, body: unknown) => {
        validations.push({ path, body });
        return { merchantSessionIdentifier: 'SSH0123' };
      },
    } as unknown as Api;
    const service = walletService({ api, config: async () => sandbox, loadScript: google.load });
    // Asked twice at once (the checkout's rails on pointing at Buy, then on the press): the second
    // waits for the same install and finds both wallets too.
    const [first, second] = await Promise.all([service.available(), service.available()]);
    expect(first).toEqual(['applepay', 'googlepay']);
    expect(second).toEqual(['applepay', 'googlepay']);
    expect(google.load).not.toHaveBeenCalled();

    // Apple Pay through the walletPayment machine and the stand-in's sheet: the buyer empties the phone.
    const charges: CreateCardChargeBody[] = [];
    const actor = createActor(
      walletPaymentMachine.provide({
        actors: {
          sheet: service.sheet,
          tokenizeWallet: fromPromise(async () => ({ token: 'tok_abcdefghijklmnopqrstuvwxyz' })),
          createCharge: fromPromise<CardChargeJson, CreateCardChargeBody>(async ({ input }) => {
            charges.push(input);
            throw new Error('not reached');
          }),
        },
      }),
      {
        input: {
          wallet: 'applepay',
          item: { kind: 'blueprint', id: 'b1', title: 'Sunrise #3' },
          price: 2550,
          email: 'a@b.co',
        },
      },
    ).start();
    actor.send({ type: 'wallet.acknowledge', value: true });
    actor.send({ type: 'wallet.submit' });
    const sheet = await vi.waitFor(() => screen.getByRole('dialog', { name: 'Apple Pay (test wallet)' }));
    expect(validations).toEqual([
      {
        path: '/checkout-com-charges/actions/applepay',
        body: {
          json: { validationURL: 'https://apple-pay-gateway-cert.apple.com/paymentservices/startSession' },
        },
      },
    ]);
    expect(within(sheet).getByLabelText<HTMLInputElement>('Phone').value).toBe('+1 703 555 0100');
    fireEvent.change(within(sheet).getByLabelText('Phone'), { target: { value: '' } });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Pay $25.50' }));
    await waitFor(actor, (s) => s.matches('review') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toEqual({
      code: 'APPLE_PAY_ADDRESS',
      field: 'phoneNumber',
      message: errorMessage({ code: 'APPLE_PAY_ADDRESS', field: 'phoneNumber' }),
    });
    expect(charges).toEqual([]);
    expect(screen.queryByRole('dialog')).toBeNull();
    actor.stop();
  });
});
