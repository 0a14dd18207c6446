import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { HistoryAnswer } from '#domain/schemas/history';
import {
  blueprintPacks,
  blueprints,
  nftPurchases,
  nfts,
  saleListings,
  storefrontReports,
  storefronts,
  users,
} from '../../server/db/schema';
import { insertBlueprint, insertPack, insertStorefront, insertUser } from '../../server/seed/factory';
import { seedLargeWorld } from '../../server/seed/large';
import { bothDatabases, type Json, register, useTestApp } from './support/harness';

/** The catalog API with its filters: storefronts, blueprints, packs, history, reports, share. */
describe.each(bothDatabases)('catalog on %s', (database) => {
  const t = useTestApp(database);
  const ids: Record<string, string> = {};
  const day = 86_400_000;

  beforeAll(async () => {
    const db = t.database.db;
    const base = new Date('2026-01-01T00:00:00Z').getTime();
    const owner = async (n: string) =>
      insertUser(db, { email: `${n}@example.com`, username: n, firstName: n, walletAddress: undefined });
    const music = await insertStorefront(db, {
      ownerId: (await owner('aria')).id,
      name: 'Aria Sounds',
      vanityUrl: 'aria-sounds',
      category: 'music',
      theme: 'dark',
      createdAt: new Date(base),
    });
    const art = await insertStorefront(db, {
      ownerId: (await owner('brush')).id,
      name: 'Brush & Pixel',
      vanityUrl: 'brush-pixel',
      category: 'digitalArt',
      createdAt: new Date(base + day),
    });
    const hidden = await insertStorefront(db, {
      ownerId: (await owner('ghost')).id,
      name: 'Ghost Shop',
      vanityUrl: 'ghost-shop',
      category: 'gaming',
      enabled: false,
      createdAt: new Date(base + 2 * day),
    });
    const empty = await insertStorefront(db, {
      ownerId: (await owner('empty')).id,
      name: 'Empty Shelf',
      vanityUrl: 'empty-shelf',
      category: 'music',
      createdAt: new Date(base + 3 * day),
    });
    Object.assign(ids, { music: music.id, art: art.id, hidden: hidden.id, empty: empty.id });
    const bp = (storefrontId: string, title: string, price: number, extra = {}) =>
      insertBlueprint(db, { storefrontId, title, price, quantity: 10, ...extra });
    ids.harbor = (await bp(music.id, 'Harbor Lights', 2500, { rarityLevel: 'rare' })).id;
    ids.dunes = (await bp(music.id, 'Quiet Dunes 100%', 900, { quantity: 50 })).id;
    ids.free = (await bp(music.id, 'Free Sampler', 0)).id;
    ids.soldOut = (await bp(art.id, 'Neon Harbor', 12_000, { state: 'soldOut', quantityAvailable: 0 })).id;
    ids.draft = (await bp(art.id, 'Draft Harbor', 100, { state: 'created' })).id;
    ids.hiddenItem = (await bp(art.id, 'Hidden Harbor', 100, { visible: false })).id;
    ids.offline = (await bp(hidden.id, 'Offline Harbor', 100)).id;
    const pack = await insertPack(db, {
      storefrontId: art.id,
      title: 'Starter Pack',
      price: 3000,
      quantity: 100,
    });
    ids.pack = pack.id;
    // Given no price of its own: a card of a pack is listed at its pack's price.
    ids.inPack = (
      await bp(art.id, 'Pack Card', 0, { type: 'standaloneInPack', blueprintPackId: pack.id })
    ).id;
  });

  const get = async (path: string) => t.request('GET', `/api${path}`);
  const titles = (body: Json) => (body.results as Json[]).map((b) => b.title);

  describe('GET /api/blueprints', () => {
    it('lists what visitors may see, cheapest first by default, with its storefront and the total', async () => {
      const res = await get('/blueprints');
      expect(res.status).toBe(200);
      // Only the free item comes first: the card of a pack sorts at its pack's price.
      expect(titles(res.body)).toEqual([
        'Free Sampler',
        'Quiet Dunes 100%',
        'Harbor Lights',
        'Pack Card',
        'Neon Harbor',
      ]);
      expect(res.body.total).toBe(5);
      expect(res.body.results[2]).toMatchObject({
        id: ids.harbor,
        price: 2500,
        quantity: 10,
        quantityAvailable: 10,
        rarityLevel: 'rare',
        state: 'active',
        isSoldOut: false,
        storefront: { id: ids.music, name: 'Aria Sounds', theme: 'dark', vanityUrl: 'aria-sounds' },
      });
      expect(res.body.results[2].flowBlueprintId).toMatch(/^\d+$/);
      expect(res.body.results[2].pack).toBeNull();
    });

    it('lists a card of a pack at its pack’s price, naming its pack, whose editions left are the card’s', async () => {
      const starter = {
        id: ids.pack,
        title: 'Starter Pack',
        price: 3000,
        quantity: 100,
        quantityAvailable: 100,
        state: 'available',
        availableTime: null,
        coverImageUrl: null,
      };
      const listed = (await get('/blueprints')).body.results.find((b: Json) => b.id === ids.inPack);
      expect(listed).toMatchObject({ price: 3000, blueprintPackId: ids.pack, pack: starter, isInPack: true });
      expect((await get(`/blueprints/${ids.inPack}`)).body).toMatchObject({ price: 3000, pack: starter });
      expect((await get(`/blueprint-packs/${ids.pack}`)).body.blueprints[0].pack).toEqual(starter);
      expect(titles((await get('/blueprints?min=2600&max=3000')).body)).toEqual(['Pack Card']);
      // A hidden pack is no pack to offer: its card names none.
      await t.database.db
        .update(blueprintPacks)
        .set({ visible: false })
        .where(eq(blueprintPacks.id, ids.pack!));
      try {
        expect((await get(`/blueprints/${ids.inPack}`)).body).toMatchObject({
          blueprintPackId: ids.pack,
          pack: null,
        });
      } finally {
        await t.database.db
          .update(blueprintPacks)
          .set({ visible: true })
          .where(eq(blueprintPacks.id, ids.pack!));
      }
    });

    it('counts as available only the matches that can be bought or claimed now', async () => {
      const available = async (query = '') =>
        (await get(`/blueprints?countAvailable=true${query.replace('?', '&')}`)).body.available;
      // Counted only when asked: a page of a list does not read every match's row.
      expect((await get('/blueprints')).body).not.toHaveProperty('available');
      expect((await get('/blueprints?countAvailable=true')).body).toMatchObject({
        total: 5,
        available: 4,
        availableCapped: false,
      });
      // Free Sampler, Quiet Dunes and Harbor Lights on their own, Pack Card with its pack; not the
      // sold-out Neon Harbor.
      expect(await available()).toBe(4);
      expect(await available('?search=harbor')).toBe(1);
      expect(await available('?storefrontCategories=digitalArt')).toBe(1);
      const db = t.database.db;
      // The pack's last unit is sold: its card is had no more; an item with no edition left, or
      // one not live yet, cannot be bought either.
      await db.update(blueprintPacks).set({ quantityAvailable: 0 }).where(eq(blueprintPacks.id, ids.pack!));
      await db.update(blueprints).set({ quantityAvailable: 0 }).where(eq(blueprints.id, ids.dunes!));
      await db
        .update(blueprints)
        .set({ availableTime: new Date(t.clock.now().getTime() + day) })
        .where(eq(blueprints.id, ids.free!));
      try {
        expect(await available()).toBe(1);
        expect(await available('?storefrontCategories=digitalArt')).toBe(0);
        expect(await available('?search=harbor')).toBe(1);
        expect((await get('/blueprints')).body.total).toBe(5);
        const card = (await get(`/blueprints/${ids.inPack}`)).body;
        expect(card.pack.quantityAvailable).toBe(0);
        // Its own row still says 10 of 10: what it shows is its pack's.
        expect(card.quantityAvailable).toBe(10);
      } finally {
        await db
          .update(blueprintPacks)
          .set({ quantityAvailable: 100 })
          .where(eq(blueprintPacks.id, ids.pack!));
        await db.update(blueprints).set({ quantityAvailable: 50 }).where(eq(blueprints.id, ids.dunes!));
        await db.update(blueprints).set({ availableTime: null }).where(eq(blueprints.id, ids.free!));
      }
      expect(await available()).toBe(4);
    });

    it('filters by price in cents (inclusive), title search (case-insensitive, wildcards literal) and categories', async () => {
      expect(titles((await get('/blueprints?min=900&max=2500')).body)).toEqual([
        'Quiet Dunes 100%',
        'Harbor Lights',
      ]);
      expect(titles((await get('/blueprints?search=HARBOR')).body)).toEqual(['Harbor Lights', 'Neon Harbor']);
      expect(titles((await get('/blueprints?search=100%25')).body)).toEqual(['Quiet Dunes 100%']);
      expect(titles((await get('/blueprints?search=_')).body)).toEqual([]);
      expect(titles((await get('/blueprints?storefrontCategories=digitalArt')).body)).toEqual([
        'Pack Card',
        'Neon Harbor',
      ]);
      expect((await get('/blueprints?storefrontCategories=music,digitalArt')).body.total).toBe(5);
      expect(titles((await get(`/blueprints?storefrontId=${ids.music}&states=soldOut`)).body)).toEqual([]);
      expect(titles((await get('/blueprints?states=soldOut')).body)).toEqual(['Neon Harbor']);
    });

    it('sorts by price, quantity or created date in either direction, and pages with from/to', async () => {
      expect(titles((await get('/blueprints?sort[column]=price&sort[direction]=desc')).body)[0]).toBe(
        'Neon Harbor',
      );
      expect(titles((await get('/blueprints?sort[column]=quantity&sort[direction]=desc')).body)[0]).toBe(
        'Quiet Dunes 100%',
      );
      const all = titles((await get('/blueprints')).body);
      const page = await get('/blueprints?from=2&to=3');
      expect(titles(page.body)).toEqual(all.slice(1, 3));
      expect(page.body.total).toBe(5);
    });

    it('sorts and pages a title search like the whole list (its page and total come from one statement)', async () => {
      for (const column of ['price', 'quantity', 'createdAt'])
        for (const direction of ['asc', 'desc']) {
          const sort = `sort[column]=${column}&sort[direction]=${direction}`;
          const all = titles((await get(`/blueprints?${sort}`)).body).filter((title) =>
            /harbor/i.test(title),
          );
          expect(all).toHaveLength(2);
          expect(titles((await get(`/blueprints?search=harbor&${sort}`)).body)).toEqual(all);
          const second = await get(`/blueprints?search=harbor&${sort}&from=2&to=2`);
          expect(titles(second.body)).toEqual(all.slice(1));
          expect(second.body.total).toBe(2);
        }
      // A page past the last match is empty and still tells the total.
      expect((await get('/blueprints?search=harbor&from=5&to=6')).body).toMatchObject({
        results: [],
        total: 2,
      });
      expect((await get('/blueprints?search=zzzqqq')).body).toMatchObject({ results: [], total: 0 });
    });

    it('shows the owner their drafts and hidden items, never a visitor', async () => {
      expect(titles((await get(`/blueprints?storefrontId=${ids.art}&states=created`)).body)).toEqual([]);
      const db = t.database.db;
      const me = await register(t);
      const mine = await insertStorefront(db, { ownerId: me.id, name: 'Mine', vanityUrl: 'mine-1' });
      await insertBlueprint(db, {
        storefrontId: mine.id,
        title: 'My Draft',
        price: 1,
        quantity: 1,
        state: 'created',
      });
      await insertBlueprint(db, {
        storefrontId: mine.id,
        title: 'My Hidden',
        price: 2,
        quantity: 1,
        visible: false,
      });
      const res = await t.request('GET', `/api/blueprints?storefrontId=${mine.id}`, { token: me.authToken });
      expect(titles(res.body)).toEqual(['My Draft', 'My Hidden']);
      expect(titles((await get(`/blueprints?storefrontId=${mine.id}`)).body)).toEqual([]);
    });

    it('refuses bad filters with the field named, never a 500', async () => {
      for (const [query, field] of [
        ['min=abc', 'min'],
        ['max=-1', 'max'],
        ['min=500&max=100', 'max'],
        ['states=sleeping', 'states'],
        ['storefrontCategories=cooking', 'storefrontCategories'],
        ['sort[column]=title', 'sort[column]'],
        ['sort[direction]=up', 'sort[direction]'],
        ['from=0', 'from'],
        ['from=1&to=500', 'to'],
        ['storefrontId=nope', 'storefrontId'],
        [`search=${'x'.repeat(101)}`, 'search'],
      ]) {
        const res = await get(`/blueprints?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body, query).toMatchObject({ code: 'INVALID_VALUE', field });
      }
    });
  });

  describe('GET /api/blueprints/{id} and its history', () => {
    it('answers a visible blueprint and 404 for drafts, hidden items, disabled storefronts and unknown ids', async () => {
      expect((await get(`/blueprints/${ids.harbor}`)).body.title).toBe('Harbor Lights');
      for (const id of [
        ids.draft,
        ids.hiddenItem,
        ids.offline,
        '00000000-0000-4000-8000-000000000000',
        'nope',
      ]) {
        expect((await get(`/blueprints/${id}`)).status, id).toBe(404);
      }
    });

    it('lists purchases newest first, then the creation', async () => {
      const harbor = (await get(`/blueprints/${ids.harbor}`)).body;
      const buyer = await register(t);
      const db = t.database.db;
      const blueprintId = Number(harbor.flowBlueprintId);
      for (const serial of [1, 2]) {
        await db.insert(nfts).values({
          id: `${blueprintId}${serial}`,
          blueprintId,
          serialNumber: serial,
          owner: '0x01cf0e2f2f715450',
        });
        await db.insert(nftPurchases).values({
          transactionId: `${'a'.repeat(63)}${serial}`,
          buyerId: buyer.id,
          walletAddress: '0x01cf0e2f2f715450',
          nftId: `${blueprintId}${serial}`,
          type: 'directPurchase',
          amount: 2500,
          purchasedOn: new Date(Date.UTC(2026, 5, serial)),
        });
      }
      const res = await get(`/blueprints/${ids.harbor}/history`);
      expect(res.status).toBe(200);
      expect(res.body.results.map((h: Json) => [h.type, h.seriesNumber, h.user.name])).toEqual([
        ['purchase', 2, buyer.username],
        ['purchase', 1, buyer.username],
        ['creation', null, 'Aria Sounds'],
      ]);
    });
  });

  describe('GET /api/nfts/{id}/history', () => {
    it('lists the edition’s purchases, primary and resales, newest first, then its mint by the storefront', async () => {
      const neon = (await get(`/blueprints/${ids.soldOut}`)).body;
      const db = t.database.db;
      const blueprintId = Number(neon.flowBlueprintId);
      const [first, second] = [await register(t), await register(t)];
      await t.database.db
        .update(users)
        .set({ avatarUrl: '/media/uploads/u/avatar.png' })
        .where(eq(users.id, second.id));
      const mintedAt = new Date('2026-06-01T09:00:00.000Z');
      for (const serial of [4, 5]) {
        await db.insert(nfts).values({
          id: `${blueprintId}00${serial}`,
          blueprintId,
          serialNumber: serial,
          owner: '0x01cf0e2f2f715450',
          createdAt: mintedAt,
        });
      }
      const nftId = `${blueprintId}004`;
      const purchase = (
        n: number,
        values: { buyerId?: string; walletAddress: string; type: string; day: number },
      ) =>
        db.insert(nftPurchases).values({
          transactionId: `${'c'.repeat(62)}${n}${values.day}`,
          buyerId: values.buyerId ?? null,
          walletAddress: values.walletAddress,
          nftId: n === 5 ? `${blueprintId}005` : nftId,
          type: values.type,
          amount: 12_000,
          purchasedOn: new Date(Date.UTC(2026, 5, values.day, 9)),
        });
      await purchase(4, {
        buyerId: first.id,
        walletAddress: '0x01cf0e2f2f715450',
        type: 'directPurchase',
        day: 1,
      });
      await purchase(4, {
        buyerId: second.id,
        walletAddress: '0x179b6b1cb6755e31',
        type: 'saleListing',
        day: 3,
      });
      // A buyer without an account here shows by the wallet that paid, shortened.
      await purchase(4, { walletAddress: '0xf8d6e0586b0a20c7', type: 'saleListing', day: 5 });
      // Another edition's purchase is not this NFT's history.
      await purchase(5, {
        buyerId: first.id,
        walletAddress: '0x01cf0e2f2f715450',
        type: 'directPurchase',
        day: 4,
      });

      const res = await get(`/nfts/${nftId}/history`);
      expect(res.status).toBe(200);
      const answer = v.parse(HistoryAnswer, res.body);
      expect(answer.results.map((h) => [h.type, h.user.name, h.seriesNumber, h.createdAt])).toEqual([
        ['purchase', '0xf8d6…20c7', 4, '2026-06-05T09:00:00.000Z'],
        ['purchase', second.username, 4, '2026-06-03T09:00:00.000Z'],
        ['purchase', first.username, 4, '2026-06-01T09:00:00.000Z'],
        ['creation', 'Brush & Pixel', 4, mintedAt.toISOString()],
      ]);
      expect(answer.results[1]!.user).toEqual({
        name: second.username,
        avatarUrl: '/media/uploads/u/avatar.png',
        seed: expect.any(String),
      });
      expect(answer.results[3]!.id).toBe(`creation-${nftId}`);
    });

    it('lists at most the newest 10 purchases; 404 for an unknown or malformed token id', async () => {
      const db = t.database.db;
      await db
        .insert(nfts)
        .values({ id: '770001', blueprintId: 770, serialNumber: 1, owner: '0x01cf0e2f2f715450' });
      for (let day = 1; day <= 12; day++)
        await db.insert(nftPurchases).values({
          transactionId: `${'d'.repeat(60)}${String(day).padStart(4, '0')}`,
          walletAddress: '0x01cf0e2f2f715450',
          nftId: '770001',
          type: 'saleListing',
          amount: 100,
          purchasedOn: new Date(Date.UTC(2026, 6, day)),
        });
      const res = await get('/nfts/770001/history');
      expect(res.status).toBe(200);
      expect(res.body.results).toHaveLength(11);
      expect(res.body.results[0].createdAt).toBe('2026-07-12T00:00:00.000Z');
      // A blueprint Vitrine does not know: its creator is not known either.
      expect(res.body.results[10]).toMatchObject({
        type: 'creation',
        seriesNumber: 1,
        user: { name: 'Unknown creator' },
      });
      expect((await get('/nfts/999999999/history')).status).toBe(404);
      expect((await get('/nfts/abc/history')).status).toBe(404);
    });
  });

  describe('blueprint packs', () => {
    it('lists visible packs and answers one with its blueprints', async () => {
      const list = await get('/blueprint-packs');
      expect(list.body.results.map((p: Json) => p.title)).toEqual(['Starter Pack']);
      const pack = await get(`/blueprint-packs/${ids.pack}`);
      expect(pack.body).toMatchObject({ title: 'Starter Pack', price: 3000, isPack: true });
      expect(pack.body.blueprints.map((b: Json) => b.title)).toEqual(['Pack Card']);
      expect((await get('/blueprint-packs?type=sticker')).body.total).toBe(0);
      expect((await get('/blueprint-packs?type=hat')).status).toBe(400);
    });
  });

  describe('storefronts', () => {
    it('lists enabled storefronts newest first with previews; search, categories, hasBlueprints and sort', async () => {
      const names = async (q: string) =>
        (await get(`/storefronts${q}`)).body.results.map((s: Json) => s.name);
      expect(await names('')).toEqual(
        expect.arrayContaining(['Empty Shelf', 'Brush & Pixel', 'Aria Sounds']),
      );
      expect(await names('')).not.toContain('Ghost Shop');
      expect((await names('?sort[direction]=asc'))[0]).toBe('Aria Sounds');
      expect(await names('?search=pixel')).toEqual(['Brush & Pixel']);
      expect(await names('?categories=music')).toEqual(['Empty Shelf', 'Aria Sounds']);
      expect(await names('?categories=music&hasBlueprints=true')).toEqual(['Aria Sounds']);
      expect(await names('?categories=music&hasBlueprints=false')).toEqual(['Empty Shelf']);
      const aria = (await get('/storefronts?search=aria')).body.results[0];
      expect(aria.previews.map((p: Json) => p.title).sort()).toEqual([
        'Free Sampler',
        'Harbor Lights',
        'Quiet Dunes 100%',
      ]);
      expect((await get('/storefronts?categories=cooking')).status).toBe(400);
    });

    it('answers a storefront by id or vanity URL (any case); disabled ones are not found', async () => {
      expect((await get(`/storefronts/${ids.music}`)).body.name).toBe('Aria Sounds');
      expect((await get('/storefronts/ARIA-SOUNDS')).body.id).toBe(ids.music);
      expect((await get('/storefronts/ghost-shop')).status).toBe(404);
      expect((await get('/storefronts/no such')).status).toBe(404);
    });

    it('GET /api/storefronts/me answers the caller’s storefront, 404 without one, 401 logged out', async () => {
      const me = await register(t);
      expect((await t.request('GET', '/api/storefronts/me', { token: me.authToken })).status).toBe(404);
      await insertStorefront(t.database.db, {
        ownerId: me.id,
        name: `Shop ${me.username}`,
        vanityUrl: `shop-${me.username}`,
      });
      const res = await t.request('GET', '/api/storefronts/me', { token: me.authToken });
      expect(res.body.ownerId).toBe(me.id);
      expect((await get('/storefronts/me')).status).toBe(401);
    });

    it('shares the public link with social links and the caption', async () => {
      const res = await get(
        `/queries/storefront-share?storefrontId=${ids.music}&caption=${encodeURIComponent('Listen!')}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.url).toMatch(/\/s\/aria-sounds$/);
      expect(res.body.text).toBe('Listen!');
      expect(res.body.links.twitter).toContain(encodeURIComponent(res.body.url));
      expect((await get(`/queries/storefront-share?storefrontId=${ids.hidden}`)).status).toBe(404);
    });
  });

  describe('POST /api/storefront-reports', () => {
    it('records a report of a logged-in user; a reason is required and the description is at most 200', async () => {
      const me = await register(t);
      const post = (body: object) =>
        t.request('POST', '/api/storefront-reports', { token: me.authToken, body });
      const ok = await post({ storefrontId: ids.art, reason: 'misleading', description: 'Not as described' });
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ storefrontId: ids.art, reason: 'misleading', status: 'created' });
      expect((await post({ storefrontId: ids.art })).body).toMatchObject({
        code: 'missing',
        field: 'reason',
      });
      expect(
        (await post({ storefrontId: ids.art, reason: 'other', description: 'x'.repeat(201) })).body,
      ).toMatchObject({
        code: 'INVALID_VALUE',
        field: 'description',
      });
      expect(
        (await post({ storefrontId: '00000000-0000-4000-8000-000000000000', reason: 'other' })).status,
      ).toBe(404);
      const anonymous = await t.request('POST', '/api/storefront-reports', {
        body: { storefrontId: ids.art, reason: 'other' },
      });
      expect(anonymous.status).toBe(401);
    });

    it('refuses a NUL character in a report or a search with 400 INVALID_VALUE naming the field', async () => {
      const me = await register(t);
      const report = await t.request('POST', '/api/storefront-reports', {
        token: me.authToken,
        body: { storefrontId: ids.art, reason: 'other', description: 'a\u0000b' },
      });
      expect(report.status).toBe(400);
      expect(report.body).toMatchObject({ code: 'INVALID_VALUE', field: 'description' });
      for (const path of [
        '/blueprints?search=a%00b',
        '/storefronts?search=%00',
        '/blueprint-packs?type=%00',
      ]) {
        const res = await get(path);
        expect(res.status, path).toBe(400);
        expect(res.body, path).toMatchObject({ code: 'INVALID_VALUE', field: path.split(/[?=]/)[1] });
      }
    });

    it('answers 409 ALREADY_REPORTED to a second report of the same storefront by the same user', async () => {
      const me = await register(t);
      const post = (token: string, body: object) =>
        t.request('POST', '/api/storefront-reports', { token, body });
      expect((await post(me.authToken, { storefrontId: ids.music, reason: 'offensive' })).status).toBe(201);
      const again = await post(me.authToken, {
        storefrontId: ids.music,
        reason: 'other',
        description: 'Still',
      });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        code: 'ALREADY_REPORTED',
        message: 'You have already reported this storefront.',
      });
      // Another storefront, or another user: a new report.
      expect((await post(me.authToken, { storefrontId: ids.empty, reason: 'other' })).status).toBe(201);
      const other = await register(t);
      expect((await post(other.authToken, { storefrontId: ids.music, reason: 'other' })).status).toBe(201);
      const stored = await t.database.db
        .select({ userId: storefrontReports.userId })
        .from(storefrontReports)
        .where(eq(storefrontReports.storefrontId, ids.music!));
      expect(stored.filter((r) => r.userId === me.id)).toHaveLength(1);
    });

    it('records one of concurrent duplicate reports and answers 409 to the others, never a 500', async () => {
      const me = await register(t);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          t.request('POST', '/api/storefront-reports', {
            token: me.authToken,
            body: { storefrontId: ids.art, reason: 'illegal' },
          }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body.code).toBe('ALREADY_REPORTED');
      const stored = await t.database.db
        .select()
        .from(storefrontReports)
        .where(eq(storefrontReports.userId, me.id));
      expect(stored).toHaveLength(1);
    });
  });
});

