import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../sandbox/checkout-com/cards';
import {
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
  type Sandbox,
  startCheckoutSandbox,
} from '../../sandbox/checkout-com/index';
import {
  applePayTestToken,
  type GooglePayAuthMethod,
  googlePayTestToken,
  readApplePayTokenData,
  readGooglePayTokenData,
} from '../../sandbox/checkout-com/wallets';
import { billingInfos, blueprints, cardCharges, users } from '../../server/db/schema';
import { createCheckoutComProvider } from '../../server/payments/checkout-com';
import type { CardProvider, PaymentRequest } from '../../server/payments/provider';
import { insertBlueprint } from '../../server/seed/factory';
import { databases, flowAddress, type Json, register, type TestApi, useTestApp } from './support/harness';
import { creator } from './support/sales';

/**
 * Apple Pay and Google Pay through the card rail: the card sandbox's `POST /tokens` for
 * `type: 'applepay' | 'googlepay'` with the test payloads of sandbox/checkout-com/wallets.ts
 * (Checkout.com's token shapes), the test cards' outcomes through wallet tokens, and charges paid
 * with wallet tokens through `POST /api/checkout-com-charges` (billingInfo.wallet) on PostgreSQL.
 */

const year = new Date().getUTCFullYear();

async function tokenize(sandbox: Sandbox, body: unknown, key = SANDBOX_PUBLIC_KEY) {
  const res = await fetch(`${sandbox.url}/tokens`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Json };
}

