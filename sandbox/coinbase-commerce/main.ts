/**
 * The crypto sandbox on its own: `npx tsx sandbox/coinbase-commerce/main.ts`.
 * COINBASE_COMMERCE_SANDBOX_PORT (default 8791), COINBASE_COMMERCE_WEBHOOK_URL (where charge events
 * go), COINBASE_COMMERCE_WEBHOOK_SECRET (the shared secret they are signed with).
 */
import { SANDBOX_API_KEY, SANDBOX_DEFAULT_PORT, SANDBOX_WEBHOOK_SECRET, startCoinbaseSandbox } from './index';

const sandbox = await startCoinbaseSandbox({
  port: Number(process.env.COINBASE_COMMERCE_SANDBOX_PORT ?? SANDBOX_DEFAULT_PORT),
  webhookUrl: process.env.COINBASE_COMMERCE_WEBHOOK_URL || undefined,
  webhookSecret: process.env.COINBASE_COMMERCE_WEBHOOK_SECRET || undefined,
});
console.log(
  `Coinbase Commerce sandbox (legacy Charge API) on ${sandbox.url} (API key ${SANDBOX_API_KEY}, webhook secret ${
    process.env.COINBASE_COMMERCE_WEBHOOK_SECRET
      ? 'from COINBASE_COMMERCE_WEBHOOK_SECRET'
      : SANDBOX_WEBHOOK_SECRET
  })`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void sandbox.close());