describe.each(bothDatabases)('marketplace at scale on %s', (database) => {
  const t = useTestApp(database);

  it('follows a storefront’s category and enabled flag (copied onto its blueprints by triggers)', async () => {
    const db = t.database.db;
    const owner = await insertUser(db, { email: 'shift@example.com', username: 'shift', firstName: 'Shift' });
    const shop = await insertStorefront(db, {
      ownerId: owner.id,
      name: 'Shifty',
      vanityUrl: 'shifty',
      category: 'music',
    });
    await insertBlueprint(db, { storefrontId: shop.id, title: 'Shifting Sands', price: 100, quantity: 1 });
    const titles = async (q: string) =>
      (await t.request('GET', `/api/blueprints?${q}`)).body.results.map((b: Json) => b.title);
    expect(await titles('storefrontCategories=music')).toContain('Shifting Sands');
    await db.update(storefronts).set({ category: 'sports' }).where(eq(storefronts.id, shop.id));
    expect(await titles('storefrontCategories=music')).not.toContain('Shifting Sands');
    expect(await titles('storefrontCategories=sports')).toContain('Shifting Sands');
    await db.update(storefronts).set({ enabled: false }).where(eq(storefronts.id, shop.id));
    expect(await titles('search=shifting')).toEqual([]);
  });

  it('keeps the title search rows in step with what visitors may see, whatever changes a blueprint', async () => {
    const db = t.database.db;
    const owner = await insertUser(db, { email: 'step@example.com', username: 'step', firstName: 'Step' });
    const shop = await insertStorefront(db, {
      ownerId: owner.id,
      name: 'Steps',
      vanityUrl: 'steps',
      category: 'music',
    });
    const draft = await insertBlueprint(db, {
      storefrontId: shop.id,
      title: 'Quokka Draft',
      price: 900,
      quantity: 3,
      state: 'created',
    });
    const listed = await insertBlueprint(db, {
      storefrontId: shop.id,
      title: 'Quokka Listed',
      price: 500,
      quantity: 2,
    });
    /** What a marketplace search for "quokka" answers (it reads the search rows). */
    const found = async (filters = '') =>
      (await t.request('GET', `/api/blueprints?search=quokka${filters}`)).body.results.map(
        (b: Json) => `${b.title} ${b.price}`,
      );
    /** Every search row equals its blueprint, and there is one exactly for each blueprint visitors see. */
    const inStep = async () => {
      const { rows } = (await db.execute(sql`
        select count(*)::int as n from (
          (select id, lower(title), price, quantity, state, storefront_category, created_at from blueprints
            where visible and storefront_enabled and state in ('available', 'active', 'printed', 'soldOut')
            except select * from blueprint_search)
          union all
          (select * from blueprint_search except
            select id, lower(title), price, quantity, state, storefront_category, created_at from blueprints)
        ) differing`)) as { rows: unknown[] };
      expect(rows).toEqual([{ n: 0 }]);
      // Each search row's words, one row each with its columns, and every word in the vocabulary.
      const words = (await db.execute(sql`
        select count(*)::int as n from (
          (select word, id, price, quantity, state, storefront_category, created_at
            from blueprint_search, blueprint_title_words(title) word
            except select * from blueprint_search_words)
          union all
          (select * from blueprint_search_words except
            select word, id, price, quantity, state, storefront_category, created_at
            from blueprint_search, blueprint_title_words(title) word)
        ) differing`)) as { rows: unknown[] };
      expect(words.rows).toEqual([{ n: 0 }]);
      const unknownWords = (await db.execute(sql`
        select count(*)::int as n from blueprint_search_words w
        where not exists (select 1 from blueprint_words v where v.word = w.word)`)) as { rows: unknown[] };
      expect(unknownWords.rows).toEqual([{ n: 0 }]);
    };
    expect(await found()).toEqual(['Quokka Listed 500']);
    await db.update(blueprints).set({ state: 'active' }).where(eq(blueprints.id, draft.id));
    expect(await found()).toEqual(['Quokka Listed 500', 'Quokka Draft 900']);
    await db.update(blueprints).set({ title: 'Wombat Draft', price: 100 }).where(eq(blueprints.id, draft.id));
    expect(await found()).toEqual(['Quokka Listed 500']);
    await db
      .update(blueprints)
      .set({ title: 'Quokka Again', price: 1000 })
      .where(eq(blueprints.id, draft.id));
    expect(await found('&sort[direction]=desc')).toEqual(['Quokka Again 1000', 'Quokka Listed 500']);
    await db.update(blueprints).set({ visible: false }).where(eq(blueprints.id, listed.id));
    expect(await found()).toEqual(['Quokka Again 1000']);
    await db.update(blueprints).set({ visible: true, state: 'soldOut' }).where(eq(blueprints.id, listed.id));
    expect(await found('&states=soldOut')).toEqual(['Quokka Listed 500']);
    await db.update(storefronts).set({ category: 'sports' }).where(eq(storefronts.id, shop.id));
    expect(await found('&storefrontCategories=music')).toEqual([]);
    expect(await found('&storefrontCategories=sports')).toHaveLength(2);
    await inStep();
    await db.update(storefronts).set({ enabled: false }).where(eq(storefronts.id, shop.id));
    expect(await found()).toEqual([]);
    await db.update(storefronts).set({ enabled: true }).where(eq(storefronts.id, shop.id));
    await db.delete(blueprints).where(eq(blueprints.id, draft.id));
    expect(await found()).toEqual(['Quokka Listed 500']);
    await inStep();
  });

  it('finds by words exactly what the title search finds, whitespace and wildcards included', async () => {
    const db = t.database.db;
    const owner = await insertUser(db, { email: 'words@example.com', username: 'words', firstName: 'W' });
    const shop = await insertStorefront(db, { ownerId: owner.id, name: 'Words', vanityUrl: 'words' });
    const titles = [
      'Numbat\tTwo  Spaces',
      'numbat numbat twice',
      'Numbat-Hyphen 100%',
      'under_score numbat',
      'été numbat',
      'prefixnumbatsuffix',
    ];
    for (const [i, title] of titles.entries())
      await insertBlueprint(db, { storefrontId: shop.id, title, price: 100 + i, quantity: 5 });
    const { rows } = (await db.execute(
      sql`select word from blueprint_search_words join blueprints using (id) where blueprints.title = ${titles[0]} order by word`,
    )) as { rows: { word: string }[] };
    expect(rows.map((r) => r.word)).toEqual(['numbat', 'spaces', 'two']);
    /** The API's answer to a search, and the titles that contain the text (what the search promises). */
    const compare = async (search: string) => {
      const res = await t.request('GET', `/api/blueprints?search=${encodeURIComponent(search)}&to=100`);
      expect(res.status).toBe(200);
      const expected = titles.filter((title) => title.toLowerCase().includes(search.toLowerCase()));
      expect(res.body.results.map((b: Json) => b.title).sort(), search).toEqual(expected.sort());
      expect(res.body.total, search).toBe(expected.length);
    };
    for (const search of [
      'numbat',
      'NUMBAT',
      'umba',
      'bat-hyp',
      '100%',
      'r_s',
      'été',
      'prefixnumbat',
      'two  spaces',
    ])
      await compare(search);
  });

  it('counts up to 10,000 and says when there are more', async () => {
    await seedLargeWorld(t.database.db, { blueprints: 11_000, nfts: 0 });
    const all = await t.request('GET', '/api/blueprints?to=24');
    expect(all.body).toMatchObject({ total: 10_000, totalCapped: true });
    expect(all.body.results).toHaveLength(24);
    const few = await t.request('GET', '/api/blueprints?search=amber%20harbor&to=100');
    expect(few.body.totalCapped).toBe(false);
    expect(few.body.total).toBe(few.body.results.length);
    const prices = (await t.request('GET', '/api/blueprints?min=1000&max=2000&to=100')).body.results.map(
      (b: Json) => b.price,
    );
    expect(prices).toEqual([...prices].sort((a: number, b: number) => a - b));
    expect(prices.every((p: number) => p >= 1000 && p <= 2000)).toBe(true);
  }, 60_000);
});

