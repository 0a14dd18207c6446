import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type ApplePayConfig, type CheckoutComConfig, cardConfig, type GooglePayConfig } from './card-config';
import { loadChainConfig } from './chain/config';
import { type CrashPoint, parseCrashPoint } from './crash';
import { embeddedWorld, publishedSecrets } from './embedded';
import { integer } from './env';
import { type MailConfig, mailConfig } from './mail/config';
import {
  type CoinbaseConfig,
  coinbaseConfig,
  type TokenConfig,
  tokenConfig,
  type VeriffConfig,
  veriffConfig,
  type WertConfig,
  wertConfig,
} from './provider-config';
import { type MediaConfig, mediaConfig } from './storage/config';
import { SIGNUP_FREE_PER_HOUR } from './users/signup-limit';

/**
 * Server configuration, read once from the environment (see docs/operations.md). VITRINE_EMBEDDED
 * (server/embedded.ts) decides the defaults: `on` (unset) runs the embedded world, `off` a deployment,
 * which needs JWT_SECRET, a public Flow network (or FLOW_EMULATOR=off) and every setting of each
 * provider it turns on, and refuses the keys this repository publishes. Every problem is named in
 * one ConfigError.
 */
export interface Config extends MediaConfig {
  port: number;
  /** Directory for the embedded database, the JWT secret and the embedded Mailpit's inbox. */
  dataDir: string;
  /** postgres://… selects PostgreSQL; memory:// an in-memory PGlite; unset the PGlite in `<dataDir>/pglite`. */
  databaseUrl: string | undefined;
  jwtSecret: string;
  /** Lifetime of a session token (short: the refresh cookie renews it). */
  tokenTtlSeconds: number;
  /** How long a login session lasts without a refresh (each refresh extends it). */
  sessionTtlSeconds: number;
  /** Proxies whose X-Forwarded-For is believed (addresses or CIDR ranges); none by default. */
  trustedProxies: string[];
  /** Base of links sent by email. */
  publicUrl: string;
  nodeEnv: string;
  production: boolean;
  /**
   * Mount the development helpers (test collectibles on the emulator): in the embedded world outside
   * production, or with VITRINE_DEV_OUTBOX=1.
   */
  devTools: boolean;
  /**
   * The local Flow emulator: `embedded` (the embedded world's default on the emulator network)
   * starts it and the FCL dev wallet with the server; `external` uses one already running at FLOW_ACCESS_NODE; `off` runs
   * without a chain (API-only tests).
   */
  flowEmulator: 'embedded' | 'external' | 'off';
  /** Port of the FCL dev wallet started with an embedded emulator. */
  devWalletPort: number;
  /** Seed the embedded world into an empty catalog on start (VITRINE_SEED=off to skip; never without it). */
  seed: boolean;
  /** Crash tests only (VITRINE_CRASH_AT, see server/crash.ts): where the process kills itself. */
  crashAt?: CrashPoint;
  /** How long public catalog list answers are reused (VITRINE_CATALOG_CACHE_MS, default 2000; 0 off). */
  catalogCacheMs: number;
  /** The platform's fee on primary sales, in percent (a new blueprint's totalFeePercent). */
  platformFeePercent: number;
  /** The card provider (Checkout.com's API); see checkoutComConfig. */
  checkoutCom: CheckoutComConfig;
  /** Apple Pay through the card provider; absent or null: off. See walletsConfig. */
  applePay?: ApplePayConfig | null;
  /** Google Pay through the card provider; absent or null: off. See walletsConfig. */
  googlePay?: GooglePayConfig | null;
  coinbase: CoinbaseConfig;
  wert: WertConfig;
  token: TokenConfig | null;
  veriff: VeriffConfig;
  /** Email delivery: the embedded Mailpit, an SMTP relay, or off (server/mail/config.ts). */
  mail: MailConfig;
  /** Emails of the accounts that are admins (VITRINE_ADMIN_EMAILS, comma-separated). */
  adminEmails: string[];
  /**
   * Sign-ups an address makes in an hour before each next one waits (VITRINE_SIGNUP_FREE_PER_HOUR,
   * default 10; see server/users/signup-limit.ts).
   */
  signupFreePerHour: number;
  /**
   * Who may read GET /metrics (server/metrics-route.ts): holders of METRICS_TOKEN (a bearer
   * token), and loopback callers in the embedded world. Absent: nobody.
   */
  metrics?: { token?: string; loopback: boolean };
}

export const JWT_SECRET_MIN = 32;

/** Cookies are sent only over HTTPS when the public URL is https. */
export const secureCookies = (config: Pick<Config, 'publicUrl'>) => config.publicUrl.startsWith('https://');
const DEFAULT_TOKEN_TTL = 15 * 60;
const DEFAULT_SESSION_TTL = 7 * 24 * 3600;

/** The settings refused at start, every one named (one per line of the message). */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

/**
 * JWT_SECRET; in the embedded world, when unset, a secret generated once and kept in
 * `<dataDir>/jwt-secret`. A deployment sets its own.
 */
function jwtSecret(raw: string | undefined, dataDir: string, embedded: boolean): string {
  if (raw !== undefined && raw !== '') {
    if (raw.length < JWT_SECRET_MIN)
      throw new Error(`JWT_SECRET must be at least ${JWT_SECRET_MIN} characters`);
    return raw;
  }
  if (!embedded)
    throw new Error(
      `JWT_SECRET is required with VITRINE_EMBEDDED=off (at least ${JWT_SECRET_MIN} characters, the same on every instance)`,
    );
  const file = join(dataDir, 'jwt-secret');
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(file, 'utf8').trim();
}

