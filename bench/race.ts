/**
 * 200 buyers race for the last 5 editions (`npx tsx bench/race.ts [pglite|postgres]`), on the whole
 * stack `npm start` runs (server, embedded emulator, card sandbox, seeded world) over real HTTP:
 * 200 signed-in buyers, each with a Flow wallet holding a collection, press Pay at once with an
 * approved card (4242 4242 4242 4242, no 3-D Secure). Exactly 5 must be authorized, captured and
 * minted, 195 refused SOLD_OUT with no payment at the provider; the figures are the time of the 200
 * answers and the time until the 5 editions are minted.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { and, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import { SANDBOX_PUBLIC_KEY } from '../sandbox/checkout-com/index';
import { startThrowawayPostgres } from '../scripts/postgres';
import { createTokens } from '../server/auth/tokens';
import { FlowClient } from '../server/chain/client';
import { emulatorChainConfig, normalizeAddress } from '../server/chain/config';
import { loadConfig } from '../server/config';
import { type DatabaseHandle, openDb } from '../server/db';
import { blueprints, cardCharges, orders, sessions, users } from '../server/db/schema';
import { start } from '../server/start';

const quiet = { info() {}, error: console.error };
const BUYERS = 200;
const EDITIONS = 5;

/** `count` keyless accounts with a collection and a vault, created 20 to a transaction (the computation limit). */
async function collectors(client: FlowClient, count: number): Promise<string[]> {
  const addresses: string[] = [];
  while (addresses.length < count) {
    const batch = Math.min(20, count - addresses.length);
    const tx = await client.transact('transactions/create_collectors.cdc', {
      signer: client.config.admin,
      args: (arg, t) => [arg(String(batch), t.Int)],
    });
    for (const e of tx.events)
      if (e.type === 'flow.AccountCreated') addresses.push(normalizeAddress(String(e.data.address)));
  }
  return addresses;
}

