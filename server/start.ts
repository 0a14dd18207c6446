import { mkdirSync } from 'node:fs';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { inArray, sql } from 'drizzle-orm';
import { JsonRpcProvider } from 'ethers';
import type { Hono } from 'hono';
import { type Sandbox, startCheckoutSandbox } from '../sandbox/checkout-com/index';
import { type CoinbaseSandbox, startCoinbaseSandbox } from '../sandbox/coinbase-commerce/index';
import { startVeriffSandbox, type VeriffSandbox } from '../sandbox/veriff/index';
import { publicKeyOf, startWertSandbox, type WertSandbox } from '../sandbox/wert/index';
import { backfillActivity } from './activity/backfill';
import { createApp } from './app';
import { createPublisher, type Publisher } from './blueprints/publisher';
import { type Indexer, startIndexer } from './chain/indexer';
import { type ChainHandle, startChain } from './chain/lifecycle';
import { createMintService } from './chain/mint';
import { expireTopups } from './checkout/crypto/charges';
import { createSendFusdHandler } from './checkout/crypto/send-fusd';
import { createRefundFusdHandler, fusdPaymentEvents, REFUND_FUSD_JOB } from './checkout/fusd/fusd';
import { FULFIL_JOB, SEND_FUSD_JOB } from './checkout/orders';
import { REFUND_TOKEN_JOB } from './checkout/token/rail';
import { reconcileDueTokenCharges } from './checkout/token/reconcile';
import { createRefundTokenHandler } from './checkout/token/refund';
import { createWertRefundHandler } from './checkout/wert/refund';
import { WERT_REFUND_JOB } from './checkout/wert/wert';
import { expireOrders } from './checkout/workflow/expire';
import { createFulfilment } from './checkout/workflow/fulfil';
import type { Clock, Log } from './clock';
import type { Config } from './config';
import { crashHook } from './crash';
import { type Database, type DatabaseHandle, type DatabaseKind, databaseKind, openDb } from './db';
import { users } from './db/schema';
import { ANVIL_CHAIN_ID, ANVIL_PAYMENTS_KEY, type Anvil, startAnvil } from './evm/anvil';
import { ensureNfm } from './evm/nfm';
import { createTokenChain, type TokenChain } from './evm/token';
import { createFavoriteNotices, FAVORITE_NOTICE_JOB, queueOpenedSales } from './favorites/notices';
import type { AppEnv } from './http';
import { createVeriffProvider, type IdentityProvider } from './identity/veriff';
import { createImageJobHandler, forgetImageJobs, IMAGE_JOB } from './images/jobs';
import { createJobWorker, type JobHandler, type JobWorker } from './jobs';
import { defaultLog } from './log';
import { checkRelay, createEmailDelivery, EMAIL_JOB } from './mail/delivery';
import { type Mailpit, startMailpit } from './mail/mailpit';
import { warmImageCopies } from './media';
import { createMetrics } from './metrics';
import { expireOffers, OFFER_EXPIRY_SWEEP_MS, OFFER_FUNDING_SWEEP_MS, refreshFunding } from './offers/jobs';
import { offerIndexerEvents } from './offers/record';
import { createCheckoutComProvider } from './payments/checkout-com';
import { createCoinbaseProvider } from './payments/coinbase-commerce';
import type { CryptoProvider } from './payments/crypto-provider';
import type { OnrampProvider } from './payments/onramp-provider';
import type { CardProvider } from './payments/provider';
import { createWertProvider } from './payments/wert';
import { type Readiness, reachable } from './readiness';
import { applySecurityHeaders } from './security';
import { catalogIsEmpty, seedWorld } from './seed/world';
import { loadPageRenderer } from './spa';
import { refreshStats, STATS_REFRESH_MS } from './stats/refresh';
import { type OpenStorage, openStorage } from './storage/config';
import { forgetStagedUploads, type MediaStorage } from './storage/storage';
import { warmRenderer } from './warm';

const DIST = fileURLToPath(new URL('../dist', import.meta.url));