describe.each(bothDatabases)('catalog answer cache on %s', (database) => {
  const t = useTestApp(database, { catalogCacheMs: 60_000 });

  it('reuses a visitor’s list answer; the owner always sees fresh rows', async () => {
    const me = await register(t);
    const shop = await insertStorefront(t.database.db, {
      ownerId: me.id,
      name: 'Cached',
      vanityUrl: 'cached',
    });
    await insertBlueprint(t.database.db, { storefrontId: shop.id, title: 'First', price: 1, quantity: 1 });
    const path = `/api/blueprints?storefrontId=${shop.id}`;
    expect((await t.request('GET', path)).body.total).toBe(1);
    await insertBlueprint(t.database.db, { storefrontId: shop.id, title: 'Second', price: 2, quantity: 1 });
    expect((await t.request('GET', path)).body.total).toBe(1);
    expect((await t.request('GET', path, { token: me.authToken })).body.total).toBe(2);
  });

  it('sends a kept answer in each encoding with the headers of any JSON answer, the same each time', async () => {
    const me = await register(t);
    const shop = await insertStorefront(t.database.db, { ownerId: me.id, name: 'Kept', vanityUrl: 'kept' });
    for (let i = 0; i < 20; i++) {
      await insertBlueprint(t.database.db, {
        storefrontId: shop.id,
        title: `Kept ${i}`,
        price: 100 + i,
        quantity: 1,
      });
    }
    const path = `/api/blueprints?storefrontId=${shop.id}`;
    const json = (await t.request('GET', path)).body;
    expect(JSON.stringify(json).length).toBeGreaterThan(1024);
    // What the security middleware puts on an ordinary JSON answer.
    const ordinary = Object.fromEntries((await t.app.request('/api/health')).headers);
    // Every answer has its own request id (X-Request-Id); the rest is the same for every answer.
    const { 'content-type': _type, 'content-length': _length, 'x-request-id': _id, ...security } = ordinary;
    const decode: Record<string, (b: Buffer) => Buffer> = {
      br: brotliDecompressSync,
      gzip: gunzipSync,
      deflate: inflateSync,
      none: (b) => b,
    };
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['deflate', 'deflate'],
      ['identity', 'none'],
    ] as const) {
      const heads: Record<string, string>[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await t.app.request(path, { headers: { 'Accept-Encoding': accept } });
        expect(res.status).toBe(200);
        const { 'x-request-id': requestId, ...headers } = Object.fromEntries(res.headers);
        expect(requestId).toMatch(/^[\w.:-]{8,128}$/);
        heads.push(headers);
        expect(headers).toMatchObject({
          ...security,
          'content-type': 'application/json',
          vary: 'Accept-Encoding',
        });
        expect(headers['content-encoding']).toBe(encoding === 'none' ? undefined : encoding);
        expect(JSON.parse(decode[encoding]!(Buffer.from(await res.arrayBuffer())).toString())).toEqual(json);
      }
      expect(heads[1]).toEqual(heads[0]);
    }
    // An answer below 1 KB is not worth compressing (it would only grow), whatever the client takes.
    for (const accept of ['gzip, deflate, br, zstd', 'gzip', 'deflate']) {
      const none = await t.app.request(`/api/blueprints?storefrontId=${shop.id}&search=nothing-like-it`, {
        headers: { 'Accept-Encoding': accept },
      });
      expect(none.headers.get('content-encoding')).toBeNull();
      expect(none.headers.get('vary')).toBe('Accept-Encoding');
      expect(none.headers.get('x-frame-options')).toBe('DENY');
      expect(await none.json()).toEqual({ results: [], total: 0, totalCapped: false });
    }
  });
});

