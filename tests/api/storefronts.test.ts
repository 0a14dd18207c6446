import { describe, expect, it } from 'vitest';
import { generatedVanityUrl } from '#domain/schemas/storefronts';
import { insertBlueprint } from '../../server/seed/factory';
import { databases, type Json, register, useTestApp } from './support/harness';

/** Creating and editing a storefront (one per user, names unique, edited by its owner only) and its vanity URL. */
describe('generated vanity URL', () => {
  it('replaces spaces, strips non-word characters, cuts to 44, adds a dash and 5 random characters', () => {
    expect(generatedVanityUrl('Aria Sounds!', 'ab12cd99')).toBe('Aria-Sounds-ab12c');
    expect(generatedVanityUrl('x'.repeat(60), 'zzzzz')).toBe(`${'x'.repeat(44)}-zzzzz`);
    expect(generatedVanityUrl('¡¿?', 'q1w2e')).toBe('storefront-q1w2e');
  });
});

describe.each(databases)('POST and PATCH /api/storefronts on %s', (database) => {
  const t = useTestApp(database);
  const valid = (over: Json = {}) => ({
    name: `Shop ${Math.random().toString(36).slice(2, 8)}`,
    description: 'Hand-made loops and stems.',
    contactEmail: 'Hello@Example.com',
    ...over,
  });
  const create = (token: string, body: Json) => t.request('POST', '/api/storefronts', { token, body });

  it('creates the caller’s storefront with a generated vanity URL, light theme by default', async () => {
    const me = await register(t);
    const res = await create(me.authToken, valid({ name: 'Night Loops', category: 'music' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Night Loops',
      ownerId: me.id,
      category: 'music',
      theme: 'light',
      contactEmail: 'hello@example.com',
      enabled: true,
      logoUrl: null,
    });
    expect(res.body.vanityUrl).toMatch(/^Night-Loops-[0-9a-f]{5}$/);
    expect((await t.request('GET', `/api/storefronts/${res.body.vanityUrl}`)).body.id).toBe(res.body.id);
    expect((await t.request('GET', '/api/storefronts/me', { token: me.authToken })).body.id).toBe(
      res.body.id,
    );
  });

  it('allows one storefront per user and unique names (any case) and vanity URLs', async () => {
    const me = await register(t);
    await create(me.authToken, valid({ name: 'Unique Name', vanityUrl: 'unique-name' }));
    expect((await create(me.authToken, valid())).body).toMatchObject({ code: 'STOREFRONT_EXISTS' });
    const other = await register(t);
    expect((await create(other.authToken, valid({ name: 'unique name' }))).body).toMatchObject({
      code: 'STOREFRONT_NAME_EXISTS',
      field: 'name',
    });
    expect((await create(other.authToken, valid({ vanityUrl: 'UNIQUE-NAME' }))).body).toMatchObject({
      code: 'VANITY_URL_EXISTS',
      field: 'vanityUrl',
    });
  });

  it('validates every field with its error code', async () => {
    const me = await register(t);
    for (const [over, code, field] of [
      [{ name: 'x' }, 'INVALID_VALUE', 'name'],
      [{ name: 'x'.repeat(51) }, 'INVALID_VALUE', 'name'],
      [{ description: 'x' }, 'INVALID_VALUE', 'description'],
      [{ description: 'x'.repeat(2001) }, 'INVALID_VALUE', 'description'],
      [{ contactEmail: 'nope' }, 'INVALID_VALUE', 'contactEmail'],
      [{ contactEmail: undefined }, 'EMAIL_MISSING', 'contactEmail'],
      [{ vanityUrl: 'a b' }, 'INVALID_VANITY_URL', 'vanityUrl'],
      [{ vanityUrl: 'x' }, 'INVALID_VANITY_URL', 'vanityUrl'],
      [{ category: 'cooking' }, 'INVALID_VALUE', 'category'],
      [{ theme: 'blue' }, 'INVALID_VALUE', 'theme'],
      [{ logoUrl: 'https://elsewhere.example/logo.png' }, 'INVALID_VALUE', 'logoUrl'],
      [
        { logoUrl: '/media/uploads/00000000-0000-4000-8000-000000000000/logo.png' },
        'INVALID_VALUE',
        'logoUrl',
      ],
    ] as const) {
      const res = await create(me.authToken, valid(over as Json));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body, JSON.stringify(over)).toMatchObject({ code, field });
    }
    expect((await t.request('POST', '/api/storefronts', { body: valid() })).status).toBe(401);
  });

  it('names the limits of a length rule in its message and params', async () => {
    const me = await register(t);
    for (const [over, message, params] of [
      [{ name: 'x' }, 'Storefront name must be 2–50 characters.', { minLength: 2, maxLength: 50 }],
      [
        { description: 'x'.repeat(2001) },
        'Description must be 2–2,000 characters.',
        { minLength: 2, maxLength: 2000 },
      ],
      [
        { contactEmail: `ab@${'x'.repeat(48)}.${'y'.repeat(48)}.io` },
        'Contact email must be 3–100 characters.',
        { minLength: 3, maxLength: 100 },
      ],
    ] as const) {
      const res = await create(me.authToken, valid(over as Json));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body, JSON.stringify(over)).toMatchObject({ code: 'INVALID_VALUE', message, params });
    }
  });

  it('refuses a NUL character in a name or description with 400 INVALID_VALUE naming the field', async () => {
    const me = await register(t);
    for (const field of ['name', 'description'] as const) {
      const res = await create(me.authToken, valid({ [field]: `Hand\u0000made loops` }));
      expect(res.status, field).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_VALUE', field, message: expect.any(String) });
    }
    const shop = (await create(me.authToken, valid())).body;
    const patched = await t.request('PATCH', `/api/storefronts/${shop.id}`, {
      token: me.authToken,
      body: { description: 'Loops\u0000' },
    });
    expect(patched.status).toBe(400);
    expect(patched.body).toMatchObject({ code: 'INVALID_VALUE', field: 'description' });
    const search = await t.request('GET', '/api/storefronts?search=a%00b');
    expect(search.status).toBe(400);
    expect(search.body).toMatchObject({ code: 'INVALID_VALUE', field: 'search' });
  });

  it('lets only the owner edit or disable it; a disabled storefront leaves the public lists', async () => {
    const me = await register(t);
    const shop = (await create(me.authToken, valid({ name: 'Editable' }))).body;
    const patch = (token: string, body: Json) =>
      t.request('PATCH', `/api/storefronts/${shop.id}`, { token, body });
    const edited = await patch(me.authToken, {
      description: 'New bio for the shop.',
      theme: 'dark',
      vanityUrl: 'editable',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      description: 'New bio for the shop.',
      theme: 'dark',
      vanityUrl: 'editable',
    });
    const other = await register(t);
    expect((await patch(other.authToken, { name: 'Stolen' })).status).toBe(403);
    expect((await patch(me.authToken, { name: 'x' })).body).toMatchObject({
      code: 'INVALID_VALUE',
      field: 'name',
    });
    expect((await patch(me.authToken, { enabled: false })).body.enabled).toBe(false);
    expect((await t.request('GET', '/api/storefronts/editable')).status).toBe(404);
    expect((await t.request('GET', '/api/storefronts/editable', { token: me.authToken })).status).toBe(200);
    expect(
      (
        await t.request('PATCH', '/api/storefronts/00000000-0000-4000-8000-000000000000', {
          token: me.authToken,
          body: {},
        })
      ).status,
    ).toBe(404);
  });
  it('answers 401 to anonymous callers, 403 to other users and 404 to unknown ids, changing nothing', async () => {
    const me = await register(t);
    const shop = (await create(me.authToken, valid({ name: 'Guarded Shop' }))).body;
    const path = `/api/storefronts/${shop.id}`;
    expect((await t.request('PATCH', path, { body: { name: 'Anonymous Edit' } })).status).toBe(401);
    expect((await t.request('PATCH', path, { body: { enabled: false } })).status).toBe(401);
    const other = await register(t);
    for (const body of [{ name: 'Hijacked' }, { enabled: false }, { vanityUrl: 'hijacked' }]) {
      const res = await t.request('PATCH', path, { token: other.authToken, body });
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN' });
    }
    const unknown = await t.request('PATCH', '/api/storefronts/00000000-0000-4000-8000-00000000beef', {
      token: other.authToken,
      body: { enabled: false },
    });
    expect(unknown.status).toBe(404);
    expect((await t.request('GET', `/api/storefronts/${shop.id}`)).body).toMatchObject({
      name: 'Guarded Shop',
      vanityUrl: shop.vanityUrl,
      enabled: true,
    });
  });

  it('disabling hides the storefront and its items from visitors; enabling brings them back', async () => {
    const me = await register(t);
    const name = `Toggle ${Math.random().toString(36).slice(2, 8)}`;
    const shop = (await create(me.authToken, valid({ name }))).body;
    const item = await insertBlueprint(t.database.db, {
      storefrontId: shop.id,
      title: `${name} item`,
      price: 500,
      quantity: 5,
    });
    const listed = async () => {
      const res = await t.request('GET', `/api/storefronts?search=${encodeURIComponent(name)}`);
      expect(res.status).toBe(200);
      return (res.body.results as Json[]).map((s) => s.id);
    };
    const items = async () => {
      const res = await t.request('GET', `/api/blueprints?storefrontId=${shop.id}`);
      expect(res.status).toBe(200);
      return (res.body.results as Json[]).map((b) => b.id);
    };
    const toggle = (enabled: boolean) =>
      t.request('PATCH', `/api/storefronts/${shop.id}`, { token: me.authToken, body: { enabled } });

    expect(await listed()).toEqual([shop.id]);
    expect(await items()).toEqual([item.id]);

    const off = await toggle(false);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: shop.id, enabled: false, name });
    expect(await listed()).toEqual([]);
    expect(await items()).toEqual([]);
    expect((await t.request('GET', `/api/blueprints/${item.id}`)).status).toBe(404);
    expect((await t.request('GET', `/api/storefronts/${shop.vanityUrl}`)).status).toBe(404);
    // The owner still reaches it (the dashboard loads it).
    expect((await t.request('GET', '/api/storefronts/me', { token: me.authToken })).body.enabled).toBe(false);

    const on = await toggle(true);
    expect(on.body.enabled).toBe(true);
    expect(await listed()).toEqual([shop.id]);
    expect(await items()).toEqual([item.id]);
    expect((await t.request('GET', `/api/blueprints/${item.id}`)).status).toBe(200);
  });
});
