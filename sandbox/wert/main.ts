/**
 * The on-ramp sandbox on its own: `npx tsx sandbox/wert/main.ts`.
 * WERT_SANDBOX_PORT (default 8792), WERT_WEBHOOK_URL (where order events go), WERT_PRIVATE_KEY (the
 * partner's Ed25519 seed, hex: the sandbox checks signatures with its public key; default the
 * sandbox partner's), WERT_PARTNER_ID, WERT_API_KEY (the Data API key).
 */
import {
  publicKeyOf,
  SANDBOX_API_KEY,
  SANDBOX_DEFAULT_PORT,
  SANDBOX_PARTNER_ID,
  SANDBOX_PRIVATE_KEY,
  startWertSandbox,
} from './index';

const sandbox = await startWertSandbox({
  port: Number(process.env.WERT_SANDBOX_PORT ?? SANDBOX_DEFAULT_PORT),
  webhookUrl: process.env.WERT_WEBHOOK_URL || undefined,
  partnerId: process.env.WERT_PARTNER_ID || SANDBOX_PARTNER_ID,
  publicKey: publicKeyOf(process.env.WERT_PRIVATE_KEY || SANDBOX_PRIVATE_KEY),
  apiKey: process.env.WERT_API_KEY || SANDBOX_API_KEY,
});
console.log(
  `Wert sandbox on ${sandbox.url}: widget ${sandbox.url}/${sandbox.partnerId}/widget, Data API ${sandbox.url}/api/external/orders (X-API-KEY ${
    process.env.WERT_API_KEY ? 'from WERT_API_KEY' : SANDBOX_API_KEY
  })`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void sandbox.close());