export interface StartOptions {
  openDatabase?: (config: Config) => Promise<DatabaseHandle>;
  log?: Log;
  /** The built SPA, served in production (default dist/). */
  spaDir?: string;
  startChain?: (config: Config, log: Log) => Promise<ChainHandle | null>;
  /** The API's clock (tests stop it); the system clock by default. */
  clock?: Clock;
}

export interface RunningServer {
  port: number;
  /** Settles once the database is open and migrated and the API answers. */
  ready: Promise<void>;
  /** Resolves once the resized copies of the stored images that lacked them are all made. */
  imageCopiesMade(): Promise<void>;
  /** Settles once the renderer's first page was made in the background (production; server/warm.ts). */
  rendererWarmed(): Promise<void>;
  /** Stops accepting connections, lets open requests finish, closes the database. */
  close(): Promise<void>;
}

/** The answer while the database opens: /api/health says 503 starting, everything else 503. */
function starting(request: Request, database: DatabaseKind): Response {
  const res =
    new URL(request.url).pathname === '/api/health'
      ? Response.json({ status: 'starting', database }, { status: 503 })
      : Response.json(
          { code: 'unavailable', message: 'The server is starting. Please try again in a moment.' },
          { status: 503, headers: { 'Retry-After': '1' } },
        );
  applySecurityHeaders(res.headers);
  return res;
}

/** What a starting server has brought up so far: `close()` stops each in turn. */
interface Handles {
  database?: DatabaseHandle;
  chain: ChainHandle | null;
  indexer?: Indexer;
  publisher?: Publisher;
  cardSandbox?: Sandbox;
  cardProvider?: CardProvider;
  cryptoSandbox?: CoinbaseSandbox;
  cryptoProvider?: CryptoProvider;
  onrampSandbox?: WertSandbox;
  onrampProvider?: OnrampProvider;
  identitySandbox?: VeriffSandbox;
  identityProvider?: IdentityProvider;
  worker?: JobWorker;
  anvil?: Anvil;
  mailpit?: Mailpit;
  tokenChain?: TokenChain;
  imageCopies?: Promise<void>;
  warming?: Promise<void>;
  media?: OpenStorage;
}

/** What the steps of a start share. */
interface Starting {
  config: Config;
  log: Log;
  /** This server's metrics; every provider client and the Flow client are timed (server/metrics.ts). */
  metrics: ReturnType<typeof createMetrics>;
  /** Each provider's API is a readiness check. */
  readiness: Readiness;
  /** The port this server listens on: embedded sandboxes post their webhooks back to it. */
  port: number;
  h: Handles;
}

/**
 * Listens on config.port at once, then opens and migrates the database, brings up the chain (an
 * embedded emulator with its contracts, or the configured network) and mounts the app.
 */
export async function start(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? defaultLog();
  const kind = databaseKind(config);
  const h: Handles = { chain: null };
  let app: Hono<AppEnv> | undefined;
  const stopCopies = new AbortController();
  const listening = await listen(config.port, (request, env) =>
    app ? app.fetch(request, env) : starting(request, kind),
  );
  const { port } = listening;
  log.info(`Vitrine listening on http://localhost:${port} (database: ${kind})`);
  const run: Starting = { config, log, metrics: createMetrics(), readiness: {}, port, h };

  const ready = (async () => {
    await startProviders(run);
    await startMail(run);
    // The utility token's EVM chain (NFM_PAYMENTS=on): an embedded anvil node with NFM deployed on
    // its first start, or the configured network.
    if (config.token) {
      const evm = run.metrics.timed(await startTokenChain(config, log, (node) => (h.anvil = node)), 'evm');
      h.tokenChain = evm;
      run.readiness.token = () => evm.blockNumber();
    }
    h.database = await (options.openDatabase ?? openDb)(config);
    // Uploads, their copies and the seeded artwork (server/storage): a directory or a bucket.
    h.media = await openStorage(config, log);
    await promoteAdmins(run, h.database);
    // The activity feed of records made before it existed (once, while it is empty).
    await backfillActivity(h.database.db);
    await startFlow(run, h.database, options);
    h.worker = createWorker(run, h.database, h.media.storage);
    app = await mountApp(run, h.database, h.media.storage, options, h.worker);
    // The renderer's first page is made now, before a visitor's (server/warm.ts).
    if (config.production) h.warming = warmRenderer(app, h.database.db, config.publicUrl, log);
    await h.publisher?.resume();
    h.worker.start();
    // The resized copies of stored images that lack them (the seeded artwork) are made meanwhile.
    h.imageCopies = warmImageCopies(h.media.storage, stopCopies.signal, log);
  })();

  return {
    port,
    ready,
    imageCopiesMade: () => ready.then(() => h.imageCopies),
    rendererWarmed: () => ready.then(() => h.warming),
    async close() {
      await listening.close();
      await ready.catch(() => undefined);
      await h.warming;
      await stopAll(h, stopCopies);
    },
  };
}

