import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
} from '../../sandbox/checkout-com/index';
import {
  SANDBOX_API_KEY as VERIFF_API_KEY,
  SANDBOX_SHARED_SECRET as VERIFF_SHARED_SECRET,
} from '../../sandbox/veriff/index';
import { type DatabaseHandle, openDb } from '../../server/db';
import { nfts, users } from '../../server/db/schema';
import { createLogger } from '../../server/log';
import { insertBlueprint, insertStorefront } from '../../server/seed/factory';
import { start } from '../../server/start';
import {
  databases,
  flowAddress,
  type Json,
  JWT_SECRET,
  openTestDatabase,
  testConfig,
} from './support/harness';
import { capturedLog, type LogLine } from './support/logs';
import { testMail, waitForEmails } from './support/mailpit';

/**
 * No secret, token, card number or KYC data in any log line: a whole server (the card and identity
 * sandboxes embedded, their webhooks over real HTTP) serves a sign-up, a login, a password reset, a
 * card purchase and an identity verification decided by webhook, with its log captured; then the
 * log is searched for every secret the flow handled.
 */

/** Every string in a parsed line (keys and values, at any depth). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => [key, ...strings(item)]);
}

describe('what the log never holds', () => {
  it('censors secret fields and logs an error without the request or options hung on it', () => {
    const written: string[] = [];
    const log = createLogger({ destination: { write: (line: string) => written.push(line) } });
    const err = Object.assign(new Error('Request failed with status code 500'), {
      status: 500,
      options: { headers: { Authorization: 'Bearer sk_live_very_secret' } },
      request: { headers: { 'X-AUTH-CLIENT': 'veriff-api-key-secret' } },
      response: { body: { number: '4242424242424242' } },
    });
    log.error('provider call failed', err);
    log.info('sign-in', { password: 'hunter2-hunter2', user: { token: 'tok_abc_secret', email: 'a@b.co' } });
    const text = written.join('');
    for (const secret of [
      'sk_live_very_secret',
      'veriff-api-key-secret',
      '4242424242424242',
      'hunter2',
      'tok_abc',
    ])
      expect(text).not.toContain(secret);
    const [failed, signIn] = written.map((line) => JSON.parse(line) as LogLine);
    expect(failed).toMatchObject({
      level: 'error',
      msg: 'provider call failed',
      err: { type: 'Error', message: 'Request failed with status code 500', status: 500 },
    });
    expect(signIn).toMatchObject({ password: '[redacted]', user: { token: '[redacted]', email: 'a@b.co' } });
  });
});

describe.each(databases)('the log of a whole flow on %s', (database) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-logs-'));
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds no password, token, card number, CVV, KYC name or session URL, nor a provider secret', async () => {
    const created = await openTestDatabase(database);
    drop = created.drop;
    const base = testConfig(created.url, dataDir);
    const captured = capturedLog();
    let handle!: DatabaseHandle;
    const server = await start(
      {
        ...base,
        checkoutCom: { ...base.checkoutCom, mode: 'embedded' },
        veriff: { ...base.veriff, mode: 'embedded' },
        // Emails go out over SMTP (the tests' Mailpit), from the server's own delivery job.
        mail: testMail(),
      },
      {
        log: captured.log,
        openDatabase: async (c) => {
          handle = await openDb(c);
          return handle;
        },
      },
    );
    const secrets: string[] = [
      SANDBOX_SECRET_KEY,
      SANDBOX_WEBHOOK_KEY,
      VERIFF_API_KEY,
      VERIFF_SHARED_SECRET,
      JWT_SECRET,
    ];
    try {
      await server.ready;
      const origin = `http://127.0.0.1:${server.port}`;
      const api = async (method: string, path: string, options: { body?: unknown; token?: string } = {}) => {
        const res = await fetch(`${origin}${path}`, {
          method,
          headers: {
            ...(options.body !== undefined && { 'content-type': 'application/json' }),
            ...(options.token && { authorization: `Bearer ${options.token}` }),
          },
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
        });
        const text = await res.text();
        return {
          status: res.status,
          headers: res.headers,
          body: (text ? JSON.parse(text) : undefined) as Json,
        };
      };

      // Sign-up and login.
      const name = Array.from(randomBytes(10), (b) => String.fromCharCode(97 + (b % 26))).join('');
      const email = `${name}@example.com`;
      const password = `Quartz-zebra-${randomBytes(6).toString('hex')}`;
      const signUp = await api('POST', '/api/users/registrations', {
        body: { email, username: `user_${name}`, password, firstName: 'Ada', lastName: 'Lovelace' },
      });
      expect(signUp.status, JSON.stringify(signUp.body)).toBe(201);
      const login = await api('POST', '/api/auth/logins', { body: { email, password } });
      expect(login.status).toBe(200);
      const token = login.body.authToken as string;
      const cookie = login.headers.get('set-cookie')?.match(/vitrine_session=([^;]*)/)?.[1];
      secrets.push(password, signUp.body.authToken, token, cookie!);

      // Password reset by the emailed link.
      expect((await api('POST', '/api/auth/logins/passwords/resets', { body: { email } })).status).toBe(204);
      const [message] = await waitForEmails(email);
      const link = /https?:\/\/\S+\/auth\/reset-password\?t=\S+/.exec(message!.Text)![0];
      const resetToken = new URL(link).searchParams.get('t')!;
      const newPassword = `Basalt-heron-${randomBytes(6).toString('hex')}`;
      const reset = await api('PATCH', '/api/auth/logins/passwords', {
        body: { password: newPassword },
        token: resetToken,
      });
      expect(reset.status).toBeLessThan(300);
      secrets.push(resetToken, newPassword, link);
      const again = await api('POST', '/api/auth/logins', { body: { email, password: newPassword } });
      expect(again.status).toBe(200);
      const authToken = again.body.authToken as string;
      secrets.push(authToken);

      // A card purchase through the card sandbox (which posts its webhooks back).
      const userId = signUp.body.user.id as string;
      const walletAddress = flowAddress();
      await handle.db.update(users).set({ walletAddress }).where(eq(users.id, userId));
      const storefront = await insertStorefront(handle.db, {
        ownerId: userId,
        name: `Shop ${name}`,
        vanityUrl: `shop-${name}`,
      });
      const item = await insertBlueprint(handle.db, {
        storefrontId: storefront.id,
        title: 'Logged item',
        price: 2500,
        quantity: 3,
      });
      const payments = (await api('GET', '/api/config/payments')).body;
      const card = '4242424242424242';
      const cvv = '987';
      const tokenized = await fetch(`${payments.card.apiUrl}/tokens`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${SANDBOX_PUBLIC_KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          type: 'card',
          number: card,
          cvv,
          expiry_month: 12,
          expiry_year: new Date().getUTCFullYear() + 2,
        }),
      }).then((res) => res.json() as Promise<Json>);
      secrets.push(tokenized.token);
      const charge = await api('POST', '/api/checkout-com-charges', {
        token: authToken,
        body: {
          idempotencyKey: `key-${randomBytes(8).toString('hex')}`,
          item: { kind: 'blueprint', id: item.id },
          expectedPrice: 2500,
          billingInfo: {
            cardToken: tokenized.token,
            firstName: 'Ada',
            lastName: 'Lovelace',
            addressLine1: '1 Market St',
            city: 'San Francisco',
            state: 'CA',
            country: 'US',
            zipCode: '94105',
            phoneNumber: { countryCode: '1', number: '4155550123' },
            save: true,
          },
        },
      });
      expect(charge.status, JSON.stringify(charge.body)).toBe(201);

      // Identity verification through the Veriff sandbox, decided on its page, told by webhook.
      const blueprintId = 800_000_000 + randomInt(99_999_999);
      await handle.db
        .insert(nfts)
        .values({ id: `${blueprintId}1`, blueprintId, serialNumber: 1, owner: walletAddress });
      const kyc = await api('POST', '/api/veriff-kyc', {
        token: authToken,
        body: { firstName: 'Grisélidis', lastName: 'Quonset-Hopper' },
      });
      expect(kyc.status, JSON.stringify(kyc.body)).toBe(200);
      const sessionUrl = kyc.body.url as string;
      secrets.push(sessionUrl, 'Grisélidis', 'Quonset-Hopper');
      const decided = await fetch(sessionUrl, {
        method: 'POST',
        body: new URLSearchParams({ decision: 'approved' }),
        redirect: 'manual',
      });
      expect(decided.status).toBe(303);
      let status: string | undefined;
      for (let i = 0; i < 100 && status !== 'approved'; i++) {
        status = (await api('GET', '/api/users/me', { token: authToken })).body.kyc?.status;
        if (status !== 'approved') await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe('approved');
    } finally {
      await server.close();
    }

    const text = captured.text();
    const lines = captured.lines();
    // The flow was logged: an access line for each step, the webhooks among them.
    const routes = new Set(lines.map((line) => line.route));
    for (const route of [
      '/api/auth/logins',
      '/api/checkout-com-charges',
      '/api/veriff-kyc',
      '/api/webhooks/veriff',
    ])
      expect(routes).toContain(route);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(5);
      expect(text).not.toContain(secret);
    }
    for (const pattern of [/4242 ?4242/, /Bearer /i, /eyJ[\w-]+/, /"cvv"/i])
      expect(text).not.toMatch(pattern);
    // The CVV as a value of its own anywhere (numbers like durations are not text).
    expect(lines.flatMap(strings).filter((s) => /\b987\b/.test(s))).toEqual([]);
  }, 60_000);
});
