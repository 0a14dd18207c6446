import { type Config, ConfigError, loadConfig } from './config';
import { defaultLog } from './log';
import { start } from './start';

/** `tsx server/main.ts`: serve the API (and in production the built SPA) until SIGINT or SIGTERM. */
const SHUTDOWN_GRACE_MS = 10_000;

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  // Settings refused at start: each on its own line, and nothing starts.
  console.error(`Vitrine cannot start:\n${err.problems.map((p) => `- ${p}`).join('\n')}`);
  process.exit(1);
}
const server = await start(config);

function shutdown(code: number): void {
  setTimeout(() => process.exit(code || 1), SHUTDOWN_GRACE_MS).unref();
  server.close().then(
    () => process.exit(code),
    (err) => {
      defaultLog().error('Shutdown failed', err);
      process.exit(1);
    },
  );
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => shutdown(0));

server.ready.catch((err) => {
  defaultLog().error('Could not start (database, chain or a provider)', err);
  shutdown(1);
});