describe.each(bothDatabases)('GET /api/nfts sorting on %s', (database) => {
  const t = useTestApp(database);

  it('sorts by listing price (unlisted last), edition or latest purchase, and filters by purchase type', async () => {
    const db = t.database.db;
    const seller = '0x00000000000000a1';
    const rows = [
      { id: '9001', serialNumber: 1, price: 3000, purchased: '2026-03-01', type: 'directPurchase' },
      { id: '9002', serialNumber: 2, price: 1000, purchased: '2026-05-01', type: 'saleListing' },
      { id: '9003', serialNumber: 3, price: null, purchased: '2026-04-01', type: 'directPurchase' },
      { id: '9004', serialNumber: 4, price: 2000, purchased: null, type: null },
    ];
    for (const r of rows) {
      await db.insert(nfts).values({
        id: r.id,
        blueprintId: 77_000,
        serialNumber: r.serialNumber,
        owner: seller,
        status: r.price ? 'forSale' : 'parked',
      });
      if (r.price)
        await db
          .insert(saleListings)
          .values({ blockchainListingId: `L${r.id}`, seller, nftId: r.id, price: r.price });
      if (r.purchased)
        await db.insert(nftPurchases).values({
          transactionId: `${'b'.repeat(60)}${r.id}`,
          walletAddress: seller,
          nftId: r.id,
          type: r.type!,
          amount: 500,
          purchasedOn: new Date(`${r.purchased}T00:00:00Z`),
        });
    }
    const ids = async (q: string) =>
      (await t.request('GET', `/api/nfts?blueprintId=77000&${q}`)).body.results.map((n: Json) => n.id);
    expect(await ids('sort[column]=activeSaleListing.price')).toEqual(['9002', '9004', '9001', '9003']);
    expect(await ids('sort[column]=activeSaleListing.price&sort[direction]=desc')).toEqual([
      '9001',
      '9004',
      '9002',
      '9003',
    ]);
    expect(await ids('sort[column]=seriesNumber&sort[direction]=desc')).toEqual([
      '9004',
      '9003',
      '9002',
      '9001',
    ]);
    expect(await ids('sort[column]=nftPurchase.purchasedOn&sort[direction]=desc')).toEqual([
      '9002',
      '9003',
      '9001',
      '9004',
    ]);
    expect(await ids('nftPurchaseType=saleListing')).toEqual(['9002']);
    expect(await ids('status=forSale&sort[column]=activeSaleListing.price')).toEqual([
      '9002',
      '9004',
      '9001',
    ]);
    const one = (await t.request('GET', '/api/nfts/9002')).body;
    expect(one.nftPurchase).toEqual({ amount: 500, purchasedOn: '2026-05-01T00:00:00.000Z' });
    expect(one.activeSaleListing).toMatchObject({ price: 1000, blockchainListingId: 'L9002' });
    const bad = await t.request('GET', '/api/nfts?sort[column]=price');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_VALUE', field: 'sort[column]' });
  });
});
