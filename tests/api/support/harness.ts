import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import {
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
} from '../../../sandbox/checkout-com/index';
import {
  SANDBOX_API_KEY as COINBASE_SANDBOX_API_KEY,
  SANDBOX_WEBHOOK_SECRET as COINBASE_SANDBOX_WEBHOOK_SECRET,
} from '../../../sandbox/coinbase-commerce/index';
import {
  SANDBOX_API_KEY as VERIFF_SANDBOX_API_KEY,
  SANDBOX_SHARED_SECRET as VERIFF_SANDBOX_SHARED_SECRET,
} from '../../../sandbox/veriff/index';
import {
  SANDBOX_API_KEY as WERT_SANDBOX_API_KEY,
  SANDBOX_PARTNER_ID as WERT_SANDBOX_PARTNER_ID,
  SANDBOX_PRIVATE_KEY as WERT_SANDBOX_PRIVATE_KEY,
} from '../../../sandbox/wert/index';
import { databaseUrl, onServer } from '../../../scripts/postgres';
import { createApp, routesOf } from '../../../server/app';
import { createWalletProofs } from '../../../server/auth/wallet-proof';
import type { Publisher } from '../../../server/blueprints/publisher';
import type { Log } from '../../../server/clock';
import type { Config } from '../../../server/config';
import { type Database, type DatabaseHandle, openDb } from '../../../server/db';
import { kycVerifications, users } from '../../../server/db/schema';
import type { AppDeps } from '../../../server/deps';
import type { TokenChain } from '../../../server/evm/token';
import type { AppEnv } from '../../../server/http';
import { createImageJobHandler, IMAGE_JOB } from '../../../server/images/jobs';
import { createJobWorker, type JobHandler, type JobWorker } from '../../../server/jobs';
import { createEmailDelivery, EMAIL_JOB } from '../../../server/mail/delivery';
import { createMetrics } from '../../../server/metrics';
import { createStorage } from '../../../server/storage/config';
import type { MediaStorage } from '../../../server/storage/storage';
import { checkAnswer } from './conformance';

/** Both databases the server runs on: PGlite (embedded, the default) and PostgreSQL. */
export const bothDatabases = ['pglite', 'postgres'] as const;
export type DatabaseName = (typeof bothDatabases)[number];

/**
 * The databases a behaviour suite runs on: `describe.each(databases)('%s', (database) => …)`.
 * PostgreSQL, where concurrent transactions really interleave (PGlite is one connection, so a race
 * the code must survive never happens there). PGlite runs the same SQL engine: the suites where the
 * two differ (the driver's parameters and types, one connection against a pool, the job queue,
 * backups, migrations, health and metrics) run on both with `bothDatabases`, and every journey
 * runs on PGlite, as `npm start` does. TEST_DATABASES=both runs every suite on both.
 */
export const databases: readonly DatabaseName[] =
  process.env.TEST_DATABASES === 'both' ? bothDatabases : ['postgres'];

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field in assertions
export type Json = any;

export interface TestResponse {
  status: number;
  body: Json;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is instead of JSON-encoding `body`. */
  raw?: string;
  token?: string;
  headers?: Record<string, string>;
}

/**
 * A clock that starts at the real time and runs with it, plus whatever it is told to advance;
 * frozen, it moves only when told (a simulation counts exact milliseconds).
 */
export class TestClock {
  private offset = 0;
  private frozenAt: number | undefined;
  now = (): Date => new Date((this.frozenAt ?? Date.now()) + this.offset);
  advance(ms: number): void {
    this.offset += ms;
  }
  /** Stops the real time from moving the clock (until reset). */
  freeze(): void {
    this.frozenAt ??= Date.now();
  }
  reset(): void {
    this.offset = 0;
    this.frozenAt = undefined;
  }
}

export interface TestApi {
  app: Hono<AppEnv>;
  database: DatabaseHandle;
  config: Config;
  /** The media store of config.storage (the data directory's by default). */
  storage: MediaStorage;
  clock: TestClock;
  /** The client address the login rate limit sees; tests may change it. */
  address: string;
  logged: unknown[][];
  publisher?: Publisher;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
}

export const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256';

