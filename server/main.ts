import { loadConfig } from './config';
import { start } from './start';

/** `tsx server/main.ts`: serve the API (and in production the built SPA) until SIGINT or SIGTERM. */
const SHUTDOWN_GRACE_MS = 10_000;

const server = await start(loadConfig());

function shutdown(code: number): void {
  setTimeout(() => process.exit(code || 1), SHUTDOWN_GRACE_MS).unref();
  server.close().then(
    () => process.exit(code),
    (err) => {
      console.error('Shutdown failed', err);
      process.exit(1);
    },
  );
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => shutdown(0));

server.ready.catch((err) => {
  console.error('Could not open the database', err);
  shutdown(1);
});
