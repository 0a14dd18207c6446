import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLE_PAY_GATEWAY_HOSTS, isApplePayGatewayUrl } from '#domain/schemas/applepay';
import {
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
  type Sandbox,
  startCheckoutSandbox,
} from '../../sandbox/checkout-com/index';
import type { ApplePayConfig } from '../../server/card-config';
import { loadConfig } from '../../server/config';
import { users } from '../../server/db/schema';
import { ApplePayUnavailableError, createApplePayGateway } from '../../server/payments/applepay';
import { createCheckoutComProvider } from '../../server/payments/checkout-com';
import type { CardProvider } from '../../server/payments/provider';
import { databases, flowAddress, type Json, register, type TestApi, useTestApp } from './support/harness';

/**
 * Apple Pay merchant validation: `POST /api/checkout-com-charges/actions/applepay` asks the Apple
 * gateway of an allow-listed validationURL for a merchant session and answers it unchanged; in the
 * embedded world the card sandbox plays Apple's gateway (`POST /applepay/paymentSession`). Also the
 * wallets' part of `GET /api/config/payments` and their settings.
 */

const VALIDATION_URL = 'https://apple-pay-gateway-cert.apple.com/paymentservices/startSession';
const APPLE_PAY: ApplePayConfig = {
  merchantId: 'merchant.test.vitrine.sandbox',
  displayName: 'Vitrine',
  merchantCertFile: undefined,
  merchantKeyFile: undefined,
  gatewayUrl: undefined,
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const postJson = async (url: string, body: unknown) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
};

describe('the card sandbox as Apple’s gateway', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startCheckoutSandbox({ port: 0, retrySchedule: [] });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('answers an opaque merchant session valid for 5 minutes', async () => {
    const before = Date.now();
    const res = await postJson(`${sandbox.url}/applepay/paymentSession`, {
      merchantIdentifier: 'merchant.test.vitrine.sandbox',
      displayName: 'Vitrine',
      initiative: 'web',
      initiativeContext: 'shop.vitrine.test',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      epochTimestamp: expect.any(Number),
      expiresAt: res.body.epochTimestamp + 5 * 60_000,
      merchantSessionIdentifier: expect.stringMatching(/^SSH[0-9A-F]+_[0-9A-F]+$/),
      nonce: expect.stringMatching(/^[0-9a-f]{8}$/),
      merchantIdentifier: expect.stringMatching(/^[0-9A-F]{64}$/),
      domainName: 'shop.vitrine.test',
      displayName: 'Vitrine',
      signature: expect.any(String),
      operationalAnalyticsIdentifier: `Vitrine:${res.body.merchantIdentifier}`,
      retries: 0,
      pspId: res.body.merchantIdentifier,
    });
    expect(res.body.epochTimestamp).toBeGreaterThanOrEqual(before);
    // Each session is new (single use).
    const again = await postJson(`${sandbox.url}/applepay/paymentSession`, {
      merchantIdentifier: 'merchant.test.vitrine.sandbox',
      displayName: 'Vitrine',
      domainName: 'shop.vitrine.test',
    });
    expect(again.status).toBe(200);
    expect(again.body.merchantSessionIdentifier).not.toBe(res.body.merchantSessionIdentifier);
  });

  it('refuses a request without merchantIdentifier (or with a bad display name, initiative or domain) with 400 as Apple does', async () => {
    const good = {
      merchantIdentifier: 'merchant.x',
      displayName: 'Shop',
      initiative: 'web',
      initiativeContext: 'a.b',
    };
    for (const body of [
      { ...good, merchantIdentifier: undefined },
      { ...good, merchantIdentifier: ' ' },
      { ...good, displayName: 'x'.repeat(65) },
      { ...good, initiative: 'messaging' },
      { ...good, initiativeContext: undefined },
    ]) {
      const res = await postJson(`${sandbox.url}/applepay/paymentSession`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        statusCode: '400',
        statusMessage: expect.stringMatching(/^Payment Services Exception/),
      });
    }
  });
});