export async function raceBench(kind: 'pglite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-race-'));
  const postgres = kind === 'postgres' ? await startThrowawayPostgres() : null;
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    VITRINE_DATA_DIR: dataDir,
    CHECKOUT_COM_SANDBOX_PORT: '0',
    COINBASE_COMMERCE_SANDBOX_PORT: '0',
    // Mailpit listens on fixed ports: no email leaves a benchmark.
    MAIL: 'off',
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256',
    NODE_ENV: 'development',
    // 200 people come from 200 addresses (X-Forwarded-For, believed from this machine): an address
    // holds one unpaid unit of an item (server/checkout/holds.ts).
    VITRINE_TRUSTED_PROXIES: '127.0.0.1',
    ...(postgres ? { DATABASE_URL: postgres.url } : { DATABASE_URL: '' }),
  });
  let database: DatabaseHandle | undefined;
  const server = await start(config, {
    log: quiet,
    openDatabase: async (c) => (database = await openDb(c)),
  });
  try {
    await server.ready;
    const base = `http://127.0.0.1:${server.port}/api`;
    const db = database!.db;
    const client = new FlowClient(
      emulatorChainConfig(process.env.FLOW_ACCESS_NODE ?? 'http://127.0.0.1:8888'),
    );
    const wallets = await collectors(client, BUYERS);

    // The buyers, signed in: accounts with those wallets and an open session each.
    const buyers = await db
      .insert(users)
      .values(
        wallets.map((walletAddress, i) => ({
          email: `racer-${i}-${randomBytes(4).toString('hex')}@example.com`,
          username: `racer_${i}_${randomBytes(4).toString('hex')}`,
          passwordHash: 'not-a-password-hash',
          firstName: 'Racer',
          walletAddress,
        })),
      )
      .returning();
    const now = new Date();
    const opened = await db
      .insert(sessions)
      .values(
        buyers.map((u) => ({
          userId: u.id,
          refreshHash: randomBytes(16).toString('hex'),
          refreshedAt: now,
          expiresAt: new Date(now.getTime() + 3_600_000),
        })),
      )
      .returning();
    const tokens = createTokens(config.jwtSecret, config.tokenTtlSeconds, () => new Date());
    const authTokens = await Promise.all(buyers.map((u, i) => tokens.issue(u, opened[i]!.id)));

    // A seeded blueprint on sale alone, at a price the sandbox approves, with 5 editions left.
    const [item] = await db
      .select()
      .from(blueprints)
      .where(
        and(
          eq(blueprints.state, 'active'),
          eq(blueprints.type, 'standalone'),
          isNull(blueprints.blueprintPackId),
          gte(blueprints.quantityAvailable, EDITIONS),
          sql`${blueprints.price} > 0 and ${blueprints.price} % 100 not in (5, 51, 54)`,
        ),
      )
      .limit(1);
    if (!item) throw new Error('no purchasable seeded blueprint');
    await db.update(blueprints).set({ quantityAvailable: EDITIONS }).where(eq(blueprints.id, item.id));

    // Each buyer's card, tokenized at the provider as the browser does.
    const { card } = (await (await fetch(`${base}/config/payments`)).json()) as { card: { apiUrl: string } };
    const cardTokens = await Promise.all(
      buyers.map(async () => {
        const res = await fetch(`${card.apiUrl}/tokens`, {
          method: 'POST',
          headers: { authorization: `Bearer ${SANDBOX_PUBLIC_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            type: 'card',
            number: '4242424242424242',
            expiry_month: 12,
            expiry_year: new Date().getUTCFullYear() + 2,
            cvv: '123',
          }),
        });
        return ((await res.json()) as { token: string }).token;
      }),
    );

    const started = performance.now();
    const answers = await Promise.all(
      buyers.map(async (_, i) => {
        const res = await fetch(`${base}/checkout-com-charges`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${authTokens[i]}`,
            'content-type': 'application/json',
            'x-forwarded-for': `10.30.${i >> 8}.${i & 255}`,
          },
          body: JSON.stringify({
            item: { kind: 'blueprint', id: item.id },
            expectedPrice: item.price,
            idempotencyKey: `race-${i}-${randomBytes(6).toString('hex')}`,
            billingInfo: {
              cardToken: cardTokens[i],
              firstName: 'Racer',
              addressLine1: '1 Market St',
              city: 'San Francisco',
              state: 'CA',
              country: 'US',
              zipCode: '94105',
              phoneNumber: { countryCode: '1', number: '4155550123' },
              save: false,
            },
          }),
        });
        return { status: res.status, body: (await res.json()) as { code?: string } };
      }),
    );
    const answeredMs = performance.now() - started;
    const authorized = answers.filter((a) => a.status === 201).length;
    const soldOut = answers.filter((a) => a.status === 409 && a.body.code === 'SOLD_OUT').length;

    // The job worker captures and mints each winner's edition.
    const placed = () => db.select().from(orders).where(eq(orders.itemId, item.id));
    let mintedMs = Number.NaN;
    for (const deadline = Date.now() + 180_000; Date.now() < deadline; ) {
      const rows = await placed();
      if (rows.length > 0 && rows.every((o) => ['minted', 'refunded', 'voided'].includes(o.status))) {
        mintedMs = performance.now() - started;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const rows = await placed();
    const charges = rows.length
      ? await db
          .select()
          .from(cardCharges)
          .where(
            inArray(
              cardCharges.orderId,
              rows.map((o) => o.id),
            ),
          )
      : [];
    const [left] = await db
      .select({ n: blueprints.quantityAvailable })
      .from(blueprints)
      .where(eq(blueprints.id, item.id));
    return {
      kind,
      buyers: BUYERS,
      editions: EDITIONS,
      authorized,
      soldOut,
      other: BUYERS - authorized - soldOut,
      payments: charges.filter((c) => c.paymentId !== null).length,
      // Captured, then MINTING and MINTED: every one of them was captured.
      captured: charges.filter((c) => ['Captured', 'MINTING', 'MINTED'].includes(c.status)).length,
      minted: rows.filter((o) => o.status === 'minted').length,
      refunded: rows.filter((o) => o.status === 'refunded').length,
      left: left?.n ?? -1,
      answeredMs,
      mintedMs,
    };
  } finally {
    await server.close().catch(() => undefined);
    postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printRace(r: Awaited<ReturnType<typeof raceBench>>) {
  console.log(
    `[${r.kind}] ${r.buyers} buyers for the last ${r.editions} editions: ${r.authorized} authorized, ` +
      `${r.soldOut} SOLD_OUT, ${r.other} other; ${r.payments} provider payments, ${r.captured} captured, ` +
      `${r.minted} minted, ${r.refunded} refunded, ${r.left} left (target: exactly ${r.editions} captured and minted, ` +
      `${r.buyers - r.editions} SOLD_OUT with no payment); 200 answers in ${(r.answeredMs / 1000).toFixed(2)} s, ` +
      `all ${r.editions} minted within ${(r.mintedMs / 1000).toFixed(2)} s of the first request`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const kinds = (process.argv[2] ? [process.argv[2]] : ['pglite', 'postgres']) as Array<
    'pglite' | 'postgres'
  >;
  for (const kind of kinds) printRace(await raceBench(kind));
}
