import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { orderItems, orders } from '../../server/db/schema';
import { LEDGER_COLUMNS } from '../../server/sales/csv';
import { databases, type Json, register, useTestApp } from './support/harness';
import { blueprint, creator, day, payoutRequest, sale } from './support/sales';

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF) into rows of fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field || row.length) throw new Error('CSV does not end with CRLF');
  return rows;
}

/**
 * The dashboard's Sales (each with the seller's net: amount − platform fee; a primary sale deducts no
 * royalty, its seller being the creator) and the payout ledger CSV.
 */
describe.each(databases)('GET /api/sales and the ledger CSV on %s', (database) => {
  const t = useTestApp(database);
  const sales = (token: string | undefined, query: string) =>
    t.request('GET', `/api/sales?${query}`, { token });

  it('answers only the storefront’s owner: 401 anonymous, 403 someone else, 404 unknown, 400 invalid', async () => {
    const owner = await creator(t);
    const other = await register(t);
    const q = `storefrontId=${owner.storefront.id}`;
    expect((await sales(undefined, q)).status).toBe(401);
    const forbidden = await sales(other.authToken, q);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: 'FORBIDDEN' });
    // Another creator's own storefront does not open this one.
    const rival = await creator(t);
    expect((await sales(rival.authToken, q)).status).toBe(403);
    expect((await sales(owner.authToken, 'storefrontId=00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
    for (const [query, field] of [
      ['storefrontId=nope', 'storefrontId'],
      ['', 'storefrontId'],
      [`${q}&pageSize=10`, 'pageSize'],
      [`${q}&pageSize=abc`, 'pageSize'],
      [`${q}&page=0`, 'page'],
      [`${q}&page=-1`, 'page'],
    ] as const) {
      const res = await sales(owner.authToken, query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ code: 'INVALID_VALUE', field });
    }
    const empty = await sales(owner.authToken, q);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ results: [], total: 0, page: 1, pageSize: 50 });
    for (const token of [undefined, other.authToken]) {
      expect((await t.request('GET', `/api/sales/ledger.csv?${q}`, { token })).status).toBe(
        token ? 403 : 401,
      );
    }
  });

  it('lists primary sales of the storefront only, newest first, with fees and net in cents', async () => {
    const owner = await creator(t);
    const buyer = await register(t);
    const bp = await blueprint(t, owner.storefront.id, {
      title: 'Harbor Lights',
      royaltyPercent: 10,
      totalFeePercent: 7.5,
    });
    const cheap = await blueprint(t, owner.storefront.id, { royaltyPercent: 5, totalFeePercent: 2.5 });
    const first = await sale(t, bp, { serial: 1, amount: 2500, purchasedOn: day(1), buyerId: buyer.id });
    await sale(t, cheap, { serial: 1, amount: 999, purchasedOn: day(2) });
    // A resale of edition 1 pays the creator on chain: not a sale here.
    await sale(t, bp, {
      serial: 1,
      amount: 9000,
      purchasedOn: day(3),
      type: 'saleListing',
      nftId: first.nftId,
    });
    // A listing purchase recorded under another type is still a resale.
    await sale(t, bp, {
      serial: 1,
      amount: 9000,
      purchasedOn: day(3),
      type: 'directPurchase',
      blockchainListingId: '4242',
      nftId: first.nftId,
    });
    // Another storefront's sale.
    const rival = await creator(t);
    await sale(t, await blueprint(t, rival.storefront.id), { serial: 1, amount: 5000, purchasedOn: day(4) });

    const res = await sales(owner.authToken, `storefrontId=${owner.storefront.id}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    const [newest, oldest] = res.body.results as Json[];
    // 999 × 2.5 % = 24.975 → 25; the creator owes no royalty to themselves.
    expect(newest).toMatchObject({ amount: 999, royaltyFee: 0, platformFee: 25, net: 974, buyer: null });
    // 2500 × 7.5 % = 187.5 → 188 (half up).
    expect(oldest).toEqual({
      id: first.id,
      purchasedOn: day(1).toISOString(),
      blueprint: { id: bp.id, title: 'Harbor Lights', previewImageUrl: '/media/seed/preview.png' },
      seriesNumber: 1,
      status: 'completed',
      amount: 2500,
      royaltyFee: 0,
      platformFee: 188,
      net: 2312,
      buyer: { username: buyer.username },
      payout: { allocations: [], unrequested: 2312, status: 'unpaid' },
    });
  });

  it('shows card orders on their way as pending and refunded ones as refunded; only completed sales count toward the funds', async () => {
    const owner = await creator(t);
    const buyer = await register(t);
    const bp = await blueprint(t, owner.storefront.id, { royaltyPercent: 10, totalFeePercent: 5 });
    const pack = await blueprint(t, owner.storefront.id, { royaltyPercent: 0, totalFeePercent: 0 });
    await sale(t, bp, { serial: 1, amount: 2000, purchasedOn: day(1), buyerId: buyer.id });
    const db = t.database.db;
    const order = async (
      status: 'captured' | 'minting' | 'refunded' | 'authorized',
      items: { id: string; flowBlueprintId: number; serial: number | null }[],
      amount: number,
      on: Date,
    ) => {
      const [row] = await db
        .insert(orders)
        .values({
          buyerId: buyer.id,
          idempotencyKey: `key-${randomUUID()}`,
          method: 'creditCard',
          itemKind: items.length > 1 ? 'pack' : 'blueprint',
          itemId: items[0]!.id,
          title: 'x',
          amount,
          walletAddress: '0x0000000000000001',
          status,
          reserved: false,
          expiresAt: on,
          createdAt: on,
        })
        .returning();
      for (const item of items)
        await db.insert(orderItems).values({
          orderId: row!.id,
          blueprintId: item.id,
          flowBlueprintId: item.flowBlueprintId,
          serialNumber: item.serial,
        });
    };
    await order('captured', [{ id: bp.id, flowBlueprintId: bp.flowBlueprintId, serial: 2 }], 2000, day(2));
    // A pack of two editions: its 1001 cents split 501 + 500.
    await order(
      'minting',
      [
        { id: bp.id, flowBlueprintId: bp.flowBlueprintId, serial: 3 },
        { id: pack.id, flowBlueprintId: pack.flowBlueprintId, serial: 1 },
      ],
      1001,
      day(3),
    );
    await order('refunded', [{ id: bp.id, flowBlueprintId: bp.flowBlueprintId, serial: null }], 2000, day(4));
    // Authorized but not captured: not a sale yet.
    await order(
      'authorized',
      [{ id: bp.id, flowBlueprintId: bp.flowBlueprintId, serial: null }],
      2000,
      day(5),
    );

    const res = await sales(owner.authToken, `storefrontId=${owner.storefront.id}`);
    expect(res.body.total).toBe(5);
    const rows = (res.body.results as Json[]).map((r) => [
      r.status,
      r.amount,
      r.blueprint.id,
      r.seriesNumber,
    ]);
    expect(rows[0]).toEqual(['refunded', 2000, bp.id, null]);
    // The pack's two editions (same time), in either order.
    expect(rows.slice(1, 3)).toEqual(
      expect.arrayContaining([
        ['pending', 501, bp.id, 3],
        ['pending', 500, pack.id, 1],
      ]),
    );
    expect(rows.slice(3)).toEqual([
      ['pending', 2000, bp.id, 2],
      ['completed', 2000, bp.id, 1],
    ]);
    const pending = (res.body.results as Json[])[3];
    expect(pending.payout).toEqual({ allocations: [], unrequested: 0, status: 'nothingDue' });
    // Only the completed sale is owed: 2000 − 5 % fee (no royalty on the creator's own sale).
    const funds = await t.request('GET', '/api/payout-requests', { token: owner.authToken });
    expect(funds.body.available).toBe(1900);
  });

  it('pages with page and pageSize (25, 50 or 100; 50 by default)', async () => {
    const owner = await creator(t);
    const bp = await blueprint(t, owner.storefront.id);
    for (let serial = 1; serial <= 30; serial++) {
      await sale(t, bp, { serial, amount: 100 * serial, purchasedOn: day(serial) });
    }
    const q = `storefrontId=${owner.storefront.id}`;
    const serials = (body: Json) => body.results.map((r: Json) => r.seriesNumber);
    const all = await sales(owner.authToken, q);
    expect(all.body).toMatchObject({ total: 30, page: 1, pageSize: 50 });
    expect(serials(all.body)).toEqual(Array.from({ length: 30 }, (_, i) => 30 - i));
    const first = await sales(owner.authToken, `${q}&pageSize=25`);
    expect(serials(first.body)).toEqual(Array.from({ length: 25 }, (_, i) => 30 - i));
    const second = await sales(owner.authToken, `${q}&pageSize=25&page=2`);
    expect(second.body).toMatchObject({ total: 30, page: 2, pageSize: 25 });
    expect(serials(second.body)).toEqual([5, 4, 3, 2, 1]);
    const beyond = await sales(owner.authToken, `${q}&pageSize=100&page=2`);
    expect(beyond.body).toMatchObject({ results: [], total: 30, page: 2, pageSize: 100 });
  });

  it('narrows to one blueprint’s sales with blueprintId (the products list’s Sales action)', async () => {
    const owner = await creator(t);
    const [a, b] = [await blueprint(t, owner.storefront.id), await blueprint(t, owner.storefront.id)];
    await sale(t, a, { serial: 1, amount: 1000, purchasedOn: day(1) });
    await sale(t, b, { serial: 1, amount: 2000, purchasedOn: day(2) });
    await sale(t, a, { serial: 2, amount: 1000, purchasedOn: day(3) });
    const q = `storefrontId=${owner.storefront.id}`;
    const onlyA = await sales(owner.authToken, `${q}&blueprintId=${a.id}`);
    expect(onlyA.body.total).toBe(2);
    expect(onlyA.body.results.map((r: Json) => [r.blueprint.id, r.seriesNumber])).toEqual([
      [a.id, 2],
      [a.id, 1],
    ]);
    expect((await sales(owner.authToken, q)).body.total).toBe(3);
    expect((await sales(owner.authToken, `${q}&blueprintId=not-a-uuid`)).body).toMatchObject({
      code: 'INVALID_VALUE',
      field: 'blueprintId',
    });
  });

  it('shows each sale’s payout status from the ledger: requests cover net oldest first', async () => {
    const owner = await creator(t);
    const bp = await blueprint(t, owner.storefront.id, { royaltyPercent: 0, totalFeePercent: 0 });
    const a = await sale(t, bp, { serial: 1, amount: 1000, purchasedOn: day(1) });
    const b = await sale(t, bp, { serial: 2, amount: 1000, purchasedOn: day(2) });
    const c = await sale(t, bp, { serial: 3, amount: 1000, purchasedOn: day(3) });
    const paid = await payoutRequest(t, owner, 1500, 'payed', day(4));
    await payoutRequest(t, owner, 700, 'denied', day(5));
    const open = await payoutRequest(t, owner, 1000, 'created', day(6));
    const res = await sales(owner.authToken, `storefrontId=${owner.storefront.id}`);
    const byId = Object.fromEntries(res.body.results.map((r: Json) => [r.id, r.payout]));
    expect(byId[a.id]).toEqual({
      allocations: [{ requestId: paid.id, state: 'payed', amount: 1000 }],
      unrequested: 0,
      status: 'paid',
    });
    expect(byId[b.id]).toEqual({
      allocations: [
        { requestId: paid.id, state: 'payed', amount: 500 },
        { requestId: open.id, state: 'created', amount: 500 },
      ],
      unrequested: 0,
      status: 'requested',
    });
    expect(byId[c.id]).toEqual({
      allocations: [{ requestId: open.id, state: 'created', amount: 500 }],
      unrequested: 500,
      status: 'requested',
    });
  });

  it('exports the ledger as CSV: header, one row per sale oldest first, dollars, escaped text', async () => {
    const owner = await creator(t);
    const buyer = await register(t);
    const tricky = await blueprint(t, owner.storefront.id, {
      title: 'Dunes, "quiet"\nedition',
      royaltyPercent: 10,
      totalFeePercent: 7.5,
    });
    const formula = await blueprint(t, owner.storefront.id, {
      title: '=HYPERLINK("x")',
      royaltyPercent: 0,
      totalFeePercent: 0,
    });
    const a = await sale(t, tricky, { serial: 7, amount: 2500, purchasedOn: day(1), buyerId: buyer.id });
    const b = await sale(t, formula, { serial: 2, amount: 1000, purchasedOn: day(2) });
    const request = await payoutRequest(t, owner, 2812, 'pending', day(3));

    const res = await t.request('GET', `/api/sales/ledger.csv?storefrontId=${owner.storefront.id}`, {
      token: owner.authToken,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="${owner.storefront.vanityUrl}-ledger-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const rows = parseCsv(res.body as string);
    expect(rows[0]).toEqual([...LEDGER_COLUMNS]);
    expect(rows.slice(1)).toEqual([
      [
        a.id,
        day(1).toISOString(),
        tricky.id,
        'Dunes, "quiet"\nedition',
        '7',
        buyer.username,
        'Completed',
        '2500',
        '25.00',
        '1.88',
        '0.00',
        '23.12',
        request.id,
        'pending',
        '23.12',
        '0.00',
        'requested',
      ],
      [
        b.id,
        day(2).toISOString(),
        formula.id,
        `'=HYPERLINK("x")`,
        '2',
        '',
        'Completed',
        '1000',
        '10.00',
        '0.00',
        '0.00',
        '10.00',
        request.id,
        'pending',
        '5.00',
        '5.00',
        'requested',
      ],
    ]);
    expect(res.body).toContain('"Dunes, ""quiet""\nedition"');

    const empty = await creator(t);
    const none = await t.request('GET', `/api/sales/ledger.csv?storefrontId=${empty.storefront.id}`, {
      token: empty.authToken,
    });
    expect(none.body).toBe(`${LEDGER_COLUMNS.join(',')}\r\n`);
    expect(
      (
        await t.request('GET', '/api/sales/ledger.csv?storefrontId=00000000-0000-4000-8000-000000000000', {
          token: owner.authToken,
        })
      ).status,
    ).toBe(404);
  });
});