export function testConfig(databaseUrl: string, dataDir: string, overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    dataDir,
    databaseUrl,
    jwtSecret: JWT_SECRET,
    tokenTtlSeconds: 15 * 60,
    sessionTtlSeconds: 7 * 24 * 3600,
    trustedProxies: [],
    publicUrl: 'http://vitrine.test',
    nodeEnv: 'test',
    production: false,
    devTools: !overrides.production,
    flowEmulator: 'off',
    devWalletPort: 8701,
    seed: false,
    catalogCacheMs: 0,
    platformFeePercent: 5,
    checkoutCom: {
      mode: 'off',
      apiUrl: undefined,
      publicKey: SANDBOX_PUBLIC_KEY,
      secretKey: SANDBOX_SECRET_KEY,
      webhookSignatureKey: SANDBOX_WEBHOOK_KEY,
      sandboxPort: 0,
    },
    veriff: {
      mode: 'off',
      apiUrl: undefined,
      apiKey: VERIFF_SANDBOX_API_KEY,
      sharedSecret: VERIFF_SANDBOX_SHARED_SECRET,
      sandboxPort: 0,
    },
    // No email leaves an API test unless it asks for the test Mailpit (testMail in ./mailpit.ts).
    mail: {
      mode: 'off',
      smtpUrl: undefined,
      from: 'Vitrine <no-reply@vitrine.test>',
      mailpitSmtpPort: 1025,
      mailpitUiPort: 8025,
    },
    adminEmails: [],
    storage: { kind: 'local' },
    // The suites register hundreds of accounts from few addresses; the sign-up delay has its own test.
    signupFreePerHour: 100_000,
    coinbase: {
      mode: 'off',
      apiUrl: undefined,
      apiKey: COINBASE_SANDBOX_API_KEY,
      webhookSecret: COINBASE_SANDBOX_WEBHOOK_SECRET,
      sandboxPort: 0,
    },
    token: null,
    wert: {
      mode: 'off',
      partnerId: WERT_SANDBOX_PARTNER_ID,
      origin: undefined,
      privateKey: WERT_SANDBOX_PRIVATE_KEY,
      apiUrl: undefined,
      apiKey: WERT_SANDBOX_API_KEY,
      sandboxPort: 0,
      commodity: 'FUSD',
      network: 'flow-emulator',
      scAddress: '0xf8d6e0586b0a20c7',
    },
    ...overrides,
  };
}

/**
 * A fresh PostgreSQL database on the server of the global setup; drop() removes it. It is a copy of
 * the setup's migrated template, or with `empty` a database without a table (to test migrating).
 */