function flowEmulatorMode(env: NodeJS.ProcessEnv, embedded: boolean): Config['flowEmulator'] {
  const raw = env.FLOW_EMULATOR;
  if (raw && raw !== 'embedded' && raw !== 'external' && raw !== 'off')
    throw new Error('FLOW_EMULATOR must be embedded, external or off');
  if (raw === 'embedded' && !embedded)
    throw new Error('FLOW_EMULATOR=embedded starts the Flow emulator: not with VITRINE_EMBEDDED=off');
  if (raw) return raw as Config['flowEmulator'];
  return embedded && (!env.FLOW_NETWORK || env.FLOW_NETWORK === 'emulator') ? 'embedded' : 'external';
}

/**
 * Without the embedded world the chain is a public network with all its settings (or none at all,
 * FLOW_EMULATOR=off): an emulator, embedded or not, signs with the published service key.
 */
function deploymentChain(env: NodeJS.ProcessEnv, flowEmulator: Config['flowEmulator']): void {
  if (flowEmulator === 'off') return;
  if (env.FLOW_NETWORK !== 'testnet' && env.FLOW_NETWORK !== 'mainnet')
    throw new Error(
      'FLOW_NETWORK must be testnet or mainnet with VITRINE_EMBEDDED=off (or FLOW_EMULATOR=off: no chain)',
    );
  loadChainConfig(env);
}

function crashAt(raw: string | undefined, production: boolean): CrashPoint | undefined {
  if (raw && production) throw new Error('VITRINE_CRASH_AT is for crash tests, not production');
  return parseCrashPoint(raw);
}

function seedMode(raw: string | undefined, embedded: boolean): boolean {
  if (raw && raw !== 'on' && raw !== 'off') throw new Error('VITRINE_SEED must be on or off');
  if (raw === 'on' && !embedded)
    throw new Error(
      'VITRINE_SEED=on seeds the demo world and its published logins: not with VITRINE_EMBEDDED=off',
    );
  return raw ? raw === 'on' : embedded;
}

/** METRICS_TOKEN: unset, or at least 16 characters. */
function metricsToken(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (raw.length < 16) throw new Error('METRICS_TOKEN must be at least 16 characters');
  return raw;
}

/** VITRINE_ADMIN_EMAILS: a comma-separated list of emails, lower-cased. */
function adminEmails(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  let embedded: boolean;
  try {
    embedded = embeddedWorld(env.VITRINE_EMBEDDED);
  } catch (err) {
    // Every other default depends on the switch: nothing else is read without it.
    throw new ConfigError([(err as Error).message]);
  }
  const problems: string[] = [];
  // Each setting is read on its own: what one refuses is noted, and the start stops once all are read.
  const read = <T>(reader: () => T): T => {
    try {
      return reader();
    } catch (err) {
      problems.push(...(err as Error).message.split('\n'));
      return undefined as T;
    }
  };
  const port = read(() => integer('PORT', env.PORT, 3000, 0, 65535));
  const dataDir = resolve(env.VITRINE_DATA_DIR || './data');
  const nodeEnv = env.NODE_ENV || 'development';
  const production = nodeEnv === 'production';
  const devOutbox = env.VITRINE_DEV_OUTBOX === '1';
  const flowEmulator = read(() => flowEmulatorMode(env, embedded));
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const config: Config = {
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: read(() => jwtSecret(env.JWT_SECRET, dataDir, embedded)),
    tokenTtlSeconds: read(() =>
      integer('JWT_TTL_SECONDS', env.JWT_TTL_SECONDS, DEFAULT_TOKEN_TTL, 60, 24 * 3600),
    ),
    sessionTtlSeconds: read(() =>
      integer('SESSION_TTL_SECONDS', env.SESSION_TTL_SECONDS, DEFAULT_SESSION_TTL, 300, 365 * 24 * 3600),
    ),
    trustedProxies: (env.VITRINE_TRUSTED_PROXIES ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    publicUrl,
    nodeEnv,
    production,
    devTools: devOutbox || (embedded && !production),
    flowEmulator,
    devWalletPort: read(() => integer('FLOW_DEV_WALLET_PORT', env.FLOW_DEV_WALLET_PORT, 8701, 1, 65535)),
    seed: read(() => seedMode(env.VITRINE_SEED, embedded)),
    crashAt: read(() => crashAt(env.VITRINE_CRASH_AT, (production && !devOutbox) || !embedded)),
    catalogCacheMs: read(() =>
      integer('VITRINE_CATALOG_CACHE_MS', env.VITRINE_CATALOG_CACHE_MS, 2000, 0, 60_000),
    ),
    platformFeePercent: read(() =>
      integer('VITRINE_PLATFORM_FEE_PERCENT', env.VITRINE_PLATFORM_FEE_PERCENT, 5, 0, 50),
    ),
    ...read(() => cardConfig(env, embedded)),
    coinbase: read(() => coinbaseConfig(env, embedded)),
    wert: read(() => wertConfig(env, embedded)),
    token: read(() => tokenConfig(env, embedded)),
    veriff: read(() => veriffConfig(env, embedded)),
    mail: read(() => mailConfig(env, publicUrl, embedded)),
    adminEmails: adminEmails(env.VITRINE_ADMIN_EMAILS),
    ...read(() => mediaConfig(env, embedded)),
    signupFreePerHour: read(() =>
      integer(
        'VITRINE_SIGNUP_FREE_PER_HOUR',
        env.VITRINE_SIGNUP_FREE_PER_HOUR,
        SIGNUP_FREE_PER_HOUR,
        1,
        100_000,
      ),
    ),
    metrics: { token: read(() => metricsToken(env.METRICS_TOKEN)), loopback: embedded },
  };
  if (!embedded) {
    if (flowEmulator) read(() => deploymentChain(env, flowEmulator));
    problems.push(...publishedSecrets(env));
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
