import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { blueprintRegistrations, blueprints } from '../../server/db/schema';
import { bothDatabases, type Json, register, type TestApi, useTestApp } from './support/harness';
import { uploadImage } from './support/uploads';

/** A creator's products, for the storefront's owner only: drafts, editing, publishing, hide/show and cancel. */
async function creator(t: TestApi) {
  const me = await register(t);
  const storefront = await t.request('POST', '/api/storefronts', {
    token: me.authToken,
    body: {
      name: `Shop ${Math.random().toString(36).slice(2, 8)}`,
      description: 'Loops',
      contactEmail: 'a@b.co',
    },
  });
  const previewImageUrl = await uploadImage(t, me.authToken, 'blueprintPreviewImage');
  const assetUrl = await uploadImage(t, me.authToken, 'blueprintAsset', { format: 'jpeg' });
  return { ...me, storefrontId: storefront.body.id as string, previewImageUrl, assetUrl };
}

describe.each(bothDatabases)('POST and PATCH /api/blueprints on %s', (database) => {
  const t = useTestApp(database);
  type Creator = Awaited<ReturnType<typeof creator>>;
  const draft = (c: Creator, over: Json = {}) => ({
    title: 'Night Loop #1',
    description: 'A looping night drive.',
    price: 2500,
    quantity: 10,
    previewImageUrl: c.previewImageUrl,
    assetUrl: c.assetUrl,
    optimizePreview: true,
    optimizeAsset: false,
    ...over,
  });
  const post = (token: string | undefined, body: Json) =>
    t.request('POST', '/api/blueprints', { token, body });
  const patch = (token: string | undefined, id: string, body: Json) =>
    t.request('PATCH', `/api/blueprints/${id}`, { token, body });
  const setState = (id: string, state: 'active' | 'soldOut') =>
    t.database.db.update(blueprints).set({ state, status: null }).where(eq(blueprints.id, id));

  it('adds a standalone draft to the caller’s storefront, seen by the owner only', async () => {
    const c = await creator(t);
    const res = await post(c.authToken, draft(c));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Night Loop #1',
      price: 2500,
      quantity: 10,
      quantityAvailable: 10,
      state: 'created',
      status: null,
      visible: true,
      type: 'standalone',
      drop: false,
      royaltyPercent: 10,
      totalFeePercent: 5,
      previewImageUrl: c.previewImageUrl,
      assetUrl: c.assetUrl,
      storefront: { id: c.storefrontId },
    });
    expect((await t.request('GET', `/api/blueprints/${res.body.id}`, { token: c.authToken })).status).toBe(
      200,
    );
    expect((await t.request('GET', `/api/blueprints/${res.body.id}`)).status).toBe(404);
    const mine = await t.request('GET', `/api/blueprints?storefrontId=${c.storefrontId}&states=created`, {
      token: c.authToken,
    });
    expect(mine.body.results.map((b: Json) => b.id)).toEqual([res.body.id]);
    expect((await t.request('GET', `/api/blueprints?storefrontId=${c.storefrontId}`)).body.total).toBe(0);
  });

  it('needs a login and a storefront', async () => {
    const c = await creator(t);
    expect((await post(undefined, draft(c))).status).toBe(401);
    const other = await register(t);
    expect((await post(other.authToken, draft(c))).body).toMatchObject({ code: 'NO_STOREFRONT' });
  });

  it('validates every field of the blueprint form with its error code', async () => {
    const c = await creator(t);
    const code = async (over: Json) => {
      const res = await post(c.authToken, draft(c, over));
      expect(res.status).toBe(400);
      return [res.body.code, res.body.field];
    };
    expect(await code({ title: '  ' })).toEqual(['INVALID_VALUE', 'title']);
    expect(await code({ title: 'x'.repeat(201) })).toEqual(['INVALID_VALUE', 'title']);
    expect(await code({ description: '' })).toEqual(['INVALID_VALUE', 'description']);
    expect(await code({ description: 'x'.repeat(2001) })).toEqual(['INVALID_VALUE', 'description']);
    expect(await code({ price: -1 })).toEqual(['INVALID_VALUE', 'price']);
    expect(await code({ price: 1_000_001 })).toEqual(['INVALID_VALUE', 'price']);
    expect(await code({ price: 12.5 })).toEqual(['INVALID_VALUE', 'price']);
    expect(await code({ price: '25' })).toEqual(['INVALID_VALUE', 'price']);
    expect(await code({ quantity: 0 })).toEqual(['INVALID_VALUE', 'quantity']);
    expect(await code({ quantity: 10_001 })).toEqual(['INVALID_VALUE', 'quantity']);
    expect(await code({ royaltyPercent: 51 })).toEqual(['INVALID_VALUE', 'royaltyPercent']);
    expect(await code({ type: 'sticker' })).toEqual(['INVALID_VALUE', 'type']);
    expect(await code({ drop: true })).toEqual(['INVALID_VALUE', 'drop']);
    expect(await code({ previewImageUrl: undefined })).toEqual(['preview_required', 'previewImageUrl']);
    expect(await code({ assetUrl: undefined })).toEqual(['asset_required', 'assetUrl']);
    // Not uploaded, or someone else's upload.
    expect(await code({ previewImageUrl: `/media/uploads/${c.id}/never.png` })).toEqual([
      'preview_required',
      'previewImageUrl',
    ]);
    const other = await creator(t);
    expect(await code({ assetUrl: other.assetUrl })).toEqual(['asset_required', 'assetUrl']);
    // Not a file, or a file of another kind that breaks the preview's rules (min 200×200).
    expect(await code({ previewImageUrl: `/media/uploads/${c.id}/..` })).toEqual([
      'preview_required',
      'previewImageUrl',
    ]);
    const logo = await uploadImage(t, c.authToken, 'storefrontLogo', { width: 150, height: 150 });
    expect(await code({ previewImageUrl: logo })).toEqual(['IMAGE_MIN_WIDTH', 'previewImageUrl']);
    // The limits themselves are accepted.
    const edge = await post(c.authToken, draft(c, { title: 'x', price: 1, quantity: 10_000 }));
    expect(edge.status).toBe(201);
    expect((await post(c.authToken, draft(c, { price: 1_000_000, quantity: 1 }))).status).toBe(201);
    // A price of 0 makes a free item, claimed instead of bought.
    expect((await post(c.authToken, draft(c, { price: 0, quantity: 1 }))).body.price).toBe(0);
  });

  it('lets only the owner edit a draft; publishing locks it and starts the publishing job', async () => {
    const c = await creator(t);
    const { id } = (await post(c.authToken, draft(c))).body;
    const other = await creator(t);
    expect((await patch(undefined, id, { title: 'Mine' })).status).toBe(401);
    expect((await patch(other.authToken, id, { title: 'Mine' })).status).toBe(403);
    expect((await patch(other.authToken, id, { status: 'readyToSell' })).status).toBe(403);
    expect((await patch(c.authToken, '00000000-0000-4000-8000-000000000000', { title: 'x' })).status).toBe(
      404,
    );

    const edited = await patch(c.authToken, id, { title: 'Night Loop #2', quantity: 5, price: 1999 });
    expect(edited.body).toMatchObject({
      title: 'Night Loop #2',
      quantity: 5,
      quantityAvailable: 5,
      price: 1999,
    });
    expect((await patch(c.authToken, id, { assetUrl: other.assetUrl })).body.code).toBe('asset_required');
    // Hide/show and cancel are for items on sale.
    expect((await patch(c.authToken, id, { visible: false })).body).toMatchObject({
      code: 'BLUEPRINT_STATE',
      field: 'visible',
    });
    expect((await patch(c.authToken, id, { state: 'canceled' })).body.code).toBe('BLUEPRINT_STATE');

    const published = await patch(c.authToken, id, { status: 'readyToSell' });
    expect(published.body).toMatchObject({ state: 'created', status: 'readyToSell' });
    const [job] = await t.database.db
      .select()
      .from(blueprintRegistrations)
      .where(eq(blueprintRegistrations.blueprintId, id));
    expect(job).toMatchObject({ status: 'pending', flowBlueprintId: Number(published.body.flowBlueprintId) });
    expect((await patch(c.authToken, id, { title: 'Late edit' })).body.code).toBe('BLUEPRINT_LOCKED');
    expect((await patch(c.authToken, id, { status: 'readyToSell' })).body.code).toBe('BLUEPRINT_STATE');
    // Still not public while it is being published.
    expect((await t.request('GET', `/api/blueprints/${id}`)).status).toBe(404);
  });

  it('locks a draft whose publishing job exists, and refuses a second publish of the same draft', async () => {
    const c = await creator(t);
    const { id, flowBlueprintId } = (await post(c.authToken, draft(c))).body;
    // Two publishes at once: one wins, the other finds it no longer a draft.
    const both = await Promise.all([
      patch(c.authToken, id, { status: 'readyToSell' }),
      patch(c.authToken, id, { status: 'readyToSell' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(both.find((r) => r.status === 400)!.body.code).toBe('BLUEPRINT_STATE');
    // An upcoming drop (available) already registered on chain cannot be edited.
    const drop = (await post(c.authToken, draft(c))).body;
    await t.database.db.update(blueprints).set({ state: 'available' }).where(eq(blueprints.id, drop.id));
    expect((await patch(c.authToken, drop.id, { title: 'Still a draft' })).status).toBe(200);
    await t.database.db.insert(blueprintRegistrations).values({
      blueprintId: drop.id,
      flowBlueprintId: Number(drop.flowBlueprintId),
      status: 'sealed',
    });
    expect((await patch(c.authToken, drop.id, { price: 1 })).body.code).toBe('BLUEPRINT_LOCKED');
    expect(flowBlueprintId).toMatch(/^\d+$/);
  });

  it('hides, shows and cancels items on sale; a canceled item stays canceled', async () => {
    const c = await creator(t);
    const { id } = (await post(c.authToken, draft(c))).body;
    await setState(id, 'active');
    const visitorSees = async () =>
      (await t.request('GET', `/api/blueprints?storefrontId=${c.storefrontId}`)).body.results.length;
    expect(await visitorSees()).toBe(1);
    expect((await patch(c.authToken, id, { title: 'On chain now' })).body.code).toBe('BLUEPRINT_LOCKED');
    expect((await patch(c.authToken, id, { status: 'readyToSell' })).body.code).toBe('BLUEPRINT_STATE');
    expect((await patch(c.authToken, id, { visible: false })).body).toMatchObject({ visible: false });
    expect(await visitorSees()).toBe(0);
    expect((await patch(c.authToken, id, { visible: true })).body).toMatchObject({ visible: true });
    expect(await visitorSees()).toBe(1);
    const other = await register(t);
    expect((await patch(other.authToken, id, { state: 'canceled' })).status).toBe(403);
    expect((await patch(c.authToken, id, { state: 'active' })).body).toMatchObject({
      code: 'INVALID_VALUE',
      field: 'state',
    });
    expect((await patch(c.authToken, id, { state: 'canceled' })).body).toMatchObject({ state: 'canceled' });
    expect(await visitorSees()).toBe(0);
    expect((await patch(c.authToken, id, { state: 'canceled' })).body.code).toBe('BLUEPRINT_STATE');
    expect((await patch(c.authToken, id, { visible: false })).body).toMatchObject({
      state: 'canceled',
      visible: false,
    });
    // Sold-out items can be hidden and shown too.
    const sold = (await post(c.authToken, draft(c))).body.id;
    await setState(sold, 'soldOut');
    expect((await patch(c.authToken, sold, { visible: false })).status).toBe(200);
    expect((await patch(c.authToken, sold, { state: 'canceled' })).body.code).toBe('BLUEPRINT_STATE');
  });
});