/** The HTTP server, listening; `close` stops accepting and lets open requests finish. */
async function listen(port: number, fetch: Parameters<typeof serve>[0]['fetch']) {
  const server = serve({ port, fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // While closing, a keep-alive connection is dropped as soon as its last response has finished.
  let closing = false;
  server.on('request', (_request, response: ServerResponse) => {
    response.once('finish', () => closing && setImmediate(() => server.closeIdleConnections()));
  });
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
    },
  };
}

/** Stops what the start brought up, the jobs first and the database last. */
async function stopAll(h: Handles, stopCopies: AbortController) {
  await h.publisher?.stop();
  await h.worker?.stop();
  stopCopies.abort();
  await h.imageCopies;
  await h.indexer?.stop();
  await h.chain?.stop();
  await h.cardSandbox?.close();
  await h.cryptoSandbox?.close();
  await h.onrampSandbox?.close();
  await h.identitySandbox?.close();
  h.tokenChain?.close();
  await h.anvil?.stop();
  await h.media?.close();
  await h.mailpit?.stop();
  await h.database?.close();
}

/**
 * The payment and identity providers. Embedded: each provider-shaped sandbox listens on its own
 * port (its own origin, as the real provider) inside this process, and posts its webhooks back to us.
 */
async function startProviders(run: Starting) {
  await startCardProvider(run);
  await startCryptoProvider(run);
  await startOnrampProvider(run);
  await startIdentityProvider(run);
}

/** The card provider: the Checkout.com-shaped sandbox, or the configured API. */
async function startCardProvider({ config, log, metrics, readiness, port, h }: Starting) {
  const card = config.checkoutCom;
  if (card.mode === 'embedded') {
    h.cardSandbox = await startCheckoutSandbox({
      port: card.sandboxPort,
      webhookUrl: `http://127.0.0.1:${port}/api/webhooks/checkout-com`,
      webhookSignatureKey: card.webhookSignatureKey,
    });
    log.info(`card sandbox (Checkout.com API shape) on ${h.cardSandbox.url}`);
  }
  if (card.mode === 'off') return;
  const apiUrl = card.apiUrl ?? h.cardSandbox!.url;
  h.cardProvider = metrics.timed(
    createCheckoutComProvider({
      secretKey: card.secretKey,
      publicKey: card.publicKey,
      apiUrl,
      webhookSignatureKey: card.webhookSignatureKey,
    }),
    'checkout_com',
  );
  readiness.card = reachable(apiUrl);
}

/** The crypto provider: the Coinbase Commerce-shaped sandbox, or the configured API. */
async function startCryptoProvider({ config, log, metrics, readiness, port, h }: Starting) {
  const coinbase = config.coinbase;
  if (coinbase.mode === 'embedded') {
    h.cryptoSandbox = await startCoinbaseSandbox({
      port: coinbase.sandboxPort,
      webhookUrl: `http://127.0.0.1:${port}/api/webhooks/coinbase-commerce`,
      webhookSecret: coinbase.webhookSecret,
    });
    log.info(`crypto sandbox (Coinbase Commerce API shape) on ${h.cryptoSandbox.url}`);
  }
  if (coinbase.mode === 'off') return;
  const apiUrl = coinbase.apiUrl ?? h.cryptoSandbox!.url;
  h.cryptoProvider = metrics.timed(
    createCoinbaseProvider({ apiKey: coinbase.apiKey, apiUrl, webhookSecret: coinbase.webhookSecret }),
    'coinbase_commerce',
  );
  readiness.crypto = reachable(apiUrl);
}