describe('Apple’s gateway hosts', () => {
  it('allows only https URLs of Apple Pay gateway hosts on the default port', () => {
    expect(APPLE_PAY_GATEWAY_HOSTS).toEqual(
      expect.arrayContaining([
        'apple-pay-gateway.apple.com',
        'cn-apple-pay-gateway.apple.com',
        'apple-pay-gateway-cert.apple.com',
        'apple-pay-gateway-nc-pod1.apple.com',
        'cn-apple-pay-gateway-tj-pod3.apple.com',
      ]),
    );
    for (const host of APPLE_PAY_GATEWAY_HOSTS)
      expect(isApplePayGatewayUrl(`https://${host}/paymentservices/paymentSession`)).toBe(true);
    expect(isApplePayGatewayUrl('https://APPLE-PAY-GATEWAY.apple.com/paymentservices/startSession')).toBe(
      true,
    );
    for (const url of [
      'http://apple-pay-gateway.apple.com/paymentservices/startSession',
      'https://apple-pay-gateway.apple.com:8443/paymentservices/startSession',
      'https://user:pw@apple-pay-gateway.apple.com/paymentservices/startSession',
      'https://apple-pay-gateway.apple.com.evil.test/paymentservices/startSession',
      'https://evil-apple-pay-gateway.apple.com/x',
      'https://apple.com/x',
      'https://127.0.0.1/x',
      'apple-pay-gateway.apple.com/paymentservices/startSession',
      '',
    ])
      expect({ url, ok: isApplePayGatewayUrl(url) }).toEqual({ url, ok: false });
  });
});

