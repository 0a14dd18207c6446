/**
 * `npm run seed`: seeds the embedded world into the configured database (and, with a chain, onto
 * it) when the catalog is empty. `npm run seed -- --blueprints 100000 --nfts 1000000` adds a large
 * generated world for benchmarks. Run it while the server is stopped: only one process may open
 * the embedded PGlite directory. Never with VITRINE_EMBEDDED=off: the demo world's accounts sign in
 * with a published password.
 */
import { parseArgs } from 'node:util';
import { startChain } from '../server/chain/lifecycle';
import { loadConfig } from '../server/config';
import { openDb } from '../server/db';
import { embeddedWorld } from '../server/embedded';
import { seedLargeWorld } from '../server/seed/large';
import { catalogIsEmpty, seedWorld } from '../server/seed/world';
import { openStorage } from '../server/storage/config';

const { values } = parseArgs({
  options: { blueprints: { type: 'string' }, nfts: { type: 'string', default: '0' } },
});
const count = (name: string, raw: string | undefined) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 10_000_000) {
    console.error(`--${name} must be a whole number from 0 to 10000000`);
    process.exit(2);
  }
  return n;
};

if (!embeddedWorld(process.env.VITRINE_EMBEDDED)) {
  console.error('npm run seed seeds the demo world and its published logins: not with VITRINE_EMBEDDED=off');
  process.exit(2);
}
const config = loadConfig();
const database = await openDb(config);
try {
  if (values.blueprints !== undefined) {
    await seedLargeWorld(database.db, {
      blueprints: count('blueprints', values.blueprints),
      nfts: count('nfts', values.nfts),
      log: console.log,
    });
  } else if (!(await catalogIsEmpty(database.db))) {
    console.log('The catalog already has storefronts: nothing to seed.');
  } else {
    const chain = await startChain(config, console);
    const media = await openStorage(config, console).catch(async (err) => {
      await chain?.stop();
      throw err;
    });
    try {
      await seedWorld({ db: database.db, media: { storage: media.storage }, client: chain?.client });
    } finally {
      await media.close();
      await chain?.stop();
    }
  }
} finally {
  await database.close();
}
