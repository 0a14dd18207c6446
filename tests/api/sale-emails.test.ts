import { randomBytes, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications, outbox } from '../../server/db/schema';
import { saleEmailsOffUrl } from '../../server/mail/unsubscribe';
import { recordSaleNotices } from '../../server/sales/notices';
import { databases, useTestApp } from './support/harness';
import { testMail, waitForEmails } from './support/mailpit';
import { blueprint, creator } from './support/sales';

/**
 * "Your item sold" by email: written with the sale, delivered to the (test) Mailpit, with a link and
 * a List-Unsubscribe header that turn sale emails off without signing in.
 */
describe.each(databases)('sale emails on %s', (database) => {
  const t = useTestApp(database, { mail: testMail() });
  const optOut = (body: unknown) => t.request('POST', '/api/users/sale-email-opt-outs', { body });

  async function shopWithItem() {
    const shop = await creator(t);
    const bp = await blueprint(t, shop.storefront.id, {
      title: `Night Drive ${randomBytes(3).toString('hex')}`,
    });
    /** Records edition `serial` as sold for $25, as the fulfilment does in the sale's transaction. */
    const sell = (serial: number) =>
      t.database.db.transaction((tx) =>
        recordSaleNotices(
          tx,
          [
            {
              blueprintId: bp.id,
              title: bp.title,
              serialNumber: serial,
              nftId: `${randomInt(1e9)}`,
              amount: 2500,
            },
          ],
          t.clock.now(),
          t.config,
        ),
      );
    return { shop, bp, sell };
  }

  it('emails the creator of a sale with a link that turns sale emails off, no sign-in needed', async () => {
    const { shop, bp, sell } = await shopWithItem();
    await sell(1);
    const [message] = await waitForEmails(shop.email);
    expect(message!.Subject).toBe(`Sold: ${bp.title} #01`);
    expect(message!.Text).toContain('sold for $25. After the platform fee, $23.75 is yours.');
    expect(message!.Text).toContain('http://vitrine.test/dashboard/notifications');
    const [link] = message!.ListUnsubscribe.Links;
    expect(link).toBe(saleEmailsOffUrl(t.config, shop.id));
    expect(link).toMatch(/^http:\/\/vitrine\.test\/unsubscribe\?t=/);
    expect(message!.Text).toContain(link);
    expect(message!.HTML).toContain(`href="${link}"`);

    // The page the link opens sends its token: sale emails are off.
    const token = new URL(link!).searchParams.get('t');
    const res = await optOut({ token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId: shop.id, saleEmails: false });
    expect((await t.request('GET', '/api/users/me', { token: shop.authToken })).body.saleEmails).toBe(false);
    expect((await optOut({ token })).body).toEqual({ userId: shop.id, saleEmails: false });

    // The next sale: its notice, and no email.
    await sell(2);
    expect(
      await t.database.db.select().from(notifications).where(eq(notifications.userId, shop.id)),
    ).toHaveLength(2);
    expect(await t.database.db.select().from(outbox).where(eq(outbox.to, shop.email))).toHaveLength(1);
  });

  it('refuses a link that is not one of ours, and changes nothing', async () => {
    const { shop } = await shopWithItem();
    const foreign = saleEmailsOffUrl(
      { publicUrl: 'http://vitrine.test', jwtSecret: 'x'.repeat(40) },
      shop.id,
    );
    for (const token of [
      new URL(foreign).searchParams.get('t'),
      `${shop.id}.${'A'.repeat(43)}`,
      `00000000-0000-4000-8000-000000000000.${new URL(saleEmailsOffUrl(t.config, shop.id)).searchParams.get('t')!.split('.')[1]}`,
      'nope',
      42,
      undefined,
    ]) {
      const res = await optOut({ token });
      expect([token, res.status, res.body.code, res.body.field]).toEqual([
        token,
        400,
        'UNSUBSCRIBE_LINK_INVALID',
        'token',
      ]);
    }
    expect((await t.request('GET', '/api/users/me', { token: shop.authToken })).body.saleEmails).toBe(true);
  });
});