export async function createPostgresDatabase(
  options: { empty?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const server = inject('postgresUrl');
  const name = `vitrine_test_${randomBytes(6).toString('hex')}`;
  await onServer(
    server,
    `create database ${name}${options.empty ? '' : ` template ${inject('postgresTemplate')}`}`,
  );
  return {
    url: databaseUrl(server, name),
    drop: () => onServer(server, `drop database ${name} with (force)`),
  };
}

/**
 * A database of the given kind for openDb: in-memory PGlite (openDb migrates it), or a new
 * PostgreSQL database copied from the migrated template; with `empty`, one without a table.
 */
export async function openTestDatabase(
  kind: DatabaseName,
  options: { empty?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  if (kind === 'postgres') return createPostgresDatabase(options);
  return { url: 'memory://', drop: async () => undefined };
}

export const silentLog = (logged: unknown[][]): Log => ({
  info: (...args: unknown[]) => logged.push(args),
  error: (...args: unknown[]) => logged.push(args),
});

/**
 * Opens a fresh database of the given kind for the enclosing describe block and builds the app
 * on it with a test clock and a settable client address.
 */
export function useTestApp(
  kind: DatabaseName,
  /** Settings of the app; a function is called when the app is built (after earlier beforeAll hooks). */
  overrides: Partial<Config> | (() => Promise<Partial<Config>>) = {},
  deps: Partial<
    Pick<
      AppDeps,
      | 'spaDir'
      | 'renderPage'
      | 'chainClient'
      | 'cardProvider'
      | 'cryptoProvider'
      | 'onrampProvider'
      | 'identityProvider'
      | 'readiness'
    >
  > & {
    /** The app's and its job worker's log (default: silentLog into t.logged). */
    log?: Log;
    /** Builds the publishing job on the test database (chain tests). */
    publisher?: (db: Database) => Publisher;
    /** The NFM token's chain, once an earlier beforeAll started it (token tests). */
    tokenChain?: () => TokenChain;
    /** More kinds for the app's job worker, beside image jobs (one worker for all, as on a server). */
    jobHandlers?: (db: Database) => Record<string, JobHandler>;
  } = {},
): TestApi {
  const t = { address: randomAddress(), clock: new TestClock(), logged: [] } as unknown as TestApi;
  let dataDir: string;
  let drop: () => Promise<void>;
  let worker: JobWorker | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vitrine-api-'));
    const created = await openTestDatabase(kind);
    drop = created.drop;
    t.config = testConfig(
      created.url,
      dataDir,
      typeof overrides === 'function' ? await overrides() : overrides,
    );
    t.database = await openDb(t.config);
    const { publisher: makePublisher, tokenChain, jobHandlers, log: givenLog, ...appDeps } = deps;
    const log = givenLog ?? silentLog(t.logged);
    // One registry for the app and its worker, as on a server.
    const metrics = createMetrics();
    t.storage = createStorage(t.config);
    t.publisher = makePublisher?.(t.database.db);
    // Image jobs run on a job worker, as on a server, and email deliveries once the suite gives a
    // relay (tests/api/support/mailpit.ts); other kinds too when a test gives their handlers.
    worker = createJobWorker({
      db: t.database.db,
      handlers: {
        [IMAGE_JOB]: createImageJobHandler({
          db: t.database.db,
          storage: t.storage,
          log: silentLog(t.logged),
          now: t.clock.now,
        }),
        ...(t.config.mail.mode === 'smtp' && {
          [EMAIL_JOB]: createEmailDelivery({
            db: t.database.db,
            mail: t.config.mail,
            now: t.clock.now,
            log: silentLog(t.logged),
          }),
        }),
        ...jobHandlers?.(t.database.db),
      },
      now: t.clock.now,
      pollMs: 50,
      log,
      onFinished: metrics.jobFinished,
    });
    worker.start();
    t.app = createApp({
      jobs: worker,
      config: t.config,
      database: t.database,
      clock: t.clock.now,
      // A test may name the client address of one request (concurrent requests from many addresses).
      clientAddress: (c) => c.req.header('x-test-address') ?? t.address,
      log,
      metrics,
      publisher: t.publisher,
      tokenChain: tokenChain?.(),
      storage: t.storage,
      ...appDeps,
    });
    t.request = async (method, path, options = {}) => {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body = options.raw;
      if (body === undefined && options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      }
      const response = await t.app.request(path, { method, headers, body });
      const text = await response.text();
      let json: Json = text;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        // not JSON (e.g. a static file): keep the text
      }
      checkAnswer(
        routesOf.get(t.app) ?? [],
        { method, url: path },
        { status: response.status, contentType: response.headers.get('content-type'), body: json },
      );
      return { status: response.status, body: json, headers: response.headers };
    };
  });

  // Each test starts at the real time and logs in from its own address, so failed attempts of
  // one test never limit another.
  beforeEach(() => {
    t.clock.reset();
    t.address = randomAddress();
  });

  afterAll(async () => {
    await t.publisher?.stop();
    await worker?.stop();
    await t.database?.close();
    t.storage?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  return t;
}

export const randomAddress = () => `198.51.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

const letters = (n: number) => Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join('');

/** Valid registration input with unique email and username. */
export function newAccount<O extends Record<string, unknown>>(overrides: O = {} as O) {
  const name = letters(10);
  return {
    email: `${name}@example.com`,
    username: `user_${name}`,
    password: 'correct horse battery',
    firstName: 'Ada',
    lastName: 'Lovelace',
    ...overrides,
  };
}

/** Registers a new account and answers its token, user and password. */
export async function register(t: TestApi, overrides: Record<string, unknown> = {}) {
  const account = newAccount(overrides);
  const res = await t.request('POST', '/api/users/registrations', { body: account });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    ...account,
    authToken: res.body.authToken as string,
    user: res.body.user as Json,
    id: res.body.user.id as string,
  };
}

/** A registered account with the admin role. */
export async function registerAdmin(t: TestApi) {
  const me = await register(t);
  await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, me.id));
  return me;
}

/** A unique Flow address (0x and 16 hex digits). */
export const flowAddress = () => `0x${randomBytes(8).toString('hex')}`;

/** Marks the user's identity verification approved (selling requires KYC; buying does not). */
export async function approveKyc(t: TestApi, userId: string) {
  await t.database.db
    .insert(kycVerifications)
    .values({ userId, status: 'approved', updatedAt: t.clock.now() });
}

/**
 * A wallet address with the wallet proof verify-account-proof would answer for it (the account
 * proof itself is checked on chain in tests/chain/wallets.test.ts).
 */
export async function provenWallet(t: TestApi, walletAddress = flowAddress()) {
  return {
    walletAddress,
    walletProof: await createWalletProofs(JWT_SECRET, t.clock.now).issue(walletAddress),
  };
}
