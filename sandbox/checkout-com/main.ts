/**
 * The card sandbox on its own: `npx tsx sandbox/checkout-com/main.ts`. CHECKOUT_COM_SANDBOX_PORT
 * (default 8790), CHECKOUT_COM_WEBHOOK_URL (where payment events go), CHECKOUT_COM_WEBHOOK_KEY (their
 * signature key). `npm start` starts the same sandbox inside the server process (server/start.ts).
 */
import { SANDBOX_DEFAULT_PORT, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY, startCheckoutSandbox } from './index';

const sandbox = await startCheckoutSandbox({
  port: Number(process.env.CHECKOUT_COM_SANDBOX_PORT ?? SANDBOX_DEFAULT_PORT),
  webhookUrl: process.env.CHECKOUT_COM_WEBHOOK_URL || undefined,
  webhookSignatureKey: process.env.CHECKOUT_COM_WEBHOOK_KEY || undefined,
});
console.log(
  `Checkout.com sandbox on ${sandbox.url} (public key ${SANDBOX_PUBLIC_KEY}, secret key ${SANDBOX_SECRET_KEY})`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void sandbox.close());
