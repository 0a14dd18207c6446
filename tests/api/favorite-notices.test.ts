import { randomBytes } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { upsertListing } from '../../server/chain/facts';
import { blueprints, jobs, nfts, notifications, outbox } from '../../server/db/schema';
import { createFavoriteNotices, FAVORITE_NOTICE_JOB, queueOpenedSales } from '../../server/favorites/notices';
import { emailsOffUrl } from '../../server/mail/unsubscribe';
import { databases, flowAddress, register, type TestApi, useTestApp } from './support/harness';
import { blueprint, creator } from './support/sales';

/**
 * Notices to the users who saved an item: a resale listing below the item's lowest live price, and
 * its sale opening. Each (user, item, event) is told once, in the app and (unless favorite emails are
 * off) by email, however often its job runs.
 */
describe.each(databases)('favorite notices on %s', (database) => {
  const t = useTestApp(database);
  const db = () => t.database.db;
  const save = (token: string, id: string) => t.request('PUT', `/api/users/me/favorites/${id}`, { token });

  /** Runs every queued favorite-notice job of the item (by key) `times` times, as a worker would. */
  async function runJobs(keyPart: string, times = 1) {
    const handler = createFavoriteNotices({ db: db(), site: t.config, now: () => t.clock.now() });
    const queued = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, FAVORITE_NOTICE_JOB), like(jobs.key, `%${keyPart}%`)));
    for (let i = 0; i < times; i++) for (const job of queued) await handler.run(job);
    return queued.map((j) => j.key);
  }
  const noticesOf = (userId: string) =>
    db().select().from(notifications).where(eq(notifications.userId, userId));
  const emailsTo = (email: string) => db().select().from(outbox).where(eq(outbox.to, email));

  async function listed(t: TestApi, bp: { flowBlueprintId: number }, price: number) {
    const nftId = `${Date.now() % 1e6}${randomBytes(3).readUIntBE(0, 3)}`;
    await db()
      .insert(nfts)
      .values({
        id: nftId,
        blueprintId: bp.flowBlueprintId,
        serialNumber: Number(nftId.slice(-6)),
        owner: flowAddress(),
      });
    const listingId = `${randomBytes(4).readUInt32BE()}`;
    await t.database.db.transaction((tx) =>
      upsertListing(
        tx,
        { blockchainListingId: listingId, seller: flowAddress(), nftId, price },
        t.clock.now(),
      ),
    );
    return listingId;
  }

  it('tells each saver once of a listing below the lowest live price, in the app and by email', async () => {
    const shop = await creator(t);
    const bp = await blueprint(t, shop.storefront.id, { price: 2500 });
    const fan = await register(t);
    const quiet = await register(t);
    await save(fan.authToken, bp.id);
    await save(quiet.authToken, bp.id);
    await t.request('PATCH', '/api/users/me', { token: quiet.authToken, body: { favoriteEmails: false } });

    // Not below the new editions' $25: nothing queued.
    const dear = await listed(t, bp, 2500);
    expect(await runJobs(dear)).toEqual([]);

    const cheap = await listed(t, bp, 2000);
    expect(await runJobs(cheap, 2)).toEqual([`priceDrop:${cheap}:2500`]);
    const [notice] = await noticesOf(fan.id);
    expect(notice).toMatchObject({
      kind: 'priceDrop',
      subject: cheap,
      title: bp.title,
      amount: 2000,
      net: 2500,
    });
    expect(await noticesOf(quiet.id)).toHaveLength(1);
    const [email] = await emailsTo(fan.email);
    expect(email!.subject).toBe(`Price drop: ${bp.title}`);
    expect(email!.text).toContain(`${bp.title} is now $20 (was $25).`);
    expect(email!.text).toContain(`http://vitrine.test/nft/${bp.id}`);
    expect(email!.headers).toEqual({ 'List-Unsubscribe': `<${emailsOffUrl(t.config, fan.id, 'favorite')}>` });
    expect(await emailsTo(fan.email)).toHaveLength(1);
    expect(await emailsTo(quiet.email)).toHaveLength(0);

    // The next drop is measured from $20; the notices answer shows it.
    const cheaper = await listed(t, bp, 1500);
    expect(await runJobs(cheaper)).toEqual([`priceDrop:${cheaper}:2000`]);
    const answer = await t.request('GET', '/api/notifications', { token: fan.authToken });
    expect(
      answer.body.results.map((n: { kind: string; amount: number; net: number }) => [
        n.kind,
        n.amount,
        n.net,
      ]),
    ).toEqual([
      ['priceDrop', 1500, 2000],
      ['priceDrop', 2000, 2500],
    ]);
  });

  it('tells nobody of a listing of an item nobody saved, or of one with no live price before', async () => {
    const shop = await creator(t);
    const unsaved = await blueprint(t, shop.storefront.id, { price: 2500 });
    expect(await runJobs(await listed(t, unsaved, 100))).toEqual([]);
    const soldOut = await blueprint(t, shop.storefront.id, { price: 2500 });
    await db()
      .update(blueprints)
      .set({ quantityAvailable: 0, state: 'soldOut' })
      .where(eq(blueprints.id, soldOut.id));
    const fan = await register(t);
    await save(fan.authToken, soldOut.id);
    expect(await runJobs(await listed(t, soldOut, 100))).toEqual([]);
    expect(await noticesOf(fan.id)).toEqual([]);
  });

  it('tells each saver once when a saved item’s sale opens, however often the sweep and job run', async () => {
    const shop = await creator(t);
    const bp = await blueprint(t, shop.storefront.id, { price: 4000 });
    const opens = new Date(t.clock.now().getTime() + 3600_000);
    await db().update(blueprints).set({ availableTime: opens, drop: true }).where(eq(blueprints.id, bp.id));
    const fan = await register(t);
    await save(fan.authToken, bp.id);

    await queueOpenedSales(db(), t.clock.now());
    expect(await runJobs(bp.id)).toEqual([]);
    t.clock.advance(3600_000 + 1000);
    await queueOpenedSales(db(), t.clock.now());
    await queueOpenedSales(db(), t.clock.now());
    expect(await runJobs(bp.id, 2)).toEqual([`saleOpen:${bp.id}`]);
    expect((await noticesOf(fan.id)).map((n) => [n.kind, n.subject, n.amount, n.net])).toEqual([
      ['saleOpen', bp.id, 4000, null],
    ]);
    const [email] = await emailsTo(fan.email);
    expect([email!.subject, (await emailsTo(fan.email)).length]).toEqual([`On sale now: ${bp.title}`, 1]);
    expect(email!.text).toContain(`${bp.title} is on sale now for $40.`);
  });

  it('turns favorite emails off by the email’s link, and leaves sale emails on', async () => {
    const fan = await register(t);
    const token = new URL(emailsOffUrl(t.config, fan.id, 'favorite')).searchParams.get('t');
    const res = await t.request('POST', '/api/users/sale-email-opt-outs', { body: { token } });
    expect([res.status, res.body]).toEqual([200, { userId: fan.id, favoriteEmails: false }]);
    const me = (await t.request('GET', '/api/users/me', { token: fan.authToken })).body;
    expect([me.favoriteEmails, me.saleEmails]).toEqual([false, true]);
    // A sale link's mac does not pass as a favorites one.
    const sale = new URL(emailsOffUrl(t.config, fan.id, 'sale')).searchParams.get('t');
    const forged = await t.request('POST', '/api/users/sale-email-opt-outs', {
      body: { token: `favorites.${sale}` },
    });
    expect([forged.status, forged.body.code]).toEqual([400, 'UNSUBSCRIBE_LINK_INVALID']);
  });
});
