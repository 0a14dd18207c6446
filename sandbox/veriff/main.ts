/**
 * The identity sandbox on its own: `npx tsx sandbox/veriff/main.ts`.
 * VERIFF_SANDBOX_PORT (default 8793), VERIFF_WEBHOOK_URL (where decisions go), VERIFF_SHARED_SECRET
 * (the shared secret webhooks are signed with), VERIFF_API_KEY (the integration's API key).
 */
import { SANDBOX_API_KEY, SANDBOX_DEFAULT_PORT, SANDBOX_SHARED_SECRET, startVeriffSandbox } from './index';

const sandbox = await startVeriffSandbox({
  port: Number(process.env.VERIFF_SANDBOX_PORT ?? SANDBOX_DEFAULT_PORT),
  apiKey: process.env.VERIFF_API_KEY || undefined,
  sharedSecret: process.env.VERIFF_SHARED_SECRET || undefined,
  decisionWebhookUrl: process.env.VERIFF_WEBHOOK_URL || undefined,
});
console.log(
  `Veriff sandbox (v1 sessions) on ${sandbox.url} (API key ${process.env.VERIFF_API_KEY || SANDBOX_API_KEY}, shared secret ${
    process.env.VERIFF_SHARED_SECRET ? 'from VERIFF_SHARED_SECRET' : SANDBOX_SHARED_SECRET
  })`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void sandbox.close());
