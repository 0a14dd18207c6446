/**
 * Minting beside image work (`npx tsx bench/lanes.ts [N]`): the server as `npm start` runs it (its
 * own emulator, one job worker), 32 image jobs of 2 MB noise PNGs queued from 16 accounts (the most
 * it accepts; sharp takes seconds on each), then N free claims one after another (default 3), each
 * timed from the claim's answer until its order is minted. Target ≤ 3 s.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { createAccount } from '../server/chain/accounts';
import { setupAccount } from '../server/chain/actions';
import { emulatorChainConfig } from '../server/chain/config';
import { freePort } from '../server/chain/emulator';
import { type ChainHandle, startChain } from '../server/chain/lifecycle';
import { loadConfig } from '../server/config';
import { type DatabaseHandle, openDb } from '../server/db';
import { imageJobs, orders, users } from '../server/db/schema';
import { insertBlueprint, insertStorefront } from '../server/seed/factory';
import { start } from '../server/start';
import { apiCaller } from './app';

const quiet = { info() {}, error: console.error };
const QUEUED_IMAGES = 32;
const TARGET_MS = 3000;

export async function claimToMintTimes(n = 3) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-lanes-'));
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    VITRINE_DATA_DIR: dataDir,
    VITRINE_SEED: 'off',
    FLOW_DEV_WALLET_PORT: String(await freePort()),
    CHECKOUT_COM_SANDBOX_PORT: '0',
    COINBASE_COMMERCE_SANDBOX_PORT: '0',
    WERT_SANDBOX_PORT: '0',
    VERIFF_SANDBOX_PORT: '0',
    // Mailpit listens on fixed ports: no email leaves a benchmark.
    MAIL: 'off',
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256',
    NODE_ENV: 'development',
    // The accounts sign up from addresses of their own (X-Forwarded-For, believed from this machine):
    // one address's sign-ups are slowed after 10 an hour (server/users/signup-limit.ts).
    VITRINE_TRUSTED_PROXIES: '127.0.0.1',
  });
  const accessNode = `http://127.0.0.1:${await freePort()}`;
  let database: DatabaseHandle | undefined;
  let chain: ChainHandle | null = null;
  const server = await start(config, {
    log: quiet,
    openDatabase: async (c) => (database = await openDb(c)),
    startChain: async (c, log) => (chain = await startChain(c, log, emulatorChainConfig(accessNode))),
  });
  try {
    await server.ready;
    const base = `http://127.0.0.1:${server.port}/api`;
    const call = apiCaller(base);
    let accounts = 0;
    const account = () =>
      call(
        'POST',
        'users/registrations',
        {
          email: `bench-lanes-${++accounts}-${Date.now()}@example.com`,
          username: `bench_lanes_${String.fromCharCode(96 + accounts)}${'x'.repeat(3)}`,
          password: 'bench-password-1',
          firstName: 'Bench',
        },
        undefined,
        `10.40.0.${accounts}`,
      );
    const db = database!.db;
    // The claimer: a Flow wallet with a collection, linked to the account.
    const claimer = await account();
    const wallet = await createAccount(chain!.client);
    await setupAccount(chain!.client, wallet);
    await db.update(users).set({ walletAddress: wallet.address }).where(eq(users.id, claimer.user.id));
    const shop = await account();
    const storefront = await insertStorefront(db, {
      ownerId: shop.user.id,
      name: 'Bench lanes',
      vanityUrl: `bench-lanes-${Date.now()}`,
    });
    const free = [];
    for (let i = 0; i < n; i++)
      free.push(
        await insertBlueprint(db, {
          storefrontId: storefront.id,
          title: `Free ${i}`,
          price: 0,
          quantity: 10,
        }),
      );

    // Noise does not compress: 800 × 800 pixels is a PNG of about 1.9 MB (the kind's limit is 2 MB).
    const png = await sharp(randomBytes(800 * 800 * 3), { raw: { width: 800, height: 800, channels: 3 } })
      .png()
      .toBuffer();
    for (let a = 0; a < QUEUED_IMAGES / 2; a++) {
      const { authToken } = await account();
      for (let j = 0; j < 2; j++) {
        const objectKey = `noise-${randomBytes(4).toString('hex')}.png`;
        const grant = await call(
          'GET',
          `assets/upload-url?mimeType=image/png&objectKey=${objectKey}&assetKind=blueprintAsset`,
          undefined,
          authToken,
        );
        const form = new FormData();
        form.set('file', new File([new Uint8Array(png)], objectKey, { type: 'image/png' }));
        form.set('uploadUrl', grant.url);
        form.set('quality', '85');
        await call('POST', 'image-jobs', form, authToken);
      }
    }

    const samples: number[] = [];
    for (const item of free) {
      const claim = await call('POST', 'free-blueprint-claims', { blueprintId: item.id }, claimer.authToken);
      const claimed = performance.now();
      for (;;) {
        const [order] = await db.select().from(orders).where(eq(orders.id, claim.orderId));
        if (order!.status === 'minted') break;
        if (performance.now() - claimed > 600_000) throw new Error(`claim still ${order!.status}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      samples.push(performance.now() - claimed);
    }
    const [pending] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(imageJobs)
      .where(eq(imageJobs.status, 'pending'));
    return { n, samples, pendingAfter: pending!.n };
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printLanes(r: Awaited<ReturnType<typeof claimToMintTimes>>) {
  const sorted = [...r.samples].sort((a, b) => a - b);
  console.log(
    `free claim → minted with ${QUEUED_IMAGES} image jobs queued, ${r.n} claims: median ${(sorted[Math.floor(sorted.length / 2)]! / 1000).toFixed(2)} s, max ${(sorted.at(-1)! / 1000).toFixed(2)} s (target ≤ ${TARGET_MS / 1000} s; ${r.pendingAfter} image jobs still waiting after)`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printLanes(await claimToMintTimes(Number(process.argv[2] ?? 3)));
}