/**
 * The card-to-crypto on-ramp: the Wert-shaped sandbox (widget, Data API, webhooks), checking
 * signatures with the public key of the partner key we sign with; or the configured API.
 */
async function startOnrampProvider({ config, log, metrics, readiness, port, h }: Starting) {
  const wert = config.wert;
  if (wert.mode === 'embedded') {
    h.onrampSandbox = await startWertSandbox({
      port: wert.sandboxPort,
      partnerId: wert.partnerId,
      publicKey: publicKeyOf(wert.privateKey),
      apiKey: wert.apiKey,
      webhookUrl: `http://127.0.0.1:${port}/api/webhooks/wert`,
    });
    log.info(`on-ramp sandbox (Wert widget shape) on ${h.onrampSandbox.url}`);
  }
  if (wert.mode === 'off') return;
  const apiUrl = wert.apiUrl ?? h.onrampSandbox!.url;
  h.onrampProvider = metrics.timed(
    createWertProvider({
      partnerId: wert.partnerId,
      origin: wert.origin ?? h.onrampSandbox!.url,
      privateKey: wert.privateKey,
      apiUrl,
      apiKey: wert.apiKey,
    }),
    'wert',
  );
  readiness.onramp = reachable(apiUrl);
}

/**
 * The identity provider (KYC): the Veriff-shaped sandbox (sessions API, hosted flow, signed
 * decision webhooks), or the configured API.
 */
async function startIdentityProvider({ config, log, metrics, readiness, port, h }: Starting) {
  const veriff = config.veriff;
  if (veriff.mode === 'embedded') {
    h.identitySandbox = await startVeriffSandbox({
      port: veriff.sandboxPort,
      sharedSecret: veriff.sharedSecret,
      decisionWebhookUrl: `http://127.0.0.1:${port}/api/webhooks/veriff`,
      eventWebhookUrl: `http://127.0.0.1:${port}/api/webhooks/veriff`,
    });
    log.info(`identity sandbox (Veriff API shape) on ${h.identitySandbox.url}`);
  }
  if (veriff.mode === 'off') return;
  const apiUrl = veriff.apiUrl ?? h.identitySandbox!.url;
  h.identityProvider = metrics.timed(
    createVeriffProvider({ apiUrl, apiKey: veriff.apiKey, sharedSecret: veriff.sharedSecret }),
    'veriff',
  );
  readiness.kyc = reachable(apiUrl);
}

/** Email: the embedded Mailpit (SMTP and its inbox on their own ports), or the relay at SMTP_URL. */
async function startMail({ config, log, h }: Starting) {
  const mail = config.mail;
  if (mail.mode === 'embedded')
    h.mailpit = await startMailpit({
      smtpPort: mail.mailpitSmtpPort,
      uiPort: mail.mailpitUiPort,
      dataDir: config.dataDir,
      log: (line) => log.info(line),
    });
  if (mail.mode === 'off') log.info('email is off (no SMTP_URL): emails stay in the outbox table, unsent');
}

/** Admins come from configuration: the accounts with these emails get the admin role. */
async function promoteAdmins({ config, log }: Starting, database: DatabaseHandle) {
  if (config.adminEmails.length === 0) return;
  const promoted = await database.db
    .update(users)
    .set({ role: 'admin' })
    .where(inArray(sql`lower(${users.email})`, config.adminEmails))
    .returning({ id: users.id });
  log.info(
    `admins from VITRINE_ADMIN_EMAILS: ${promoted.length} of ${config.adminEmails.length} accounts found`,
  );
}

