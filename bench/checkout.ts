/**
 * Checkout benchmarks (`npx tsx bench/checkout.ts [N]`):
 *
 * 1. A card payment without 3-D Secure → minted → "Purchase Complete" visible, N times (default
 *    20), on the whole stack `npm start` runs (server, embedded emulator and card sandbox, seeded
 *    world). Each purchase does what the buyer's browser does: tokenize 4242 4242 4242 4242 at the
 *    sandbox, POST checkout-com-charges, then the purchase-complete page's poll: every 750 ms read
 *    the charge, and once it is minted look the purchase up among the buyer's last 10. Target p95 ≤ 3 s.
 * 2. Server time of one purchase-complete poll tick (GET checkout-com-charges/{id}, and the lookup
 *    GET nfts/purchases?from=1&to=10), measured in process on the same database. Target ≤ 1 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import { timings } from '#domain/constants';
import { SANDBOX_PUBLIC_KEY } from '../sandbox/checkout-com/index';
import { createApp } from '../server/app';
import { createAccount } from '../server/chain/accounts';
import { setupAccount } from '../server/chain/actions';
import { FlowClient } from '../server/chain/client';
import { emulatorChainConfig } from '../server/chain/config';
import { CARD_CHECKS_PER_ACCOUNT } from '../server/checkout/card/velocity';
import { loadConfig } from '../server/config';
import { type DatabaseHandle, openDb } from '../server/db';
import { blueprints, users } from '../server/db/schema';
import { start } from '../server/start';
import { apiCaller, type Json } from './app';

const quiet = { info() {}, error: console.error };

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

export async function cardPurchaseTimes(n = 20) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-checkout-'));
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
    // The buyers come from addresses of their own (X-Forwarded-For, believed from this machine):
    // one person may make only so many card checks (server/checkout/card/velocity.ts).
    VITRINE_TRUSTED_PROXIES: '127.0.0.1',
  });
  let database: DatabaseHandle | undefined;
  const server = await start(config, {
    log: quiet,
    openDatabase: async (c) => (database = await openDb(c)),
  });
  try {
    await server.ready;
    const base = `http://127.0.0.1:${server.port}/api`;
    const call = apiCaller(base);
    // The buyers: each an account from an address of its own, with a Flow wallet and a collection,
    // buying as many times as one account may check a card in 10 minutes.
    const client = new FlowClient(
      emulatorChainConfig(process.env.FLOW_ACCESS_NODE ?? 'http://127.0.0.1:8888'),
    );
    const db = database!.db;
    const buyers: { authToken: string; user: Json; from: string }[] = [];
    for (let b = 0; b < Math.ceil(n / CARD_CHECKS_PER_ACCOUNT); b++) {
      const from = `10.20.0.${b + 1}`;
      const { authToken, user } = await call(
        'POST',
        'users/registrations',
        {
          email: `bench-buyer-${b}-${Date.now()}@example.com`,
          username: `bench_buyer_${String.fromCharCode(97 + b)}`,
          password: 'bench-password-1',
          firstName: 'Bench',
        },
        undefined,
        from,
      );
      const account = await createAccount(client);
      await setupAccount(client, account);
      await db.update(users).set({ walletAddress: account.address }).where(eq(users.id, user.id));
      buyers.push({ authToken, user, from });
    }
    // A seeded blueprint on sale alone with editions enough, at a price the sandbox approves.
    const [item] = await db
      .select()
      .from(blueprints)
      .where(
        and(
          eq(blueprints.state, 'active'),
          eq(blueprints.type, 'standalone'),
          isNull(blueprints.blueprintPackId),
          gte(blueprints.quantityAvailable, n + 5),
          sql`${blueprints.price} > 0 and ${blueprints.price} % 100 not in (5, 51, 54)`,
        ),
      )
      .limit(1);
    if (!item) throw new Error('no purchasable seeded blueprint');
    const { card } = await call('GET', 'config/payments');

    const samples: number[] = [];
    const seen = new Set<string>();
    let lastChargeId = '';
    let user: Json;
    for (let i = 0; i < n; i++) {
      const buyer = buyers[Math.floor(i / CARD_CHECKS_PER_ACCOUNT)]!;
      const { authToken, from } = buyer;
      user = buyer.user;
      const started = performance.now();
      const tokenRes = await fetch(`${card.apiUrl}/tokens`, {
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
      const { token } = (await tokenRes.json()) as { token: string };
      const charge = await call(
        'POST',
        'checkout-com-charges',
        {
          item: { kind: 'blueprint', id: item.id },
          expectedPrice: item.price,
          idempotencyKey: `bench-${Date.now()}-${i}`,
          billingInfo: {
            cardToken: token,
            firstName: 'Bench',
            addressLine1: '1 Market St',
            city: 'San Francisco',
            state: 'CA',
            country: 'US',
            zipCode: '94105',
            phoneNumber: { countryCode: '1', number: '4155550123' },
            save: false,
          },
        },
        authToken,
        from,
      );
      if (!charge.success) throw new Error(`charge not approved: ${JSON.stringify(charge)}`);
      lastChargeId = charge.id;
      // The purchase-complete page: a tick every 750 ms reads the charge; minted → look it up now.
      for (let tick = 1; ; tick++) {
        await new Promise((r) => setTimeout(r, timings.purchaseCompletePollMs));
        const now = await call('GET', `checkout-com-charges/${charge.id}`, undefined, authToken, from);
        if (now.order.status === 'minted' || tick % 4 === 0) {
          const { results } = await call('GET', 'nfts/purchases?from=1&to=10', undefined, authToken, from);
          const found = results.find(
            (p: Json) =>
              p.blueprintId === item.id &&
              !seen.has(p.id) &&
              Date.parse(p.purchasedOn) >= Date.parse(charge.order.createdAt) - 15_000,
          );
          if (found) {
            seen.add(found.id);
            break;
          }
        }
        if (tick > timings.purchaseCompleteMaxTicks) throw new Error('purchase never completed');
      }
      samples.push(performance.now() - started);
    }
    await server.close();
    // One poll tick on the server: the same database, in process, without HTTP.
    const reopened = await openDb(config);
    try {
      const app = createApp({ config, database: reopened, log: quiet });
      const login = await app.request('/api/auth/logins', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: user!.email, password: 'bench-password-1' }),
      });
      const { authToken: token } = (await login.json()) as { authToken: string };
      const tick = async (path: string) => {
        const times: number[] = [];
        for (let k = 0; k < 500; k++) {
          const t0 = performance.now();
          const res = await app.request(path, { headers: { authorization: `Bearer ${token}` } });
          await res.arrayBuffer();
          times.push(performance.now() - t0);
        }
        return { median: percentile(times.slice(50), 50), p95: percentile(times.slice(50), 95) };
      };
      return {
        n,
        p50Ms: percentile(samples, 50),
        p95Ms: percentile(samples, 95),
        chargeTick: await tick(`/api/checkout-com-charges/${lastChargeId}`),
        lookupTick: await tick('/api/nfts/purchases?from=1&to=10'),
      };
    } finally {
      await reopened.close();
    }
  } catch (err) {
    await server.close().catch(() => undefined);
    throw err;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printCheckout(r: Awaited<ReturnType<typeof cardPurchaseTimes>>) {
  console.log(
    `card payment (no 3-D Secure) → minted → Purchase Complete visible, ${r.n} purchases: p50 ${(r.p50Ms / 1000).toFixed(2)} s, p95 ${(r.p95Ms / 1000).toFixed(2)} s (target p95 ≤ 3 s)`,
  );
  console.log(
    `purchase-complete poll tick, server time: charge read median ${r.chargeTick.median.toFixed(2)} ms, p95 ${r.chargeTick.p95.toFixed(2)} ms; purchase lookup median ${r.lookupTick.median.toFixed(2)} ms, p95 ${r.lookupTick.p95.toFixed(2)} ms (target ≤ 1 ms)`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printCheckout(await cardPurchaseTimes(Number(process.argv[2] ?? 20)));
}
