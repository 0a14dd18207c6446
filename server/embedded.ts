import {
  SANDBOX_PUBLIC_KEY as CHECKOUT_SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY as CHECKOUT_SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY as CHECKOUT_SANDBOX_WEBHOOK_KEY,
} from '../sandbox/checkout-com/index';
import {
  SANDBOX_API_KEY as COINBASE_SANDBOX_API_KEY,
  SANDBOX_WEBHOOK_SECRET as COINBASE_SANDBOX_WEBHOOK_SECRET,
} from '../sandbox/coinbase-commerce/index';
import {
  SANDBOX_API_KEY as VERIFF_SANDBOX_API_KEY,
  SANDBOX_SHARED_SECRET as VERIFF_SANDBOX_SHARED_SECRET,
} from '../sandbox/veriff/index';
import {
  SANDBOX_API_KEY as WERT_SANDBOX_API_KEY,
  SANDBOX_PARTNER_ID as WERT_SANDBOX_PARTNER_ID,
  SANDBOX_PRIVATE_KEY as WERT_SANDBOX_PRIVATE_KEY,
} from '../sandbox/wert/index';
import { EMULATOR_SERVICE_KEY } from './chain/emulator';
import { onOff } from './env';
import { ANVIL_PAYMENTS_KEY } from './evm/anvil';
import { SEAWEED_SECRET_ACCESS_KEY } from './storage/seaweed';

/**
 * The embedded world and a deployment (VITRINE_EMBEDDED). `on`, the default, is what `npm start`
 * runs with nothing configured: the Flow emulator and its FCL dev wallet, the four provider sandboxes,
 * anvil with NFM_PAYMENTS=on, SeaweedFS with STORAGE=s3 and no S3_ENDPOINT, and the seed, all with keys this repository publishes, all listening on
 * 127.0.0.1 only. `off` is how a deployment runs: nothing embedded starts, and server/config.ts
 * refuses to start on settings that would trust something published here.
 */
export function embeddedWorld(raw: string | undefined): boolean {
  return onOff('VITRINE_EMBEDDED', raw) ?? true;
}

/** Every key, secret and id of the embedded world that this repository publishes, and whose it is. */
const PUBLISHED: readonly (readonly [value: string, what: string])[] = [
  [CHECKOUT_SANDBOX_PUBLIC_KEY, "card sandbox's published public key"],
  [CHECKOUT_SANDBOX_SECRET_KEY, "card sandbox's published secret key"],
  [CHECKOUT_SANDBOX_WEBHOOK_KEY, "card sandbox's published webhook key"],
  [COINBASE_SANDBOX_API_KEY, "crypto sandbox's published API key"],
  [COINBASE_SANDBOX_WEBHOOK_SECRET, "crypto sandbox's published webhook secret"],
  [WERT_SANDBOX_PARTNER_ID, "on-ramp sandbox's published partner id"],
  [WERT_SANDBOX_PRIVATE_KEY, "on-ramp sandbox's published private key"],
  [WERT_SANDBOX_API_KEY, "on-ramp sandbox's published API key"],
  [VERIFF_SANDBOX_API_KEY, "identity sandbox's published API key"],
  [VERIFF_SANDBOX_SHARED_SECRET, "identity sandbox's published shared secret"],
  [EMULATOR_SERVICE_KEY, "Flow emulator's published service key"],
  [ANVIL_PAYMENTS_KEY, "EVM node's published dev account key"],
  [SEAWEED_SECRET_ACCESS_KEY, "object store's (SeaweedFS) published secret key"],
];

/** The settings that hold a key, secret or id: none of them may be a published one. */
export const SECRET_SETTINGS = [
  'JWT_SECRET',
  'CHECKOUT_COM_PUBLIC_KEY',
  'CHECKOUT_COM_SECRET_KEY',
  'CHECKOUT_COM_WEBHOOK_KEY',
  'COINBASE_COMMERCE_API_KEY',
  'COINBASE_COMMERCE_WEBHOOK_SECRET',
  'WERT_PARTNER_ID',
  'WERT_PRIVATE_KEY',
  'WERT_API_KEY',
  'VERIFF_API_KEY',
  'VERIFF_SHARED_SECRET',
  'NFM_PAYMENTS_PRIVATE_KEY',
  'FLOW_ADMIN_PRIVATE_KEY',
  'S3_SECRET_ACCESS_KEY',
] as const;

/** Case, spaces and a 0x prefix do not make a published key another one. */
const comparable = (value: string) => value.trim().toLowerCase().replace(/^0x/, '');

/** One line for each secret setting whose value is published in this repository, naming it. */
export function publishedSecrets(env: NodeJS.ProcessEnv): string[] {
  return SECRET_SETTINGS.flatMap((name) => {
    const value = env[name];
    const found = value && PUBLISHED.find(([published]) => comparable(published) === comparable(value));
    return found ? [`${name} is the embedded ${found[1]}`] : [];
  });
}
