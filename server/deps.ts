import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { clientAddressResolver, trustedProxyList } from './auth/client-address';
import { createDevices, type Devices } from './auth/devices';
import { createSessions, type Sessions } from './auth/sessions';
import { createTokens, type Tokens } from './auth/tokens';
import { createWalletProofs, type WalletProofs } from './auth/wallet-proof';
import type { Publisher } from './blueprints/publisher';
import { type AnswerCache, createAnswerCache } from './catalog/cache';
import type { FlowClient } from './chain/client';
import type { Clock, Log } from './clock';
import { type Config, secureCookies } from './config';
import { type CrashPoint, crashHook } from './crash';
import type { Database, DatabaseHandle, DatabaseKind } from './db';
import type { TokenChain } from './evm/token';
import type { IdentityProvider } from './identity/veriff';
import type { JobQueue } from './jobs';
import { defaultLog } from './log';
import { createMetrics, type Metrics } from './metrics';
import type { CryptoProvider } from './payments/crypto-provider';
import type { OnrampProvider } from './payments/onramp-provider';
import type { CardProvider } from './payments/provider';
import { type Readiness, reachable } from './readiness';
import type { PageRenderer } from './spa';
import { createStorage } from './storage/config';
import type { MediaStorage } from './storage/storage';

/** What createApp needs; tests replace the clock and the client address. */
export interface AppDeps {
  config: Config;
  database: Pick<DatabaseHandle, 'db' | 'kind' | 'pool'>;
  clock?: Clock;
  /** The address login attempts are counted against. */
  clientAddress?: (c: Context) => string;
  /** Directory of the built SPA to serve (production). */
  spaDir?: string;
  /** Renders the SPA's public pages on the server (see server/spa.ts). */
  renderPage?: PageRenderer;
  log?: Log;
  /** The chain the server talks to, as /api/health reports it. */
  chain?: ChainStatus;
  /** A client of that chain (absent with FLOW_EMULATOR=off). */
  chainClient?: FlowClient;
  /** The publishing job (absent without a chain: published blueprints then wait, ready to sell). */
  publisher?: Publisher;
  /** The card provider (Checkout.com or its embedded sandbox); absent when cards are off. */
  cardProvider?: CardProvider;
  cryptoProvider?: CryptoProvider;
  /** The identity provider (Veriff or its embedded sandbox); absent when KYC is off. */
  identityProvider?: IdentityProvider;
  /** The card-to-crypto on-ramp (Wert or its embedded sandbox); absent when it is off. */
  onrampProvider?: OnrampProvider;
  /** The job worker, nudged after a change queues a job (absent: queued jobs wait for a worker). */
  jobs?: JobQueue;
  /** The EVM chain of the NFM token (only while NFM_PAYMENTS is on). */
  tokenChain?: TokenChain;
  /** This server's metrics (one registry per server); a new one by default. */
  metrics?: Metrics;
  /** Readiness checks of the providers (server/start.ts), beside the database's and the chain's. */
  readiness?: Readiness;
  /** The media store (default: the one config.storage names). */
  storage?: MediaStorage;
}

export interface ChainStatus {
  network: string;
  accessNode: string;
  /** The FCL dev wallet next to an embedded emulator. */
  devWallet?: string;
  /** Where FCL in the browser discovers wallets (the dev wallet's authn endpoint on the emulator). */
  walletDiscovery: string;
}

/** What the route modules use. */
export interface Services {
  config: Config;
  db: Database;
  dbKind: DatabaseKind;
  clock: Clock;
  clientAddress: (c: Context) => string;
  tokens: Tokens;
  devices: Devices;
  sessions: Sessions;
  log: Log;
  chain: ChainStatus | null;
  chainClient: FlowClient | null;
  walletProofs: WalletProofs;
  /** Recent public catalog answers (config.catalogCacheMs). */
  catalogCache: AnswerCache;
  publisher: Publisher | null;
  cardProvider: CardProvider | null;
  cryptoProvider: CryptoProvider | null;
  identityProvider: IdentityProvider | null;
  onrampProvider: OnrampProvider | null;
  jobs: JobQueue | null;
  tokenChain: TokenChain | null;
  /** Where uploads, their copies and the seeded artwork are stored (server/storage). */
  storage: MediaStorage;
  /** Crash tests: kills the process at the configured point (server/crash.ts). */
  crashPoint?: (point: CrashPoint) => void;
  metrics: Metrics;
  /**
   * What GET /api/health/ready checks, by name (server/readiness.ts): `database`, `chain` and the
   * providers, the media store; other modules add theirs (e.g. `smtp`).
   */
  readiness: Readiness;
}

export function createServices(deps: AppDeps): Services {
  const clock = deps.clock ?? (() => new Date());
  const log = deps.log ?? defaultLog();
  const { db, kind } = deps.database;
  const metrics = deps.metrics ?? createMetrics();
  metrics.watch({ db, now: clock, pool: deps.database.pool, log });
  const storage = deps.storage ?? createStorage(deps.config);
  const readiness: Readiness = {
    database: () => db.execute(sql`select 1`),
    storage: () => storage.check(),
    ...(deps.chain && deps.chainClient
      ? {
          chain: reachable(`${deps.chain.accessNode.replace(/\/+$/, '')}/v1/blocks?height=sealed`, {
            ok: true,
          }),
        }
      : {}),
    ...deps.readiness,
  };
  const catalogCache = createAnswerCache(deps.config.catalogCacheMs);
  deps.publisher?.onChange(() => catalogCache.clear());
  const tokens = createTokens(deps.config.jwtSecret, deps.config.tokenTtlSeconds, clock);
  const devices = createDevices(deps.config.jwtSecret, clock, secureCookies(deps.config));
  return {
    config: deps.config,
    crashPoint: crashHook(deps.config.crashAt),
    db,
    dbKind: kind,
    clock,
    clientAddress: deps.clientAddress ?? clientAddressResolver(trustedProxyList(deps.config.trustedProxies)),
    tokens,
    devices,
    sessions: createSessions({
      db,
      clock,
      tokens,
      devices,
      ttlSeconds: deps.config.sessionTtlSeconds,
      secureCookie: secureCookies(deps.config),
    }),
    log,
    chain: deps.chain ?? null,
    chainClient: deps.chainClient ?? null,
    walletProofs: createWalletProofs(deps.config.jwtSecret, clock),
    catalogCache,
    publisher: deps.publisher ?? null,
    cardProvider: deps.cardProvider ?? null,
    cryptoProvider: deps.cryptoProvider ?? null,
    identityProvider: deps.identityProvider ?? null,
    onrampProvider: deps.onrampProvider ?? null,
    jobs: deps.jobs ?? null,
    tokenChain: deps.tokenChain ?? null,
    metrics,
    readiness,
    storage,
  };
}