/**
 * The Flow chain and what follows it: the indexer, the embedded world seeded on the first start
 * (VITRINE_SEED=off leaves the catalog empty), the publisher.
 */
async function startFlow(run: Starting, database: DatabaseHandle, options: StartOptions) {
  const { config, log, metrics, h } = run;
  const chain = await (options.startChain ?? startChain)(config, log);
  h.chain = chain && { ...chain, client: metrics.timed(chain.client, 'flow') };
  // Keeps nfts and sale listings in step with the chain, from its cursor in the database.
  if (h.chain)
    h.indexer = startIndexer(h.chain.client, database.db, {
      log,
      // Balance payments for new editions are served even when the buyer's tab never reports them.
      // Offers made, canceled and accepted are recorded even when no client reports them.
      extraEvents: [fusdPaymentEvents(h.chain.client), ...offerIndexerEvents(h.chain.client, config)],
    });
  if (config.seed && (await catalogIsEmpty(database.db))) {
    const started = Date.now();
    await seedWorld({ db: database.db, media: { storage: h.media!.storage }, client: h.chain?.client, log });
    log.info(`seeded the embedded world in ${Date.now() - started} ms`);
    // Its stats now, not at the worker's next minute (its first refresh ran before the world).
    await refreshStats(database.db, new Date());
  }
  // Publishing jobs interrupted by the last stop resume here.
  if (h.chain) h.publisher = createPublisher({ db: database.db, client: h.chain.client, log });
}

/**
 * The durable jobs' handlers: fulfilling orders (capture → mint → record, or undoing the payment)
 * and sending money back need the chain; money work, image work and email run in lanes of their
 * own (JOB_SLOTS in server/jobs.ts).
 */
function jobHandlers({ config, log, metrics, readiness, h }: Starting, db: Database, storage: MediaStorage) {
  const handlers: Record<string, JobHandler> = {};
  if (h.chain) {
    const client = h.chain.client;
    handlers[SEND_FUSD_JOB] = createSendFusdHandler({ db, client, log });
    handlers[WERT_REFUND_JOB] = createWertRefundHandler({ db, client, log });
    handlers[REFUND_FUSD_JOB] = createRefundFusdHandler({ db, client, log });
    handlers[FULFIL_JOB] = createFulfilment({
      db,
      provider: h.cardProvider ?? null,
      mint: createMintService({ db, client }),
      log,
      onStep: crashHook(config.crashAt),
      site: config,
      onMinted: metrics.observeMint,
    });
  }
  if (h.tokenChain) handlers[REFUND_TOKEN_JOB] = createRefundTokenHandler({ db, chain: h.tokenChain, log });
  const mail = config.mail;
  if (mail.mode !== 'off') {
    const smtpUrl = mail.smtpUrl ?? h.mailpit!.smtpUrl;
    handlers[EMAIL_JOB] = createEmailDelivery({
      db,
      mail: { from: mail.from, smtpUrl },
      log,
      onResult: metrics.countEmailDelivery,
    });
    readiness.smtp = () => checkRelay(smtpUrl);
  }
  handlers[IMAGE_JOB] = createImageJobHandler({ db, storage, log });
  handlers[FAVORITE_NOTICE_JOB] = createFavoriteNotices({ db, site: config });
  return handlers;
}

/** Offers expire (always) and have their funding checked on chain (when there is a chain). */
function offerSweeps({ config, h }: Starting, db: Database) {
  const client = h.chain?.client;
  return [
    {
      name: 'expire offers',
      everyMs: OFFER_EXPIRY_SWEEP_MS,
      run: () => expireOffers(db, new Date(), config),
    },
    ...(client
      ? [
          {
            name: 'check offers’ funding',
            everyMs: OFFER_FUNDING_SWEEP_MS,
            run: () => refreshFunding(db, client, new Date()),
          },
        ]
      : []),
  ];
}

