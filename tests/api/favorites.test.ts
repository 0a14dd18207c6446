import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { blueprints, favorites } from '../../server/db/schema';
import { databases, register, useTestApp } from './support/harness';
import { blueprint, creator } from './support/sales';

/**
 * Favorites: a signed-in user saves items they may see (twice is once, removing an unsaved one is
 * fine) and reads them back newest first, as item cards, paged by from/to.
 */
describe.each(databases)('favorites on %s', (database) => {
  const t = useTestApp(database);
  const put = (token: string, id: string) => t.request('PUT', `/api/users/me/favorites/${id}`, { token });
  const del = (token: string, id: string) => t.request('DELETE', `/api/users/me/favorites/${id}`, { token });
  const list = (token: string, query = '') => t.request('GET', `/api/users/me/favorites${query}`, { token });

  async function shopItems(n: number) {
    const shop = await creator(t);
    const items = [];
    for (let i = 0; i < n; i++) items.push(await blueprint(t, shop.storefront.id, { price: 1000 + i }));
    return { shop, items };
  }

  it('saves an item once however often it is put, lists it as a card, and removes it', async () => {
    const me = await register(t);
    const { shop, items } = await shopItems(1);
    const item = items[0]!;
    expect((await put(me.authToken, item.id)).status).toBe(204);
    t.clock.advance(1000);
    expect((await put(me.authToken, item.id)).status).toBe(204);
    const rows = await t.database.db.select().from(favorites).where(eq(favorites.userId, me.id));
    expect(rows).toHaveLength(1);

    const page = await list(me.authToken);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(1);
    expect(page.body.results[0]).toMatchObject({
      id: item.id,
      title: item.title,
      price: 1000,
      storefront: { id: shop.storefront.id, name: shop.storefront.name },
      favoritedAt: rows[0]!.createdAt.toISOString(),
    });
    expect((await t.request('GET', '/api/users/me/favorites/ids', { token: me.authToken })).body).toEqual({
      results: [item.id],
    });

    expect((await del(me.authToken, item.id)).status).toBe(204);
    expect((await del(me.authToken, item.id)).status).toBe(204);
    expect((await list(me.authToken)).body).toEqual({ results: [], total: 0 });
  });

  it('lists newest first, pages by from/to, and keeps each user’s own', async () => {
    const me = await register(t);
    const other = await register(t);
    const { items } = await shopItems(3);
    for (const item of items) {
      await put(me.authToken, item.id);
      t.clock.advance(1000);
    }
    await put(other.authToken, items[0]!.id);
    const ids = (body: { results: { id: string }[] }) => body.results.map((r) => r.id);
    expect(ids((await list(me.authToken)).body)).toEqual([items[2]!.id, items[1]!.id, items[0]!.id]);
    const second = await list(me.authToken, '?from=2&to=3');
    expect([ids(second.body), second.body.total]).toEqual([[items[1]!.id, items[0]!.id], 3]);
    expect(ids((await list(other.authToken)).body)).toEqual([items[0]!.id]);
    for (const bad of ['?from=0', '?from=2&to=1', '?from=1&to=25', '?from=x']) {
      const res = await list(me.authToken, bad);
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, 'INVALID_VALUE']);
    }
  });

  it('answers 404 for an unknown, hidden or malformed item id, 401 to visitors', async () => {
    const me = await register(t);
    const { items } = await shopItems(2);
    await t.database.db.update(blueprints).set({ visible: false }).where(eq(blueprints.id, items[0]!.id));
    expect((await put(me.authToken, items[0]!.id)).body.code).toBe('not_found');
    expect((await put(me.authToken, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await put(me.authToken, 'nope')).body.code).toBe('not_found');
    expect((await t.request('PUT', `/api/users/me/favorites/${items[1]!.id}`)).status).toBe(401);
    expect((await t.request('GET', '/api/users/me/favorites')).status).toBe(401);

    // An item hidden after it was saved waits unseen, and shows again once visible.
    await put(me.authToken, items[1]!.id);
    await t.database.db.update(blueprints).set({ visible: false }).where(eq(blueprints.id, items[1]!.id));
    expect((await list(me.authToken)).body).toEqual({ results: [], total: 0 });
    await t.database.db.update(blueprints).set({ visible: true }).where(eq(blueprints.id, items[1]!.id));
    expect((await list(me.authToken)).body.total).toBe(1);
  });

  it('refuses a 501st saved item with FAVORITES_FULL, and still answers 204 for one saved already', async () => {
    const me = await register(t);
    const { items } = await shopItems(2);
    const shop = await creator(t);
    const many = await t.database.db
      .insert(blueprints)
      .values(
        Array.from({ length: 499 }, (_, i) => ({
          storefrontId: shop.storefront.id,
          title: `Bulk ${i}`,
          price: 100,
          quantity: 1,
          quantityAvailable: 1,
          state: 'active' as const,
        })),
      )
      .returning({ id: blueprints.id });
    await t.database.db.insert(favorites).values(many.map((b) => ({ userId: me.id, blueprintId: b.id })));
    expect((await put(me.authToken, items[0]!.id)).status).toBe(204);
    const full = await put(me.authToken, items[1]!.id);
    expect([full.status, full.body.code]).toEqual([400, 'FAVORITES_FULL']);
    expect((await put(me.authToken, items[0]!.id)).status).toBe(204);
    expect((await list(me.authToken)).body.total).toBe(500);
  });
});
