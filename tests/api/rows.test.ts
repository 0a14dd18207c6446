import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { blueprintCardColumns, storefrontSummaryColumns } from '../../server/catalog/json';
import { isoFromDriver, isoText, mapRowsByPlan } from '../../server/db/rows';
import { blueprintPacks, blueprints, storefronts } from '../../server/db/schema';
import { insertBlueprint, insertStorefront, insertUser } from '../../server/seed/factory';
import { bothDatabases, useTestApp } from './support/harness';

/** A prepared select mapped by its plan answers exactly the rows drizzle's own mapping answers. */
describe.each(bothDatabases)('rows mapped by plan on %s', (database) => {
  const t = useTestApp(database);
  /** A storefront in the music category, with an owner of its own. */
  const storefrontNamed = async (name: string, handle: string) => {
    const owner = await insertUser(t.database.db, {
      email: `${handle}@example.com`,
      username: handle,
      firstName: name,
      walletAddress: undefined,
    });
    return insertStorefront(t.database.db, {
      ownerId: owner.id,
      name,
      vanityUrl: handle,
      category: 'music',
    });
  };

  it('answers the same values, dates, nulls and left-joined nothing as drizzle', async () => {
    const db = t.database.db;
    const storefront = await storefrontNamed('Row House', 'row-house');
    await insertBlueprint(db, { storefrontId: storefront.id, title: 'First', price: 1234, quantity: 5 });
    await insertBlueprint(db, {
      storefrontId: storefront.id,
      title: 'Second',
      price: 0,
      quantity: 1,
      availableTime: new Date('2026-03-04T05:06:07.890Z'),
    });
    const statement = () =>
      db
        .select({
          count: sql<number>`count(*) over ()::int`,
          title: sql<string>`upper(${blueprints.title})`.as('shout'),
          blueprint: blueprintCardColumns,
          storefront: storefrontSummaryColumns,
          // No blueprint here has a pack: the left join finds nothing.
          pack: { id: blueprintPacks.id, title: blueprintPacks.title },
        })
        .from(blueprints)
        .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
        .leftJoin(blueprintPacks, eq(blueprintPacks.id, blueprints.blueprintPackId))
        .where(eq(blueprints.storefrontId, storefront.id))
        .orderBy(asc(blueprints.title));

    const expected = await statement().execute();
    const prepared = mapRowsByPlan(statement().prepare(''));
    // The plan is in place (were drizzle to rename its hook, the rows would stay right but slow).
    expect((prepared as unknown as { customResultMapper?: unknown }).customResultMapper).toBeTypeOf(
      'function',
    );
    const rows = await prepared.execute();
    expect(rows).toEqual(expected);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.pack).toBeNull();
    // A card's times are the ISO text its answer shows.
    expect(rows[0]!.blueprint.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(rows[0]!.blueprint.availableTime).toBeNull();
    expect(rows[1]!.blueprint.availableTime).toBe('2026-03-04T05:06:07.890Z');
    expect(rows[0]!).toMatchObject({ count: 2, title: 'FIRST', storefront: { name: 'Row House' } });
  });

  it('reads a time as ISO text exactly as Date.toISOString writes it, in any session time zone', async () => {
    const db = t.database.db;
    const times = [
      '2026-03-04 05:06:07.890123+00',
      '2026-03-04 05:06:07.999999+00',
      '2026-03-04 05:06:07+00',
      '2026-03-04 05:06:07.5+00',
      '1999-12-31 23:59:59.000001+00',
      '2030-06-30 12:00:00.12+00',
    ];
    const storefront = await storefrontNamed('Time House', 'time-house');
    for (const [i, time] of times.entries()) {
      const b = await insertBlueprint(db, {
        storefrontId: storefront.id,
        title: `T${i}`,
        price: 100,
        quantity: 1,
      });
      await db
        .update(blueprints)
        .set({ createdAt: sql`${time}::timestamptz` })
        .where(eq(blueprints.id, b.id));
    }
    const read = (executor: Pick<typeof db, 'select'>) =>
      executor
        .select({ iso: isoText(blueprints.createdAt), date: blueprints.createdAt })
        .from(blueprints)
        .where(eq(blueprints.storefrontId, storefront.id))
        .orderBy(asc(blueprints.title));
    const check = (rows: { iso: string; date: Date }[]) => {
      expect(rows).toHaveLength(times.length);
      for (const row of rows) expect(row.iso).toBe(row.date.toISOString());
    };
    check(await read(db));
    // A session in another time zone writes its own offset: the text goes through a Date.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local timezone = 'Asia/Kolkata'`);
      const rows = await read(tx);
      check(rows);
      expect(rows[0]!.iso).toBe('2026-03-04T05:06:07.890Z');
    });
  });
});

describe('isoFromDriver', () => {
  it('writes what new Date(text).toISOString() writes, for instants of every kind', () => {
    for (let i = 0; i < 5000; i++) {
      const instant = new Date(Date.UTC(1970, 0, 1) + Math.floor(Math.random() * 32_000_000_000_000));
      const micros = String(Math.floor(Math.random() * 1000)).padStart(3, '0');
      const iso = instant.toISOString();
      const fraction = `${iso.slice(20, 23)}${micros}`.replace(/0+$/, '');
      const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}+00`;
      expect(isoFromDriver(text)).toBe(new Date(text).toISOString());
    }
    expect(isoFromDriver('2026-03-04 10:36:07.89+05:30')).toBe('2026-03-04T05:06:07.890Z');
    expect(isoFromDriver(new Date('2026-03-04T05:06:07.890Z'))).toBe('2026-03-04T05:06:07.890Z');
  });
});
