import { sql } from 'drizzle-orm';
import { fillActivity } from '../activity/backfill';
import { type Database, postgresError } from '../db';

/**
 * A large world for benchmarks (`npm run seed -- --blueprints 100000 --nfts 1000000`): generated in
 * the database with generate_series, in batches (PGlite holds everything in memory), on PGlite or
 * PostgreSQL alike. One storefront per 100 blueprints, in every category; titles from word lists so
 * that searches hit a realistic share of rows. NFTs are database rows only: minting a million on the
 * emulator is not what the catalog benchmark measures.
 */
export interface LargeWorldOptions {
  blueprints: number;
  nfts: number;
  log?: (line: string) => void;
}

const BATCH = 50_000;
const adjectives = [
  'Amber',
  'Azure',
  'Brass',
  'Cobalt',
  'Crimson',
  'Dusk',
  'Ember',
  'Frost',
  'Gilded',
  'Golden',
  'Hollow',
  'Ivory',
  'Jade',
  'Lunar',
  'Midnight',
  'Neon',
  'Obsidian',
  'Pale',
  'Quiet',
  'Rust',
  'Silver',
  'Solar',
  'Velvet',
  'Wild',
  'Zephyr',
];
const nouns = [
  'Harbor',
  'Dune',
  'Comet',
  'Fox',
  'Lantern',
  'Meadow',
  'Orbit',
  'Pier',
  'Raven',
  'Signal',
  'Summit',
  'Tide',
  'Vault',
  'Willow',
  'Atlas',
  'Beacon',
  'Canyon',
  'Drift',
  'Echo',
  'Falcon',
  'Grove',
  'Horizon',
  'Island',
  'Jet',
  'Kite',
  'Loop',
  'Mirage',
  'Nova',
  'Oasis',
  'Prism',
];
const arr = (words: string[]) => sql.raw(`array[${words.map((w) => `'${w}'`).join(',')}]`);

/** Rows of a raw query on either driver. */
async function rows(db: Database, query: ReturnType<typeof sql>): Promise<unknown[]> {
  return ((await db.execute(query)) as unknown as { rows: unknown[] }).rows;
}

export async function seedLargeWorld(db: Database, options: LargeWorldOptions): Promise<void> {
  const log = options.log ?? (() => {});
  const stores = Math.max(1, Math.ceil(options.blueprints / 100));
  const started = Date.now();
  const [{ base }] = (await rows(
    db,
    sql`select coalesce(max(flow_blueprint_id), 0) as base from blueprints`,
  )) as [{ base: number }];

  for (let from = 1; from <= stores; from += BATCH) {
    const to = Math.min(stores, from + BATCH - 1);
    await db.execute(sql`
      insert into users (email, username, password_hash, first_name)
      select 'bench-' || i || '@bench.vitrine.test', 'bench_' || i, 'bench: no login', 'Bench'
      from generate_series(${from}::int, ${to}::int) as i
      on conflict do nothing`);
    await db.execute(sql`
      insert into storefronts (owner_id, name, vanity_url, description, category, theme, created_at)
      select u.id, 'Bench Store ' || i, 'bench-store-' || i, 'A generated storefront for benchmarks.',
        (enum_range(null::storefront_category))[1 + i % 10],
        (enum_range(null::storefront_theme))[1 + i % 2],
        now() - (i || ' minutes')::interval
      from generate_series(${from}::int, ${to}::int) as i
      join users u on u.email = 'bench-' || i || '@bench.vitrine.test'
      on conflict do nothing`);
  }
  log(`large world: ${stores} storefronts (${Date.now() - started} ms)`);

  for (let from = 1; from <= options.blueprints; from += BATCH) {
    const to = Math.min(options.blueprints, from + BATCH - 1);
    await db.execute(sql`
      insert into blueprints (storefront_id, title, description, price, quantity, quantity_available,
        rarity_level, state, type, royalty_percent, total_fee_percent, created_at)
      select s.id,
        (${arr(adjectives)})[1 + (i * 7) % ${adjectives.length}] || ' ' || (${arr(nouns)})[1 + (i * 13) % ${nouns.length}] || ' ' || i,
        'Generated blueprint ' || i,
        ((i * 37) % 1000) * 100 + (i % 4) * 25,
        1 + (i * 11) % 1000,
        (i * 11) % 1000,
        (enum_range(null::rarity_level))[1 + i % 5],
        case when i % 20 = 0 then 'soldOut'::blueprint_state when i % 13 = 0 then 'created'::blueprint_state else 'active'::blueprint_state end,
        'standalone',
        5, 5,
        now() - (i || ' seconds')::interval
      from generate_series(${from}::int, ${to}::int) as i
      join storefronts s on s.vanity_url = 'bench-store-' || (1 + (i - 1) / 100)`);
    log(`large world: ${to} blueprints (${Date.now() - started} ms)`);
  }

  if (options.nfts > 0) {
    const [{ first, last }] = (await rows(
      db,
      sql`select min(flow_blueprint_id) as first, max(flow_blueprint_id) as last from blueprints where flow_blueprint_id > ${base}`,
    )) as [{ first: number; last: number }];
    const span = Number(last) - Number(first) + 1;
    for (let from = 1; from <= options.nfts; from += BATCH) {
      const to = Math.min(options.nfts, from + BATCH - 1);
      // NFT i is edition (i / span + 1) of blueprint first + i % span: editions stay unique.
      await db.execute(sql`
        insert into nfts (id, blueprint_id, serial_number, owner, status)
        select 'bench' || i, ${first}::bigint + (i % ${span}), 1 + i / ${span},
          '0x' || lpad(to_hex(i % 5000), 16, '0'), 'parked'
        from generate_series(${from}::int, ${to}::int) as i
        on conflict do nothing`);
      if (to % 200_000 === 0 || to === options.nfts)
        log(`large world: ${to} NFTs (${Date.now() - started} ms)`);
    }
  }
  // The bulk rows' activity (their mints), as a database upgraded to the feed gets it.
  await fillActivity(db);
  // As after any bulk load: statistics for the planner, the new rows vacuumed now rather than by
  // autovacuum, and the pages written out by a checkpoint now rather than by the checkpointer (which
  // spreads a gigabyte of them over the next minutes), all before whatever runs next.
  await db.execute(sql`vacuum analyze`);
  // A role that may not checkpoint (neither a superuser nor in pg_checkpoint) leaves it to the
  // checkpointer.
  await db.execute(sql`checkpoint`).catch((err: unknown) => {
    // SQLSTATE 42501: insufficient privilege.
    if (!postgresError(err, '42501')) throw err;
  });
  log(`large world ready in ${Date.now() - started} ms`);
}
