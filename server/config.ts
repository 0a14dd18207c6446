import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type ApplePayConfig, type CheckoutComConfig, cardConfig, type GooglePayConfig } from './card-config';
import { type CrashPoint, parseCrashPoint } from './crash';
import { integer } from './env';
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
import { SIGNUP_FREE_PER_HOUR } from './users/signup-limit';

/** Server configuration, read once from the environment (see docs/api.md). */
export interface Config {
  port: number;
  /** Directory for the embedded database, the JWT secret and the email outbox. */
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
  /** Mount the development helpers (the email outbox viewer): outside production, or with VITRINE_DEV_OUTBOX=1. */
  devTools: boolean;
  /**
   * The local Flow emulator: `embedded` (default on the emulator network) starts it and the FCL dev
   * wallet with the server; `external` uses one already running at FLOW_ACCESS_NODE; `off` runs
   * without a chain (API-only tests).
   */
  flowEmulator: 'embedded' | 'external' | 'off';
  /** Port of the FCL dev wallet started with an embedded emulator. */
  devWalletPort: number;
  /** Seed the embedded world into an empty catalog on start (VITRINE_SEED=off to skip). */
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
  /** Emails of the accounts that are admins (VITRINE_ADMIN_EMAILS, comma-separated). */
  adminEmails: string[];
  /**
   * Sign-ups an address makes in an hour before each next one waits (VITRINE_SIGNUP_FREE_PER_HOUR,
   * default 10; see server/users/signup-limit.ts).
   */
  signupFreePerHour: number;
}

export const JWT_SECRET_MIN = 32;

/** Cookies are sent only over HTTPS when the public URL is https. */
export const secureCookies = (config: Pick<Config, 'publicUrl'>) => config.publicUrl.startsWith('https://');
const DEFAULT_TOKEN_TTL = 15 * 60;
const DEFAULT_SESSION_TTL = 7 * 24 * 3600;

/** JWT_SECRET, else a secret generated once and kept in `<dataDir>/jwt-secret`. */
function jwtSecret(raw: string | undefined, dataDir: string): string {
  if (raw !== undefined && raw !== '') {
    if (raw.length < JWT_SECRET_MIN)
      throw new Error(`JWT_SECRET must be at least ${JWT_SECRET_MIN} characters`);
    return raw;
  }
  const file = join(dataDir, 'jwt-secret');
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(file, 'utf8').trim();
}

function flowEmulatorMode(env: NodeJS.ProcessEnv): Config['flowEmulator'] {
  const raw = env.FLOW_EMULATOR;
  if (raw === 'embedded' || raw === 'external' || raw === 'off') return raw;
  if (raw) throw new Error('FLOW_EMULATOR must be embedded, external or off');
  return !env.FLOW_NETWORK || env.FLOW_NETWORK === 'emulator' ? 'embedded' : 'external';
}

function crashAt(raw: string | undefined, production: boolean): CrashPoint | undefined {
  if (raw && production) throw new Error('VITRINE_CRASH_AT is for crash tests, not production');
  return parseCrashPoint(raw);
}

function seedMode(raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'on') return true;
  if (raw === 'off') return false;
  throw new Error('VITRINE_SEED must be on or off');
}

/** VITRINE_ADMIN_EMAILS: a comma-separated list of emails, lower-cased. */
function adminEmails(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer('PORT', env.PORT, 3000, 0, 65535);
  const dataDir = resolve(env.VITRINE_DATA_DIR || './data');
  const nodeEnv = env.NODE_ENV || 'development';
  return {
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: jwtSecret(env.JWT_SECRET, dataDir),
    tokenTtlSeconds: integer('JWT_TTL_SECONDS', env.JWT_TTL_SECONDS, DEFAULT_TOKEN_TTL, 60, 24 * 3600),
    sessionTtlSeconds: integer(
      'SESSION_TTL_SECONDS',
      env.SESSION_TTL_SECONDS,
      DEFAULT_SESSION_TTL,
      300,
      365 * 24 * 3600,
    ),
    trustedProxies: (env.VITRINE_TRUSTED_PROXIES ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    nodeEnv,
    production: nodeEnv === 'production',
    devTools: nodeEnv !== 'production' || env.VITRINE_DEV_OUTBOX === '1',
    flowEmulator: flowEmulatorMode(env),
    devWalletPort: integer('FLOW_DEV_WALLET_PORT', env.FLOW_DEV_WALLET_PORT, 8701, 1, 65535),
    seed: seedMode(env.VITRINE_SEED),
    crashAt: crashAt(env.VITRINE_CRASH_AT, nodeEnv === 'production' && env.VITRINE_DEV_OUTBOX !== '1'),
    catalogCacheMs: integer('VITRINE_CATALOG_CACHE_MS', env.VITRINE_CATALOG_CACHE_MS, 2000, 0, 60_000),
    platformFeePercent: integer('VITRINE_PLATFORM_FEE_PERCENT', env.VITRINE_PLATFORM_FEE_PERCENT, 5, 0, 50),
    ...cardConfig(env),
    coinbase: coinbaseConfig(env),
    wert: wertConfig(env),
    token: tokenConfig(env),
    veriff: veriffConfig(env),
    adminEmails: adminEmails(env.VITRINE_ADMIN_EMAILS),
    signupFreePerHour: integer(
      'VITRINE_SIGNUP_FREE_PER_HOUR',
      env.VITRINE_SIGNUP_FREE_PER_HOUR,
      SIGNUP_FREE_PER_HOUR,
      1,
      100_000,
    ),
  };
}
