import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
  type Sandbox,
  startCheckoutSandbox,
} from '../../sandbox/checkout-com/index';
import { startThrowawayPostgres } from '../../scripts/postgres';
import { getNfts } from '../../server/chain/actions';
import type { CrashPoint } from '../../server/crash';
import { type DatabaseHandle, openDb } from '../../server/db';
import {
  cardCharges,
  mints,
  nftPurchases,
  orderEvents,
  orders,
  users,
  webhookEvents,
} from '../../server/db/schema';
import { insertBlueprint, insertStorefront } from '../../server/seed/factory';
import type { Json } from '../api/support/harness';
import { testConfig } from '../api/support/harness';
import { chainClient, freshBlueprintId, newCollector } from './support';

/**
 * `kill -9` of a real server process (server/main.ts on PostgreSQL and the test's emulator) where a
 * crash hurts most — after the payment was captured, after the edition was minted, inside the
 * transaction that applies a provider webhook — then a restart: each edition is minted exactly
 * once, the payment captured once, and every webhook applied once.
 */

const client = chainClient();

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

describe('kill -9 of the server', () => {
  let postgres: { url: string; stop(): void };
  let database: DatabaseHandle;
  let sandbox: Sandbox;
  let port: number;
  let dataDir: string;
  let child: ChildProcess | null = null;
  const base = () => `http://127.0.0.1:${port}/api`;

  beforeAll(async () => {
    postgres = await startThrowawayPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'vitrine-crash-'));
    database = await openDb(testConfig(postgres.url, dataDir));
    // Chain blueprint ids no other test file mints (editions are unique per blueprint on chain).
    await database.db.execute(
      sql.raw(`alter table blueprints alter column flow_blueprint_id restart with ${freshBlueprintId()}`),
    );
    port = await freePort();
    // The provider retries a webhook the server did not answer after 1, 2, 4, 8 and 16 s.
    sandbox = await startCheckoutSandbox({
      port: 0,
      webhookUrl: `http://127.0.0.1:${port}/api/webhooks/checkout-com`,
      retrySchedule: [1, 2, 4, 8, 16],
    });
  }, 120_000);
  afterEach(() => stopServer());
  afterAll(async () => {
    await stopServer();
    await sandbox?.close();
    await database?.close();
    postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Starts server/main.ts (killing itself at `crashAt`, if given) and waits until it is healthy. */
  async function startServer(crashAt?: CrashPoint) {
    child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        PORT: String(port),
        VITRINE_DATA_DIR: dataDir,
        DATABASE_URL: postgres.url,
        JWT_SECRET: 'crash-test-secret-that-is-long-enough',
        VITRINE_SEED: 'off',
        FLOW_EMULATOR: 'external',
        FLOW_ACCESS_NODE: client.config.accessNode,
        CHECKOUT_COM: 'external',
        COINBASE_COMMERCE: 'off',
        WERT: 'off',
        // The identity sandbox on a port of its own: a fixed one would collide with a server another
        // test file spawns at the same time.
        VERIFF_SANDBOX_PORT: '0',
        // Mailpit's fixed ports would collide too: no email leaves this server.
        MAIL: 'off',
        CHECKOUT_COM_API_URL: sandbox.url,
        CHECKOUT_COM_PUBLIC_KEY: SANDBOX_PUBLIC_KEY,
        CHECKOUT_COM_SECRET_KEY: SANDBOX_SECRET_KEY,
        CHECKOUT_COM_WEBHOOK_KEY: SANDBOX_WEBHOOK_KEY,
        VITRINE_CRASH_AT: crashAt ?? '',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (const end = Date.now() + 60_000; ; ) {
      const ok = await fetch(`${base()}/health`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return;
      if (child.exitCode !== null || child.signalCode !== null) throw new Error('the server did not start');
      if (Date.now() > end) throw new Error('the server was not healthy within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Resolves with the signal that ended the server. */
  function ended(): Promise<NodeJS.Signals | null> {
    const proc = child!;
    if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(proc.signalCode);
    return new Promise((resolve) => proc.once('exit', (_code, signal) => resolve(signal)));
  }

  async function stopServer() {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const done = ended();
    child.kill('SIGTERM');
    await done;
  }

  async function call(method: string, path: string, body?: unknown, token?: string): Promise<Json> {
    const res = await fetch(`${base()}/${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json().catch(() => null);
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  /** A signed-up buyer whose wallet is an emulator account with a collection, and an item to buy. */
  async function buyerAndItem() {
    const tag = Array.from(randomBytes(8), (b) => String.fromCharCode(97 + (b % 26))).join('');
    const { authToken, user } = await call('POST', 'users/registrations', {
      email: `crash-${tag}@example.com`,
      username: `crash_${tag}`,
      password: 'crash-password-1',
      firstName: 'Ada',
    });
    const account = await newCollector(client);
    await database.db.update(users).set({ walletAddress: account.address }).where(eq(users.id, user.id));
    const shop = await insertStorefront(database.db, {
      ownerId: user.id,
      name: `Shop ${tag}`,
      vanityUrl: `shop-${tag}`,
    });
    const item = await insertBlueprint(database.db, {
      storefrontId: shop.id,
      title: `Edition ${tag}`,
      price: 2500,
      quantity: 10,
    });
    return { token: authToken as string, wallet: account.address, item };
  }

  async function pay(token: string, itemId: string, card: string) {
    const tokenRes = await fetch(`${sandbox.url}/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_PUBLIC_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'card',
        number: card,
        cvv: '123',
        expiry_month: 12,
        expiry_year: new Date().getUTCFullYear() + 2,
      }),
    });
    const { token: cardToken } = (await tokenRes.json()) as { token: string };
    return call(
      'POST',
      'checkout-com-charges',
      {
        item: { kind: 'blueprint', id: itemId },
        expectedPrice: 2500,
        idempotencyKey: `crash-${randomBytes(8).toString('hex')}`,
        billingInfo: {
          cardToken,
          firstName: 'Ada',
          addressLine1: '1 Market St',
          city: 'San Francisco',
          state: 'CA',
          country: 'US',
          zipCode: '94105',
          phoneNumber: { countryCode: '1', number: '4155550123' },
        },
      },
      token,
    );
  }

  const orderOf = async (id: string) =>
    (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  async function minted(orderId: string, ms = 90_000) {
    for (const end = Date.now() + ms; ; ) {
      const o = await orderOf(orderId);
      if (['minted', 'refunded', 'voided'].includes(o.status)) return o;
      if (Date.now() > end) throw new Error(`order ${orderId} still ${o.status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** What must hold after the restart: one edition on chain, one mint, one purchase, captured. */
  async function exactlyOnce(orderId: string, wallet: string, flowBlueprintId: number) {
    expect((await minted(orderId)).status).toBe('minted');
    const onChain = (await getNfts(client, wallet)).filter((n) => n.blueprintId === String(flowBlueprintId));
    expect(onChain).toHaveLength(1);
    expect(await database.db.select().from(mints).where(eq(mints.blueprintId, flowBlueprintId))).toHaveLength(
      1,
    );
    expect(
      await database.db.select().from(nftPurchases).where(eq(nftPurchases.orderId, orderId)),
    ).toHaveLength(1);
    const [charge] = await database.db.select().from(cardCharges).where(eq(cardCharges.orderId, orderId));
    const payment = (await (
      await fetch(`${sandbox.url}/payments/${charge!.paymentId}`, {
        headers: { authorization: `Bearer ${SANDBOX_SECRET_KEY}` },
      })
    ).json()) as Json;
    expect(payment.status).toBe('Captured');
    const timeline = await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId));
    expect(timeline.map((e) => e.type).sort()).toEqual(
      ['authorized', 'captured', 'created', 'minted', 'minting'].sort(),
    );
  }

  for (const crashAt of ['captured', 'minted'] as const) {
    it(`killed right after the fulfil job ${crashAt === 'captured' ? 'captured the payment' : 'minted the edition'}: the restart finishes it once`, async () => {
      await startServer(crashAt);
      const { token, wallet, item } = await buyerAndItem();
      const died = ended();
      // The fulfil job runs beside the request, so under load the kill can land before the
      // charge's response is written: the order is then found by its item.
      const charge = await pay(token, item.id, '4242424242424242').catch(() => null);
      if (charge) expect(charge.success).toBe(true);
      expect(await died).toBe('SIGKILL');
      const [order] = await database.db.select().from(orders).where(eq(orders.itemId, item.id));
      // Killed mid-way: the order is not done.
      expect(['authorized', 'captured', 'minting']).toContain(order!.status);
      if (charge) expect(charge.orderId).toBe(order!.id);

      await startServer();
      await exactlyOnce(order!.id, wallet, item.flowBlueprintId);
      await stopServer();
    }, 180_000);
  }

  it('killed inside the transaction applying a webhook: the provider’s retry applies it once', async () => {
    await startServer('webhook');
    const { token, wallet, item } = await buyerAndItem();
    const died = ended();
    // A 3-D Secure charge: only the provider's webhook (no sync) tells the server it was approved.
    const charge = await pay(token, item.id, '4485040371536584');
    expect(charge.unresolved).toBe(true);
    const sid = new URL(charge.redirectLink).pathname.split('/').pop()!;
    const approved = await fetch(`${sandbox.url}/3ds/${sid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=approve',
      redirect: 'manual',
    });
    expect(approved.status).toBeLessThan(400);
    expect(await died).toBe('SIGKILL');
    // Nothing of the event was kept: the kill came before the commit.
    expect((await orderOf(charge.orderId)).status).toBe('created');

    await startServer();
    await exactlyOnce(charge.orderId, wallet, item.flowBlueprintId);
    const approvals = sandbox.deliveries.filter((d) => d.type === 'payment_approved');
    expect(approvals.some((d) => d.status !== 200)).toBe(true);
    expect(approvals.at(-1)!.status).toBe(200);
    const events = await database.db.select().from(webhookEvents);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    await stopServer();
  }, 180_000);
});