/** The job worker with its handlers and its sweeps (the one that expires unpaid orders runs in any case). */
function createWorker(run: Starting, database: DatabaseHandle, storage: MediaStorage): JobWorker {
  const db = database.db;
  const tokenChain = run.h.tokenChain;
  return createJobWorker({
    db,
    handlers: jobHandlers(run, db, storage),
    log: run.log,
    onFinished: run.metrics.jobFinished,
    tasks: [
      // NFM sent but never reported pays its order before the order would expire.
      ...(tokenChain
        ? [
            {
              name: 'take unreported NFM transfers',
              everyMs: 30_000,
              run: () => reconcileDueTokenCharges(db, tokenChain, new Date()),
            },
          ]
        : []),
      { name: 'expire unpaid orders', everyMs: 30_000, run: () => expireOrders(db, new Date()) },
      { name: 'end unpaid top-ups', everyMs: 30_000, run: () => expireTopups(db, new Date()) },
      { name: 'tell savers of opened sales', everyMs: 30_000, run: () => queueOpenedSales(db, new Date()) },
      // Storefront stats, the Trending sort and Home read these summaries (server/stats/refresh.ts).
      { name: 'refresh stats', everyMs: STATS_REFRESH_MS, run: () => refreshStats(db, new Date()) },
      { name: 'forget old image jobs', everyMs: 60_000, run: () => forgetImageJobs(db, new Date()) },
      ...offerSweeps(run, db),
      {
        name: 'forget unchecked uploads',
        everyMs: 10 * 60_000,
        run: () => forgetStagedUploads(storage, new Date()),
      },
    ],
  });
}

/** The app over everything started (the built SPA served in production). */
async function mountApp(
  { config, log, metrics, readiness, h }: Starting,
  database: DatabaseHandle,
  storage: MediaStorage,
  options: StartOptions,
  worker: JobWorker,
) {
  const spaDir = config.production ? (options.spaDir ?? DIST) : undefined;
  return createApp({
    config,
    database,
    clock: options.clock,
    log,
    spaDir,
    renderPage: spaDir ? await loadPageRenderer(spaDir) : undefined,
    chain: h.chain?.status,
    chainClient: h.chain?.client,
    publisher: h.publisher,
    cardProvider: h.cardProvider,
    cryptoProvider: h.cryptoProvider,
    onrampProvider: h.onrampProvider,
    identityProvider: h.identityProvider,
    tokenChain: h.tokenChain,
    jobs: worker,
    metrics,
    readiness,
    storage,
  });
}

/** The NFM token's chain: embedded (anvil in the data directory, NFM deployed once) or external. */
async function startTokenChain(
  config: Config,
  log: Log,
  started: (node: Anvil) => void,
): Promise<TokenChain> {
  const token = config.token!;
  if (token.mode === 'external')
    return createTokenChain({
      rpcUrl: token.rpcUrl!,
      chainId: token.chainId,
      tokenAddress: token.tokenAddress!,
      paymentsAddress: token.paymentsAddress!,
      paymentsKey: token.paymentsKey,
      chainName: token.chainName,
      publicRpcUrl: token.publicRpcUrl,
    });
  const dir = join(config.dataDir, 'evm');
  mkdirSync(dir, { recursive: true });
  const node = await startAnvil({ port: token.nodePort, stateFile: join(dir, 'anvil-state.json'), log });
  started(node);
  const provider = new JsonRpcProvider(node.url, ANVIL_CHAIN_ID, { staticNetwork: true });
  try {
    const deployment = await ensureNfm(provider, dir);
    log.info(`NFM token at ${deployment.tokenAddress}; payments to ${deployment.paymentsAddress}`);
    return createTokenChain({
      rpcUrl: node.url,
      chainId: ANVIL_CHAIN_ID,
      ...deployment,
      paymentsKey: ANVIL_PAYMENTS_KEY,
      chainName: token.chainName,
      // A browser wallet reaches the local node where the server does, unless told otherwise.
      publicRpcUrl: token.publicRpcUrl ?? node.url,
    });
  } finally {
    provider.destroy();
  }
}