async function walletToken(
  sandbox: Sandbox,
  wallet: 'applepay' | 'googlepay',
  number: string,
  authMethod: GooglePayAuthMethod = 'CRYPTOGRAM_3DS',
): Promise<string> {
  const token_data =
    wallet === 'applepay' ? applePayTestToken(number) : googlePayTestToken(number, authMethod);
  const res = await tokenize(sandbox, { type: wallet, token_data });
  if (res.status !== 201) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

const paymentRequest = (token: string, over: Partial<PaymentRequest> = {}): PaymentRequest => ({
  source: { type: 'token', token },
  amount: 2500,
  currency: 'USD',
  reference: `order-${randomBytes(6).toString('hex')}`,
  capture: false,
  threeDs: true,
  successUrl: 'http://shop.test/ordercomplete/x',
  failureUrl: 'http://shop.test/checkoutcomfailed/x',
  idempotencyKey: crypto.randomUUID(),
  ...over,
});

/** Base64 of a JSON value (the test format's clear-text payloads). */
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('wallet tokens at the card sandbox', () => {
  let sandbox: Sandbox;
  let provider: CardProvider;

  beforeAll(async () => {
    sandbox = await startCheckoutSandbox({ port: 0, retrySchedule: [] });
    provider = createCheckoutComProvider({
      secretKey: SANDBOX_SECRET_KEY,
      publicKey: SANDBOX_PUBLIC_KEY,
      apiUrl: sandbox.url,
      webhookSignatureKey: SANDBOX_WEBHOOK_KEY,
    });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('builds payloads of the wallets’ shapes that read back as the card (pure helpers)', () => {
    const apple = applePayTestToken({ number: '4242 4242 4242 4242', expiryMonth: 2, expiryYear: 2032 });
    expect(apple).toEqual({
      version: 'EC_v1',
      data: expect.stringMatching(/^[A-Za-z0-9+/]+={0,2}$/),
      signature: expect.any(String),
      header: {
        ephemeralPublicKey: expect.any(String),
        publicKeyHash: expect.any(String),
        transactionId: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    expect(JSON.parse(Buffer.from(apple.data, 'base64').toString())).toEqual({
      applicationPrimaryAccountNumber: '4242424242424242',
      applicationExpirationDate: '320229',
      currencyCode: '840',
      transactionAmount: 0,
      deviceManufacturerIdentifier: expect.any(String),
      paymentDataType: '3DSecure',
      paymentData: { onlinePaymentCryptogram: expect.any(String) },
    });
    expect(readApplePayTokenData(apple)).toEqual({
      wallet: 'applepay',
      number: '4242424242424242',
      expiryMonth: 2,
      expiryYear: 2032,
      cryptogram: true,
      authMethod: null,
    });

    const now = new Date();
    const google = googlePayTestToken(TEST_CARDS.mastercard, 'PAN_ONLY', { now });
    expect(google).toMatchObject({
      protocolVersion: 'ECv2',
      signature: expect.any(String),
      intermediateSigningKey: { signedKey: expect.any(String), signatures: [expect.any(String)] },
      signedMessage: expect.any(String),
    });
    const envelope = JSON.parse(google.signedMessage);
    expect(Object.keys(envelope).sort()).toEqual(['encryptedMessage', 'ephemeralPublicKey', 'tag']);
    expect(JSON.parse(Buffer.from(envelope.encryptedMessage, 'base64').toString())).toEqual({
      messageExpiration: String(now.getTime() + 7 * 24 * 3600_000),
      messageId: expect.any(String),
      paymentMethod: 'CARD',
      paymentMethodDetails: {
        pan: TEST_CARDS.mastercard,
        expirationMonth: 12,
        expirationYear: year + 3,
        authMethod: 'PAN_ONLY',
      },
    });
    expect(readGooglePayTokenData(google, now)).toMatchObject({ wallet: 'googlepay', cryptogram: false });
    const cryptogram = googlePayTestToken(TEST_CARDS.visa);
    expect(readGooglePayTokenData(cryptogram, now)).toMatchObject({
      authMethod: 'CRYPTOGRAM_3DS',
      cryptogram: true,
    });
  });

  it('tokenizes an Apple Pay payment as Checkout.com does: a tok_ of type applepay with the card’s details', async () => {
    const res = await tokenize(sandbox, { type: 'applepay', token_data: applePayTestToken(TEST_CARDS.visa) });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      type: 'applepay',
      token: expect.stringMatching(/^tok_[a-z2-7]{26}$/),
      expires_on: expect.any(String),
      expiry_month: 12,
      expiry_year: year + 3,
      scheme: 'VISA',
      last4: '4242',
      bin: '424242',
      card_type: 'CREDIT',
      card_category: 'CONSUMER',
      issuer_country: 'US',
    });
    const ttl = new Date(res.body.expires_on).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
  });

  it('tokenizes a Google Pay payment of either auth method (token_format), naming the gateway merchant or not', async () => {
    for (const [card, scheme, authMethod] of [
      [TEST_CARDS.mastercard, 'MASTERCARD', 'PAN_ONLY'],
      [TEST_CARDS.discover, 'DISCOVER', 'CRYPTOGRAM_3DS'],
    ] as const) {
      const res = await tokenize(sandbox, {
        type: 'googlepay',
        token_data: googlePayTestToken(card, authMethod, { gatewayMerchantId: SANDBOX_PUBLIC_KEY }),
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        type: 'googlepay',
        token: expect.stringMatching(/^tok_[a-z2-7]{26}$/),
        scheme,
        last4: card.slice(-4),
        bin: card.slice(0, 6),
        expiry_month: 12,
        expiry_year: year + 3,
        token_format: authMethod.toLowerCase(),
      });
    }
    const withoutKey = googlePayTestToken(TEST_CARDS.visa);
    delete withoutKey.intermediateSigningKey;
    expect((await tokenize(sandbox, { type: 'googlepay', token_data: withoutKey })).status).toBe(201);
  });

  it('refuses malformed token_data with 422 request_invalid token_data_invalid, as Checkout.com does', async () => {
    const apple = applePayTestToken(TEST_CARDS.visa);
    const decrypted = JSON.parse(Buffer.from(apple.data, 'base64').toString());
    const google = googlePayTestToken(TEST_CARDS.visa);
    const message = JSON.parse(
      Buffer.from(JSON.parse(google.signedMessage).encryptedMessage, 'base64').toString(),
    );
    const envelope = JSON.parse(google.signedMessage);
    const signed = (m: unknown) => JSON.stringify({ ...envelope, encryptedMessage: b64(m) });
    const cases: [string, 'applepay' | 'googlepay', unknown][] = [
      ['a string', 'applepay', 'not an object'],
      ['no header', 'applepay', { ...apple, header: undefined }],
      ['no ephemeral key', 'applepay', { ...apple, header: { ...apple.header, ephemeralPublicKey: '' } }],
      ['another version', 'applepay', { ...apple, version: 'EC_v9' }],
      ['no signature', 'applepay', { ...apple, signature: '' }],
      ['data not base64', 'applepay', { ...apple, data: '%%%' }],
      ['data not JSON', 'applepay', { ...apple, data: Buffer.from('ciphertext').toString('base64') }],
      ['no PAN', 'applepay', { ...apple, data: b64({ ...decrypted, applicationPrimaryAccountNumber: '' }) }],
      [
        'bad expiry',
        'applepay',
        { ...apple, data: b64({ ...decrypted, applicationExpirationDate: '301399' }) },
      ],
      ['EMV data', 'applepay', { ...apple, data: b64({ ...decrypted, paymentDataType: 'EMV' }) }],
      ['no cryptogram', 'applepay', { ...apple, data: b64({ ...decrypted, paymentData: {} }) }],
      [
        'a PAN failing its check digit',
        'applepay',
        { ...apple, data: b64({ ...decrypted, applicationPrimaryAccountNumber: '4242424242424241' }) },
      ],
      ['another protocol', 'googlepay', { ...google, protocolVersion: 'ECv9' }],
      ['signedMessage not JSON', 'googlepay', { ...google, signedMessage: '{oops' }],
      [
        'signedMessage an object',
        'googlepay',
        { ...google, signedMessage: JSON.parse(google.signedMessage) },
      ],
      ['no tag', 'googlepay', { ...google, signedMessage: JSON.stringify({ ...envelope, tag: undefined }) }],
      [
        'a bad signing key',
        'googlepay',
        { ...google, intermediateSigningKey: { signedKey: 'k', signatures: [] } },
      ],
      [
        'another payment method',
        'googlepay',
        { ...google, signedMessage: signed({ ...message, paymentMethod: 'TOKENIZED_CARD' }) },
      ],
      [
        'an expired message',
        'googlepay',
        { ...google, signedMessage: signed({ ...message, messageExpiration: String(Date.now() - 1000) }) },
      ],
      [
        'a cryptogram method without cryptogram',
        'googlepay',
        {
          ...google,
          signedMessage: signed({
            ...message,
            paymentMethodDetails: { ...message.paymentMethodDetails, cryptogram: undefined },
          }),
        },
      ],
      [
        'another gateway merchant',
        'googlepay',
        { ...google, signedMessage: signed({ ...message, gatewayMerchantId: 'pk_sbox_someoneelse' }) },
      ],
    ];
    for (const [name, type, token_data] of cases) {
      const res = await tokenize(sandbox, { type, token_data });
      expect({ name, status: res.status, body: res.body }).toEqual({
        name,
        status: 422,
        body: {
          request_id: expect.any(String),
          error_type: 'request_invalid',
          error_codes: ['token_data_invalid'],
        },
      });
    }
    const missing = await tokenize(sandbox, { type: 'applepay' });
    expect(missing.status).toBe(422);
    expect(missing.body.error_codes).toEqual(['token_data_required']);
    expect((await tokenize(sandbox, { type: 'paypal', token_data: apple })).body.error_codes).toEqual([
      'token_type_invalid',
    ]);
    // The secret key is not the public key.
    expect(
      (await tokenize(sandbox, { type: 'applepay', token_data: apple }, SANDBOX_SECRET_KEY)).status,
    ).toBe(401);
    // A wallet card that expired is the card's error, as for a card.
    const expired = await tokenize(sandbox, {
      type: 'googlepay',
      token_data: googlePayTestToken({ number: TEST_CARDS.visa, expiryMonth: 1, expiryYear: year - 1 }),
    });
    expect(expired.body.error_codes).toEqual(['card_expired']);
  });

  it('keeps the test cards’ outcomes: wallet tokens of the decline cards decline, the others approve, once', async () => {
    for (const wallet of ['applepay', 'googlepay'] as const) {
      const approved = await provider.requestPayment(
        paymentRequest(await walletToken(sandbox, wallet, TEST_CARDS.visa)),
      );
      expect(approved).toMatchObject({ status: 'Authorized', approved: true, responseCode: '10000' });
      expect(approved.source).toMatchObject({
        last4: '4242',
        scheme: 'VISA',
        id: expect.stringMatching(/^src_/),
      });

      const declined = await provider.requestPayment(
        paymentRequest(await walletToken(sandbox, wallet, TEST_CARDS.declined)),
      );
      expect(declined).toMatchObject({ status: 'Declined', approved: false, responseCode: '20005' });
      const poor = await provider.requestPayment(
        paymentRequest(await walletToken(sandbox, wallet, TEST_CARDS.insufficientFunds)),
      );
      expect(poor).toMatchObject({ status: 'Declined', approved: false, responseCode: '20051' });
      // Amount simulation too.
      const byAmount = await provider.requestPayment(
        paymentRequest(await walletToken(sandbox, wallet, TEST_CARDS.visa), { amount: 2554 }),
      );
      expect(byAmount).toMatchObject({ approved: false, responseCode: '20054' });

      // Single use, as a card token.
      const token = await walletToken(sandbox, wallet, TEST_CARDS.mastercard);
      await provider.requestPayment(paymentRequest(token));
      await expect(provider.requestPayment(paymentRequest(token))).rejects.toMatchObject({
        errorCodes: ['token_used'],
      });
    }
  });

  it('asks no 3-D Secure challenge of a payment the device authenticated; Google Pay PAN_ONLY gets one', async () => {
    const apple = await provider.requestPayment(
      paymentRequest(await walletToken(sandbox, 'applepay', TEST_CARDS.threeDs)),
    );
    expect(apple).toMatchObject({ status: 'Authorized', approved: true, redirectUrl: null });
    const cryptogram = await provider.requestPayment(
      paymentRequest(await walletToken(sandbox, 'googlepay', TEST_CARDS.threeDs, 'CRYPTOGRAM_3DS')),
    );
    expect(cryptogram).toMatchObject({ status: 'Authorized', approved: true });
    const panOnly = await provider.requestPayment(
      paymentRequest(await walletToken(sandbox, 'googlepay', TEST_CARDS.threeDs, 'PAN_ONLY')),
    );
    expect(panOnly).toMatchObject({ status: 'Pending', redirectUrl: expect.stringContaining('/3ds/sid_') });
  });
});

describe.each(databases)('charges paid with wallet tokens on %s', (database) => {
  let sandbox: Sandbox;
  let real: CardProvider;
  const calls = { requestPayment: 0 };
  const provider: CardProvider = {
    requestPayment: (r) => {
      calls.requestPayment++;
      return real.requestPayment(r);
    },
    getPayment: (id) => real.getPayment(id),
    capture: (id, key) => real.capture(id, key),
    void: (id, key) => real.void(id, key),
    refund: (id, key) => real.refund(id, key),
    verifyWebhook: (raw, sig) => real.verifyWebhook(raw, sig),
    publicConfig: () => real.publicConfig(),
  };
  const t: TestApi = useTestApp(database, {}, { cardProvider: provider });

  beforeAll(async () => {
    sandbox = await startCheckoutSandbox({ port: 0, retrySchedule: [] });
    real = createCheckoutComProvider({
      secretKey: SANDBOX_SECRET_KEY,
      publicKey: SANDBOX_PUBLIC_KEY,
      apiUrl: sandbox.url,
      webhookSignatureKey: SANDBOX_WEBHOOK_KEY,
    });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  async function buyer() {
    const me = await register(t);
    await t.database.db.update(users).set({ walletAddress: flowAddress() }).where(eq(users.id, me.id));
    return me;
  }

  async function item(price = 2500) {
    const shop = await creator(t);
    return insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Item ${randomBytes(3).toString('hex')}`,
      price,
      quantity: 10,
    });
  }

  /**
   * Apple's billingContact with its shippingContact's phone / Google's billingAddress, as the browser
   * maps it: complete by the rules of both wallets.
   */
  const contact = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    addressLine1: '1 Market St',
    city: 'San Francisco',
    state: 'CA',
    country: 'US',
    zipCode: '94105',
    phoneNumber: '+1 415 555 0123',
  };

  const pay = (
    who: { authToken: string },
    bp: { id: string; price: number },
    billingInfo: Record<string, unknown>,
  ) =>
    t.request('POST', '/api/checkout-com-charges', {
      token: who.authToken,
      body: {
        item: { kind: 'blueprint', id: bp.id },
        expectedPrice: bp.price,
        idempotencyKey: `key-${randomBytes(8).toString('hex')}`,
        billingInfo,
      },
    });

  const available = async (id: string) =>
    (await t.database.db.select().from(blueprints).where(eq(blueprints.id, id)))[0]!.quantityAvailable;
  const chargeRow = async (orderId: string) =>
    (await t.database.db.select().from(cardCharges).where(eq(cardCharges.orderId, orderId)))[0]!;

  for (const [wallet, label, card, last4] of [
    ['applepay', 'Apple Pay', TEST_CARDS.visa, '4242'],
    ['googlepay', 'Google Pay', TEST_CARDS.mastercard, '6378'],
  ] as const) {
    it(`charges an edition paid with ${label}: authorized like a card, then captured at the provider`, async () => {
      const me = await buyer();
      const bp = await item();
      const res = await pay(me, bp, {
        wallet,
        cardToken: await walletToken(sandbox, wallet, card),
        ...contact,
        // A wallet card is never kept.
        save: true,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        status: 'Authorized',
        success: true,
        unresolved: false,
        redirectLink: null,
        last4,
        order: { method: 'creditCard', amount: 2500, status: 'authorized', failure: null },
      });
      expect(res.body.order.events.map((e: Json) => e.type)).toEqual(['created', 'authorized']);
      expect(res.body.order.events[0].detail).toBe(`Paid with ${label}.`);
      expect(await available(bp.id)).toBe(9);
      expect(await t.database.db.select().from(billingInfos).where(eq(billingInfos.userId, me.id))).toEqual(
        [],
      );
      // The provider holds the authorization, marked with the wallet, and captures it.
      const paymentId = (await chargeRow(res.body.orderId)).paymentId!;
      const atProvider = (await (
        await fetch(`${sandbox.url}/payments/${paymentId}`, {
          headers: { Authorization: `Bearer ${SANDBOX_SECRET_KEY}` },
        })
      ).json()) as Json;
      expect(atProvider).toMatchObject({
        status: 'Authorized',
        amount: 2500,
        reference: res.body.orderId,
        metadata: { orderId: res.body.orderId, chargeId: res.body.id, wallet },
      });
      await provider.capture(paymentId, `capture-${res.body.orderId}`);
      expect(await provider.getPayment(paymentId)).toMatchObject({ status: 'Captured', approved: true });
    });
  }

  it('declines a wallet payment of a decline test card: 402 with the order, its unit released', async () => {
    const me = await buyer();
    const bp = await item();
    const res = await pay(me, bp, {
      wallet: 'applepay',
      cardToken: await walletToken(sandbox, 'applepay', TEST_CARDS.insufficientFunds),
      ...contact,
    });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'CARD_INSUFFICIENT_FUNDS', orderId: expect.any(String) });
    expect(await available(bp.id)).toBe(10);

    const google = await pay(me, bp, {
      wallet: 'googlepay',
      cardToken: await walletToken(sandbox, 'googlepay', TEST_CARDS.declined),
      ...contact,
    });
    expect(google.status).toBe(402);
    expect(google.body.code).toBe('CARD_DECLINED');
  });

  it('refuses an incomplete billing contact with APPLE_PAY_ADDRESS before reserving or asking the provider', async () => {
    const me = await buyer();
    const bp = await item();
    const token = await walletToken(sandbox, 'googlepay', TEST_CARDS.visa);
    const before = calls.requestPayment;
    for (const [field, change] of [
      ['addressLine1', { addressLine1: undefined }],
      ['addressLine1', { addressLine1: '   ' }],
      ['city', { city: '' }],
      ['zipCode', { zipCode: undefined }],
      ['country', { country: undefined }],
      ['country', { country: 'KP' }],
    ] as const) {
      const res = await pay(me, bp, { wallet: 'googlepay', cardToken: token, ...contact, ...change });
      expect({ field, status: res.status, code: res.body.code, at: res.body.field }).toEqual({
        field,
        status: 400,
        code: 'APPLE_PAY_ADDRESS',
        at: field,
      });
      expect(res.body.message).toEqual(expect.any(String));
    }
    // Lowercase country codes, no state, no name, no phone: fine for a wallet.
    const res = await pay(me, bp, {
      wallet: 'googlepay',
      cardToken: token,
      addressLine1: '10 Downing St',
      city: 'London',
      zipCode: 'SW1A 2AA',
      country: 'gb',
      phoneNumber: '+44 20 7946 0000',
    });
    expect(res.status).toBe(201);
    expect(calls.requestPayment).toBe(before + 1);
  });

  it('refuses an Apple Pay contact without phone, calling code, address line 1, postal code, city, state or country', async () => {
    const me = await buyer();
    const bp = await item();
    const token = await walletToken(sandbox, 'applepay', TEST_CARDS.visa);
    const before = calls.requestPayment;
    for (const [field, change] of [
      ['phoneNumber', { phoneNumber: undefined }],
      ['phoneNumber', { phoneNumber: '  ' }],
      // Neither international nor a possible number of the contact's country: no calling code.
      ['phoneNumber', { phoneNumber: '555 01' }],
      ['phoneNumber', { phoneNumber: '+999 555 0123' }],
      ['addressLine1', { addressLine1: undefined }],
      ['zipCode', { zipCode: '' }],
      ['city', { city: undefined }],
      // Required whatever the country.
      ['state', { state: undefined, country: 'GB', zipCode: 'SW1A 2AA', phoneNumber: '+44 20 7946 0000' }],
      ['country', { country: undefined }],
      ['country', { country: 'KP' }],
    ] as const) {
      const res = await pay(me, bp, { wallet: 'applepay', cardToken: token, ...contact, ...change });
      expect({ field, change, status: res.status, code: res.body.code, at: res.body.field }).toEqual({
        field,
        change,
        status: 400,
        code: 'APPLE_PAY_ADDRESS',
        at: field,
      });
    }
    expect(calls.requestPayment).toBe(before);
    // A phone written the national way takes the contact country's calling code; no name needed.
    const { firstName: _f, lastName: _l, ...unnamed } = contact;
    const res = await pay(me, bp, {
      wallet: 'applepay',
      cardToken: token,
      ...unnamed,
      phoneNumber: '(415) 555-0123',
    });
    expect(res.status).toBe(201);
  });

  it('answers CHECKOUT_COM_TOKEN for a wallet token the provider refuses, and checks the wallet marker', async () => {
    const me = await buyer();
    const bp = await item();
    const token = await walletToken(sandbox, 'applepay', TEST_CARDS.visa);
    expect((await pay(me, bp, { wallet: 'applepay', cardToken: token, ...contact })).status).toBe(201);
    // The same token again (a new purchase): used.
    const again = await pay(me, await item(), { wallet: 'applepay', cardToken: token, ...contact });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'CHECKOUT_COM_TOKEN', orderId: expect.any(String) });
    // A token the provider never issued.
    const unknown = await pay(me, await item(), {
      wallet: 'googlepay',
      cardToken: `tok_${'a'.repeat(26)}`,
      ...contact,
    });
    expect(unknown.body.code).toBe('CHECKOUT_COM_TOKEN');
    // Not a token at all: refused by the schema.
    const malformed = await pay(me, await item(), { wallet: 'googlepay', cardToken: 'tok_x', ...contact });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'CHECKOUT_COM_TOKEN', field: 'billingInfo.cardToken' });
    const wrongWallet = await pay(me, await item(), { wallet: 'samsungpay', cardToken: token, ...contact });
    expect(wrongWallet.status).toBe(400);
    expect(wrongWallet.body).toMatchObject({ code: 'INVALID_VALUE', field: 'billingInfo.wallet' });
    // Without the marker, the card rules apply (the phone is { countryCode, number }).
    const asCard = await pay(me, await item(), { cardToken: token, ...contact });
    expect(asCard.status).toBe(400);
    expect(asCard.body.field).toMatch(/phoneNumber/);
  });
});
