import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { blueprintCardColumns, storefrontSummaryColumns } from '../../server/catalog/json';
import { mapRowsByPlan } from '../../server/db/rows';
import { blueprintPacks, blueprints, storefronts } from '../../server/db/schema';
import { insertBlueprint, insertStorefront, insertUser } from '../../server/seed/factory';
import { databases, useTestApp } from './support/harness';

/** A prepared select mapped by its plan answers exactly the rows drizzle's own mapping answers. */
describe.each(databases)('rows mapped by plan on %s', (database) => {
  const t = useTestApp(database);

  it('answers the same values, dates, nulls and left-joined nothing as drizzle', async () => {
    const db = t.database.db;
    const owner = await insertUser(db, {
      email: 'rows@example.com',
      username: 'rows',
      firstName: 'Rows',
      walletAddress: undefined,
    });
    const storefront = await insertStorefront(db, {
      ownerId: owner.id,
      name: 'Row House',
      vanityUrl: 'row-house',
      category: 'music',
    });
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
    expect(rows[0]!.blueprint.createdAt).toBeInstanceOf(Date);
    expect(rows[0]!.blueprint.availableTime).toBeNull();
    expect(rows[1]!.blueprint.availableTime).toEqual(new Date('2026-03-04T05:06:07.890Z'));
    expect(rows[0]!).toMatchObject({ count: 2, title: 'FIRST', storefront: { name: 'Row House' } });
  });
});