describe('the Apple Pay gateway client over mutual TLS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-applepay-tls-'));
  let gateway: HttpsServer;
  let url: string;
  const pem = (name: string) => readFileSync(join(dir, name));
  const peers: (string | null)[] = [];

  /** A self-signed certificate and key (openssl): the gateway's, and the merchant identity. */
  const selfSigned = (name: string, subject: string, key: string[], extra: string[] = []) =>
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        ...key,
        '-nodes',
        '-keyout',
        join(dir, `${name}.key`),
        '-out',
        join(dir, `${name}.crt`),
        '-days',
        '1',
        '-subj',
        subject,
        ...extra,
      ],
      { stdio: 'ignore' },
    );

  beforeAll(async () => {
    selfSigned(
      'gateway',
      '/CN=127.0.0.1',
      ['ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'],
      ['-addext', 'subjectAltName=IP:127.0.0.1'],
    );
    // Apple's merchant identity certificates are RSA 2048.
    selfSigned(
      'merchant',
      '/UID=merchant.test.vitrine.sandbox/CN=Merchant ID: merchant.test.vitrine.sandbox',
      ['rsa:2048'],
    );
    gateway = createHttpsServer(
      {
        key: pem('gateway.key'),
        cert: pem('gateway.crt'),
        // Only the merchant's certificate gets in.
        ca: pem('merchant.crt'),
        requestCert: true,
        rejectUnauthorized: true,
      },
      async (req, res) => {
        const body = JSON.parse(await readBody(req));
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        peers.push(peer?.subject ? String(peer.subject.UID) : null);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ merchantSessionIdentifier: 'SSH_TLS', domainName: body.initiativeContext }));
      },
    );
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(gateway.address() as AddressInfo).port}/paymentservices/paymentSession`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (gateway ? gateway.close(() => resolve()) : resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  const client = (tls?: { cert: Buffer; key: Buffer; ca?: Buffer }) =>
    createApplePayGateway({
      merchantId: 'merchant.test.vitrine.sandbox',
      displayName: 'Vitrine',
      initiativeContext: 'shop.vitrine.test',
      gatewayUrl: url,
      tls,
      timeoutMs: 5000,
    });

  it('presents the merchant identity certificate and gets the session', async () => {
    const session = await client({
      cert: pem('merchant.crt'),
      key: pem('merchant.key'),
      ca: pem('gateway.crt'),
    }).merchantSession(VALIDATION_URL);
    expect(session).toEqual({ merchantSessionIdentifier: 'SSH_TLS', domainName: 'shop.vitrine.test' });
    expect(peers.at(-1)).toBe('merchant.test.vitrine.sandbox');
  });

  it('cannot reach a gateway that wants a certificate without one, or that it does not trust', async () => {
    // No client certificate: the gateway ends the handshake.
    await expect(
      createApplePayGateway({
        merchantId: 'm',
        displayName: 'd',
        initiativeContext: 'x',
        gatewayUrl: url,
        tls: { cert: pem('gateway.crt'), key: pem('gateway.key'), ca: pem('gateway.crt') },
      }).merchantSession(VALIDATION_URL),
    ).rejects.toBeInstanceOf(ApplePayUnavailableError);
    // The gateway's certificate is not trusted: never talk to it.
    await expect(
      client({ cert: pem('merchant.crt'), key: pem('merchant.key') }).merchantSession(VALIDATION_URL),
    ).rejects.toBeInstanceOf(ApplePayUnavailableError);
  });
});

describe('wallet settings', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-wallets-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = (vars: Record<string, string>) => ({ VITRINE_DATA_DIR: dataDir, ...vars });
  const real = {
    CHECKOUT_COM_API_URL: 'https://api.sandbox.checkout.com',
    CHECKOUT_COM_PUBLIC_KEY: 'pk_sbox_realrealrealrealrealrealrealre',
    CHECKOUT_COM_SECRET_KEY: 'sk_sbox_realrealrealrealrealrealrealre',
    CHECKOUT_COM_WEBHOOK_KEY: 'workflow-signature-key',
  };

  it('runs both wallets with the embedded sandbox, none without cards, and Apple Pay with Checkout.com once configured', () => {
    const embedded = loadConfig(env({}));
    expect(embedded.applePay).toEqual({ ...APPLE_PAY });
    expect(embedded.googlePay).toEqual({ merchantId: null, merchantName: 'Vitrine', environment: 'TEST' });
    expect(loadConfig(env({ APPLE_PAY: 'off', GOOGLE_PAY: 'off' }))).toMatchObject({
      applePay: null,
      googlePay: null,
    });
    expect(loadConfig(env({ CHECKOUT_COM: 'off' }))).toMatchObject({ applePay: null, googlePay: null });
    expect(loadConfig(env(real))).toMatchObject({ applePay: null, googlePay: null });
    expect(() => loadConfig(env({ ...real, APPLE_PAY_MERCHANT_ID: 'merchant.com.vitrine' }))).toThrow(
      /APPLE_PAY_MERCHANT_CERT/,
    );
    const live = loadConfig(
      env({
        ...real,
        APPLE_PAY_MERCHANT_ID: 'merchant.com.vitrine',
        APPLE_PAY_DISPLAY_NAME: 'Vitrine Shop',
        APPLE_PAY_MERCHANT_CERT: '/etc/vitrine/apple-pay.crt.pem',
        APPLE_PAY_MERCHANT_KEY: '/etc/vitrine/apple-pay.key.pem',
        GOOGLE_PAY_MERCHANT_ID: 'BCR2DN4T1234567',
        GOOGLE_PAY_ENVIRONMENT: 'PRODUCTION',
      }),
    );
    expect(live.applePay).toEqual({
      merchantId: 'merchant.com.vitrine',
      displayName: 'Vitrine Shop',
      merchantCertFile: '/etc/vitrine/apple-pay.crt.pem',
      merchantKeyFile: '/etc/vitrine/apple-pay.key.pem',
      gatewayUrl: undefined,
    });
    expect(live.googlePay).toEqual({
      merchantId: 'BCR2DN4T1234567',
      merchantName: 'Vitrine Shop',
      environment: 'PRODUCTION',
    });
    expect(() => loadConfig(env({ GOOGLE_PAY_ENVIRONMENT: 'PRODUCTION' }))).toThrow(/GOOGLE_PAY_MERCHANT_ID/);
    expect(() => loadConfig(env({ APPLE_PAY_DISPLAY_NAME: 'x'.repeat(65) }))).toThrow(/64/);
    expect(() => loadConfig(env({ APPLE_PAY: 'maybe' }))).toThrow(/APPLE_PAY must be on or off/);
  });
});

describe.each(databases)('Apple Pay merchant validation on %s', (database) => {
  let sandbox: Sandbox;
  let real: CardProvider;
  const provider: CardProvider = {
    requestPayment: (r) => real.requestPayment(r),
    getPayment: (id) => real.getPayment(id),
    capture: (id, key) => real.capture(id, key),
    void: (id, key) => real.void(id, key),
    refund: (id, key) => real.refund(id, key),
    verifyWebhook: (raw, sig) => real.verifyWebhook(raw, sig),
    publicConfig: () => real.publicConfig(),
  };
  const t: TestApi = useTestApp(
    database,
    {
      publicUrl: 'https://shop.vitrine.test',
      checkoutCom: {
        mode: 'embedded',
        apiUrl: undefined,
        publicKey: SANDBOX_PUBLIC_KEY,
        secretKey: SANDBOX_SECRET_KEY,
        webhookSignatureKey: SANDBOX_WEBHOOK_KEY,
        sandboxPort: 0,
      },
      applePay: { ...APPLE_PAY },
      googlePay: { merchantId: null, merchantName: 'Vitrine', environment: 'TEST' },
    },
    { cardProvider: provider },
  );

  /** A stand-in Apple gateway: records what it is sent, answers `answer`. */
  let recorder: Server;
  let recorderUrl: string;
  const received: { url: string; body: Json }[] = [];
  let answer: { status: number; body: unknown } = { status: 200, body: {} };

  beforeAll(async () => {
    sandbox = await startCheckoutSandbox({ port: 0, retrySchedule: [] });
    real = createCheckoutComProvider({
      secretKey: SANDBOX_SECRET_KEY,
      publicKey: SANDBOX_PUBLIC_KEY,
      apiUrl: sandbox.url,
      webhookSignatureKey: SANDBOX_WEBHOOK_KEY,
    });
    recorder = createServer(async (req, res) => {
      received.push({ url: req.url ?? '', body: JSON.parse(await readBody(req)) });
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/paymentservices/paymentSession`;
  });
  afterAll(async () => {
    await sandbox?.close();
    await new Promise<void>((resolve) => (recorder ? recorder.close(() => resolve()) : resolve()));
  });

  /** The settings the route reads on each request (the tests change them in place). */
  const withApplePay = async <T>(change: Partial<ApplePayConfig> | null, run: () => Promise<T>) => {
    const saved = t.config.applePay;
    t.config.applePay = change === null ? null : { ...APPLE_PAY, ...change };
    try {
      return await run();
    } finally {
      t.config.applePay = saved;
    }
  };

  async function buyer(wallet = true) {
    const me = await register(t);
    if (wallet)
      await t.database.db.update(users).set({ walletAddress: flowAddress() }).where(eq(users.id, me.id));
    return me;
  }

  const validate = (who: { authToken: string } | null, body: unknown) =>
    t.request('POST', '/api/checkout-com-charges/actions/applepay', { token: who?.authToken, body });

  it('answers the embedded sandbox’s merchant session for the page’s domain', async () => {
    const me = await buyer();
    const res = await validate(me, { validationURL: VALIDATION_URL });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      merchantSessionIdentifier: expect.stringMatching(/^SSH/),
      domainName: 'shop.vitrine.test',
      displayName: 'Vitrine',
      retries: 0,
    });
    expect(res.body.expiresAt - res.body.epochTimestamp).toBe(5 * 60_000);
  });

  it('sends Apple’s request body and passes the gateway’s session on unchanged', async () => {
    const me = await buyer();
    const session = {
      epochTimestamp: 1_700_000_000_000,
      expiresAt: 1_700_000_300_000,
      merchantSessionIdentifier: 'SSH0123456789ABCDEF_XYZ',
      nonce: '0a1b2c3d',
      merchantIdentifier: 'ABCDEF',
      domainName: 'shop.vitrine.test',
      displayName: 'Vitrine',
      signature: 'c2lnbmF0dXJl',
      operationalAnalyticsIdentifier: 'Vitrine:ABCDEF',
      retries: 0,
      pspId: 'ABCDEF',
      somethingNew: { nested: [1, 2] },
    };
    answer = { status: 200, body: session };
    const res = await withApplePay({ gatewayUrl: recorderUrl }, () =>
      validate(me, { validationURL: VALIDATION_URL }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual(session);
    expect(received.at(-1)).toEqual({
      url: '/paymentservices/paymentSession',
      body: {
        merchantIdentifier: 'merchant.test.vitrine.sandbox',
        displayName: 'Vitrine',
        initiative: 'web',
        initiativeContext: 'shop.vitrine.test',
      },
    });
  });

  it('refuses a validationURL that is not an Apple gateway with 400 INVALID_VALUE, asking no one', async () => {
    const me = await buyer();
    const before = received.length;
    await withApplePay({ gatewayUrl: recorderUrl }, async () => {
      for (const validationURL of [
        'https://evil.test/paymentservices/startSession',
        'https://apple-pay-gateway.apple.com.evil.test/paymentservices/startSession',
        'http://apple-pay-gateway.apple.com/paymentservices/startSession',
        'https://apple-pay-gateway.apple.com:444/paymentservices/startSession',
        recorderUrl,
        'not a url',
        42,
        undefined,
      ]) {
        const res = await validate(me, { validationURL });
        expect({ validationURL, status: res.status, body: res.body }).toEqual({
          validationURL,
          status: 400,
          body: { code: 'INVALID_VALUE', field: 'validationURL', message: expect.any(String) },
        });
      }
    });
    expect(received.length).toBe(before);
  });

  it('answers 502 PAYMENT_PROVIDER when the gateway cannot be reached, PROCESSING_ERROR when it refuses', async () => {
    const me = await buyer();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await withApplePay({ gatewayUrl: `http://127.0.0.1:${port}/paymentSession` }, () =>
      validate(me, { validationURL: VALIDATION_URL }),
    );
    expect(down.status).toBe(502);
    expect(down.body).toMatchObject({ code: 'PAYMENT_PROVIDER' });

    // The embedded sandbox refuses a request without merchant identifier, as Apple does.
    const refused = await withApplePay({ merchantId: '' }, () =>
      validate(me, { validationURL: VALIDATION_URL }),
    );
    expect(refused.status).toBe(502);
    expect(refused.body).toEqual({
      code: 'PROCESSING_ERROR',
      message: expect.stringMatching(/^Processing Error/),
    });

    answer = { status: 200, body: 'not a session' };
    const odd = await withApplePay({ gatewayUrl: recorderUrl }, () =>
      validate(me, { validationURL: VALIDATION_URL }),
    );
    expect(odd.body.code).toBe('PROCESSING_ERROR');
  });

  it('needs a login (401) and a wallet (400 WALLET_REQUIRED); 503 when Apple Pay is off', async () => {
    expect((await validate(null, { validationURL: VALIDATION_URL })).status).toBe(401);
    const noWallet = await validate(await buyer(false), { validationURL: VALIDATION_URL });
    expect(noWallet.status).toBe(400);
    expect(noWallet.body.code).toBe('WALLET_REQUIRED');
    const off = await withApplePay(null, async () =>
      validate(await buyer(), { validationURL: VALIDATION_URL }),
    );
    expect(off.status).toBe(503);
  });

  it('tells the browser the wallets’ settings in GET config/payments', async () => {
    const res = await t.request('GET', '/api/config/payments');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      card: { publicKey: SANDBOX_PUBLIC_KEY, apiUrl: sandbox.url },
      applePay: { merchantId: 'merchant.test.vitrine.sandbox', displayName: 'Vitrine' },
      googlePay: {
        gateway: 'checkoutltd',
        gatewayMerchantId: SANDBOX_PUBLIC_KEY,
        merchantId: null,
        merchantName: 'Vitrine',
        environment: 'TEST',
      },
    });
    const off = await withApplePay(null, () => t.request('GET', '/api/config/payments'));
    expect(off.body.applePay).toBeNull();
  });
});
