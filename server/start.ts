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
import { type DatabaseHandle, type DatabaseKind, databaseKind, openDb } from './db';
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
import { type OpenStorage, openStorage } from './storage/config';
import { forgetStagedUploads } from './storage/storage';

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

/**
 * Listens on config.port at once, then opens and migrates the database, brings up the chain (an
 * embedded emulator with its contracts, or the configured network) and mounts the app.
 */
export async function start(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? defaultLog();
  const kind = databaseKind(config);
  // This server's metrics; every provider client and the Flow client are timed (server/metrics.ts),
  // and each provider's API is a readiness check.
  const metrics = createMetrics();
  const readiness: Readiness = {};
  let app: Hono<AppEnv> | undefined;
  let database: DatabaseHandle | undefined;
  let chain: ChainHandle | null = null;
  let indexer: Indexer | undefined;
  let publisher: Publisher | undefined;
  let cardSandbox: Sandbox | undefined;
  let cardProvider: CardProvider | undefined;
  let cryptoSandbox: CoinbaseSandbox | undefined;
  let cryptoProvider: CryptoProvider | undefined;
  let onrampSandbox: WertSandbox | undefined;
  let onrampProvider: OnrampProvider | undefined;
  let identitySandbox: VeriffSandbox | undefined;
  let identityProvider: IdentityProvider | undefined;
  let worker: JobWorker | undefined;
  let anvil: Anvil | undefined;
  let mailpit: Mailpit | undefined;
  let tokenChain: TokenChain | undefined;
  let imageCopies: Promise<void> | undefined;
  let media: OpenStorage | undefined;
  const stopCopies = new AbortController();

  const server = serve({
    port: config.port,
    fetch: (request, env) => (app ? app.fetch(request, env) : starting(request, kind)),
  }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  // While closing, a keep-alive connection is dropped as soon as its last response has finished.
  let closing = false;
  server.on('request', (_request, response: ServerResponse) => {
    response.once('finish', () => closing && setImmediate(() => server.closeIdleConnections()));
  });
  log.info(`Vitrine listening on http://localhost:${port} (database: ${kind})`);

  const ready = (async () => {
    // The card provider. Embedded: the Checkout.com-shaped sandbox listens on its own port (its own
    // origin, as the real provider) inside this process, and posts its webhooks back to us.
    const card = config.checkoutCom;
    if (card.mode === 'embedded') {
      cardSandbox = await startCheckoutSandbox({
        port: card.sandboxPort,
        webhookUrl: `http://127.0.0.1:${port}/api/webhooks/checkout-com`,
        webhookSignatureKey: card.webhookSignatureKey,
      });
      log.info(`card sandbox (Checkout.com API shape) on ${cardSandbox.url}`);
    }
    if (card.mode !== 'off') {
      const apiUrl = card.apiUrl ?? cardSandbox!.url;
      cardProvider = metrics.timed(
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
    // The crypto provider, the same way: the Coinbase Commerce-shaped sandbox on its own port.
    const coinbase = config.coinbase;
    if (coinbase.mode === 'embedded') {
      cryptoSandbox = await startCoinbaseSandbox({
        port: coinbase.sandboxPort,
        webhookUrl: `http://127.0.0.1:${port}/api/webhooks/coinbase-commerce`,
        webhookSecret: coinbase.webhookSecret,
      });
      log.info(`crypto sandbox (Coinbase Commerce API shape) on ${cryptoSandbox.url}`);
    }
    if (coinbase.mode !== 'off') {
      const apiUrl = coinbase.apiUrl ?? cryptoSandbox!.url;
      cryptoProvider = metrics.timed(
        createCoinbaseProvider({ apiKey: coinbase.apiKey, apiUrl, webhookSecret: coinbase.webhookSecret }),
        'coinbase_commerce',
      );
      readiness.crypto = reachable(apiUrl);
    }
    // The card-to-crypto on-ramp, the same way: the Wert-shaped sandbox (widget, Data API, webhooks)
    // on its own port, checking signatures with the public key of the partner key we sign with.
    const wert = config.wert;
    if (wert.mode === 'embedded') {
      onrampSandbox = await startWertSandbox({
        port: wert.sandboxPort,
        partnerId: wert.partnerId,
        publicKey: publicKeyOf(wert.privateKey),
        apiKey: wert.apiKey,
        webhookUrl: `http://127.0.0.1:${port}/api/webhooks/wert`,
      });
      log.info(`on-ramp sandbox (Wert widget shape) on ${onrampSandbox.url}`);
    }
    if (wert.mode !== 'off') {
      const apiUrl = wert.apiUrl ?? onrampSandbox!.url;
      onrampProvider = metrics.timed(
        createWertProvider({
          partnerId: wert.partnerId,
          origin: wert.origin ?? onrampSandbox!.url,
          privateKey: wert.privateKey,
          apiUrl,
          apiKey: wert.apiKey,
        }),
        'wert',
      );
      readiness.onramp = reachable(apiUrl);
    }
    // The identity provider (KYC), the same way: the Veriff-shaped sandbox (sessions API, hosted
    // flow, signed decision webhooks) on its own port.
    const veriff = config.veriff;
    if (veriff.mode === 'embedded') {
      identitySandbox = await startVeriffSandbox({
        port: veriff.sandboxPort,
        sharedSecret: veriff.sharedSecret,
        decisionWebhookUrl: `http://127.0.0.1:${port}/api/webhooks/veriff`,
        eventWebhookUrl: `http://127.0.0.1:${port}/api/webhooks/veriff`,
      });
      log.info(`identity sandbox (Veriff API shape) on ${identitySandbox.url}`);
    }
    if (veriff.mode !== 'off') {
      const apiUrl = veriff.apiUrl ?? identitySandbox!.url;
      identityProvider = metrics.timed(
        createVeriffProvider({ apiUrl, apiKey: veriff.apiKey, sharedSecret: veriff.sharedSecret }),
        'veriff',
      );
      readiness.kyc = reachable(apiUrl);
    }
    // Email: the embedded Mailpit (SMTP and its inbox on their own ports), or the relay at SMTP_URL.
    const mail = config.mail;
    if (mail.mode === 'embedded')
      mailpit = await startMailpit({
        smtpPort: mail.mailpitSmtpPort,
        uiPort: mail.mailpitUiPort,
        dataDir: config.dataDir,
        log: (line) => log.info(line),
      });
    if (mail.mode === 'off') log.info('email is off (no SMTP_URL): emails stay in the outbox table, unsent');
    // The utility token's EVM chain (NFM_PAYMENTS=on): an embedded anvil node with NFM deployed on
    // its first start, or the configured network.
    if (config.token) {
      const evm = metrics.timed(await startTokenChain(config, log, (node) => (anvil = node)), 'evm');
      tokenChain = evm;
      readiness.token = () => evm.blockNumber();
    }
    database = await (options.openDatabase ?? openDb)(config);
    // Uploads, their copies and the seeded artwork (server/storage): a directory or a bucket.
    media = await openStorage(config, log);
    const { storage } = media;
    // Admins come from configuration: the accounts with these emails get the admin role.
    if (config.adminEmails.length > 0) {
      const promoted = await database.db
        .update(users)
        .set({ role: 'admin' })
        .where(inArray(sql`lower(${users.email})`, config.adminEmails))
        .returning({ id: users.id });
      log.info(
        `admins from VITRINE_ADMIN_EMAILS: ${promoted.length} of ${config.adminEmails.length} accounts found`,
      );
    }
    chain = await (options.startChain ?? startChain)(config, log);
    if (chain) chain = { ...chain, client: metrics.timed(chain.client, 'flow') };
    // Keeps nfts and sale listings in step with the chain, from its cursor in the database.
    if (chain)
      indexer = startIndexer(chain.client, database.db, {
        log,
        // Balance payments for new editions are served even when the buyer's tab never reports them.
        extraEvents: [fusdPaymentEvents(chain.client)],
      });
    // The embedded world: seeded on the first start (VITRINE_SEED=off leaves the catalog empty).
    if (config.seed && (await catalogIsEmpty(database.db))) {
      const started = Date.now();
      await seedWorld({ db: database.db, media: { storage }, client: chain?.client, log });
      log.info(`seeded the embedded world in ${Date.now() - started} ms`);
    }
    // Publishing jobs interrupted by the last stop resume here.
    if (chain) publisher = createPublisher({ db: database.db, client: chain.client, log });
    // Durable jobs: fulfilling orders (capture → mint → record, or undoing the payment) needs the
    // chain; the sweep that expires unpaid orders (and gives their units back) runs in any case.
    // Money work, image work and email run in lanes of their own (JOB_SLOTS in server/jobs.ts).
    const db = database.db;
    const handlers: Record<string, JobHandler> = {};
    if (chain) {
      const mint = createMintService({ db, client: chain.client });
      handlers[SEND_FUSD_JOB] = createSendFusdHandler({ db, client: chain.client, log });
      handlers[WERT_REFUND_JOB] = createWertRefundHandler({ db, client: chain.client, log });
      handlers[REFUND_FUSD_JOB] = createRefundFusdHandler({ db, client: chain.client, log });
      handlers[FULFIL_JOB] = createFulfilment({
        db,
        provider: cardProvider ?? null,
        mint,
        log,
        onStep: crashHook(config.crashAt),
        site: config,
        onMinted: metrics.observeMint,
      });
    }
    if (tokenChain) handlers[REFUND_TOKEN_JOB] = createRefundTokenHandler({ db, chain: tokenChain, log });
    if (mail.mode !== 'off') {
      const smtpUrl = mail.smtpUrl ?? mailpit!.smtpUrl;
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
    worker = createJobWorker({
      db,
      handlers,
      log,
      onFinished: metrics.jobFinished,
      tasks: [
        // NFM sent but never reported pays its order before the order would expire.
        ...(tokenChain
          ? [
              {
                name: 'take unreported NFM transfers',
                everyMs: 30_000,
                run: () => reconcileDueTokenCharges(db, tokenChain!, new Date()),
              },
            ]
          : []),
        { name: 'expire unpaid orders', everyMs: 30_000, run: () => expireOrders(db, new Date()) },
        { name: 'end unpaid top-ups', everyMs: 30_000, run: () => expireTopups(db, new Date()) },
        { name: 'tell savers of opened sales', everyMs: 30_000, run: () => queueOpenedSales(db, new Date()) },
        { name: 'forget old image jobs', everyMs: 60_000, run: () => forgetImageJobs(db, new Date()) },
        {
          name: 'forget unchecked uploads',
          everyMs: 10 * 60_000,
          run: () => forgetStagedUploads(storage, new Date()),
        },
      ],
    });
    const spaDir = config.production ? (options.spaDir ?? DIST) : undefined;
    app = createApp({
      config,
      database,
      clock: options.clock,
      log,
      spaDir,
      renderPage: spaDir ? await loadPageRenderer(spaDir) : undefined,
      chain: chain?.status,
      chainClient: chain?.client,
      publisher,
      cardProvider,
      cryptoProvider,
      onrampProvider,
      identityProvider,
      tokenChain,
      jobs: worker,
      metrics,
      readiness,
      storage,
    });
    await publisher?.resume();
    worker.start();
    // The resized copies of stored images that lack them (the seeded artwork) are made meanwhile.
    imageCopies = warmImageCopies(storage, stopCopies.signal, log);
  })();

  return {
    port,
    ready,
    imageCopiesMade: () => ready.then(() => imageCopies),
    async close() {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      await ready.catch(() => undefined);
      await publisher?.stop();
      await worker?.stop();
      stopCopies.abort();
      await imageCopies;
      await indexer?.stop();
      await chain?.stop();
      await cardSandbox?.close();
      await cryptoSandbox?.close();
      await onrampSandbox?.close();
      await identitySandbox?.close();
      tokenChain?.close();
      await anvil?.stop();
      await media?.close();
      await mailpit?.stop();
      await database?.close();
    },
  };
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
