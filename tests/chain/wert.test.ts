import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followOnramp } from '#domain/chargeProgress';
import {
  SANDBOX_API_KEY,
  SANDBOX_PARTNER_ID,
  SANDBOX_PRIVATE_KEY,
  startWertSandbox,
  type WertSandbox,
} from '../../sandbox/wert/index';
import { getFusdBalance, getNfts } from '../../server/chain/actions';
import { createMintService } from '../../server/chain/mint';
import { FULFIL_JOB } from '../../server/checkout/orders';
import { createWertRefundHandler } from '../../server/checkout/wert/refund';
import { WERT_REFUND_JOB } from '../../server/checkout/wert/wert';
import { expireOrders } from '../../server/checkout/workflow/expire';
import { createFulfilment } from '../../server/checkout/workflow/fulfil';
import { nftPurchases, orderEvents, orders, users, wertCharges } from '../../server/db/schema';
import { createJobWorker, type JobWorker } from '../../server/jobs';
import type { OnrampProvider } from '../../server/payments/onramp-provider';
import { createWertProvider } from '../../server/payments/wert';
import { insertBlueprint } from '../../server/seed/factory';
import { type Json, register, type TestApi, useTestApp } from '../api/support/harness';
import { creator } from '../api/support/sales';
import { widgetUrl } from '../api/support/wert';
import { chainClient, freshBlueprintId, newCollector } from './support';

/**
 * On-ramp charges on the real emulator: a purchase paid in the on-ramp widget (the sandbox's Pay,
 * pressed over HTTP as the page does) is minted to the buyer's wallet (purchase type wert, charge
 * MINTED); a payment that completes after its edition sold out goes back as FUSD from the treasury,
 * and the charge the purchase-complete page reads says so with the order's timeline. The buyer's page
 * reads the charge back (PATCH {}); webhooks are covered in tests/api/wert-charges.test.ts.
 */

const client = chainClient();
const quiet = { info() {}, error() {} };

describe('on-ramp charges on the emulator', () => {
  let sandbox: WertSandbox;
  let provider: OnrampProvider;
  let worker: JobWorker;
  const t: TestApi = useTestApp(
    'pglite',
    {},
    {
      chainClient: client,
      onrampProvider: {
        get partnerId() {
          return provider.partnerId;
        },
        get origin() {
          return provider.origin;
        },
        sign: (fields) => provider.sign(fields),
        findOrders: (search) => provider.findOrders(search),
      },
    },
  );

  beforeAll(async () => {
    sandbox = await startWertSandbox({ port: 0, transferAfterMs: 20, completeAfterMs: 20 });
    provider = createWertProvider({
      partnerId: SANDBOX_PARTNER_ID,
      origin: sandbox.url,
      privateKey: SANDBOX_PRIVATE_KEY,
      apiUrl: sandbox.url,
      apiKey: SANDBOX_API_KEY,
    });
    await t.database.db.execute(
      sql.raw(`alter table blueprints alter column flow_blueprint_id restart with ${freshBlueprintId()}`),
    );
    const db = t.database.db;
    worker = createJobWorker({
      db,
      handlers: {
        [FULFIL_JOB]: createFulfilment({
          db,
          provider: null,
          mint: createMintService({ db, client }),
          log: quiet,
        }),
        [WERT_REFUND_JOB]: createWertRefundHandler({ db, client, log: quiet }),
      },
      pollMs: 50,
      backoffMs: () => 50,
      log: quiet,
    });
    worker.start();
  });
  afterAll(async () => {
    await worker?.stop();
    await sandbox?.close();
  });

  async function buyer() {
    const account = await newCollector(client);
    const me = await register(t);
    await t.database.db.update(users).set({ walletAddress: account.address }).where(eq(users.id, me.id));
    return { ...me, walletAddress: account.address };
  }
  async function edition(price: number, quantity = 10) {
    const shop = await creator(t);
    return insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Edition ${randomBytes(3).toString('hex')}`,
      price,
      quantity,
    });
  }
  const buy = (who: { authToken: string }, bp: { id: string; price: number }) =>
    t.request('POST', '/api/wert-charges', {
      token: who.authToken,
      body: {
        blueprintId: bp.id,
        expectedPrice: bp.price,
        idempotencyKey: `k-${randomBytes(6).toString('hex')}`,
      },
    });
  /** Pay pressed in the widget opened with the charge's options (the URL the official SDK opens). */
  async function pay(charge: Json) {
    const src = widgetUrl({
      ...charge.signedData,
      partner_id: charge.partnerId,
      click_id: charge.clickId,
      origin: charge.origin,
    });
    const res = await fetch(`${charge.origin}/${charge.partnerId}/widget/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'pay', query: new URL(src).search }),
    });
    expect(res.status).toBe(201);
  }
  const sync = (who: { authToken: string }, id: string) =>
    t.request('PATCH', `/api/wert-charges/${id}`, { token: who.authToken, body: {} });
  async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 60_000): Promise<T> {
    for (const end = Date.now() + ms; ; ) {
      const v = await read();
      if (done(v)) return v;
      if (Date.now() > end) throw new Error(`still ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const charge = async (id: string) =>
    (await t.database.db.select().from(wertCharges).where(eq(wertCharges.id, id)))[0]!;
  const fusd = async (address: string) => Number(await getFusdBalance(client, address));
  /** Waits until the sandbox reports the card payment complete, then the buyer's page reads it. */
  async function settled(who: { authToken: string }, id: string) {
    await until(
      async () => sandbox.orderOf(id)?.status,
      (s) => s === 'success',
    );
    expect((await sync(who, id)).status).toBe(200);
  }

  it('a purchase paid in the widget is minted to the wallet', async () => {
    const me = await buyer();
    const bp = await edition(1800);
    const res = await buy(me, bp);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await pay(res.body);
    await settled(me, res.body.id);
    const row = await until(
      () => charge(res.body.id),
      (c) => c.status === 'MINTED',
    );
    expect(row.txId).toMatch(/^[0-9a-f]{64}$/);
    const onChain = (await getNfts(client, me.walletAddress)).filter(
      (n) => n.blueprintId === String(bp.flowBlueprintId),
    );
    expect(onChain).toHaveLength(1);
    const [purchase] = await t.database.db
      .select()
      .from(nftPurchases)
      .where(eq(nftPurchases.orderId, res.body.order.id));
    expect(purchase).toMatchObject({ type: 'wert', amount: 1800 });
    const answer = await t.request('GET', `/api/wert-charges/${res.body.id}`, { token: me.authToken });
    expect(answer.body).toMatchObject({ status: 'MINTED', success: true, order: { status: 'minted' } });
    expect(answer.body.order.events.map((e: Json) => e.type)).toEqual([
      'created',
      'authorized',
      'minting',
      'minted',
    ]);
  });

  it('a payment that completes after the edition sold out goes back as FUSD; the page’s charge tells it with the timeline', async () => {
    const me = await buyer();
    const other = await buyer();
    const before = await fusd(me.walletAddress);
    const bp = await edition(900, 1);
    const res = await buy(me, bp);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The order's time runs out before the buyer pays (our clock; the widget is still open)…
    await expireOrders(t.database.db, new Date(Date.now() + 2 * 3600_000));
    expect(
      (await t.database.db.select().from(orders).where(eq(orders.id, res.body.order.id)))[0]!.status,
    ).toBe('expired');
    // …and someone else takes the last edition: it is sold out.
    expect((await buy(other, bp)).status).toBe(201);
    expect(await buy(me, bp)).toMatchObject({ status: 409, body: { code: 'SOLD_OUT' } });
    await pay(res.body);
    // The widget's success ends the checkout on the purchase-complete page, which syncs the charge…
    await settled(me, res.body.id);
    // …and reads it until the payment went back.
    const read = async () =>
      (await t.request('GET', `/api/wert-charges/${res.body.id}`, { token: me.authToken })).body;
    const page = await until(read, (c) => followOnramp(c).stage !== 'refunding');
    expect(followOnramp(page)).toMatchObject({
      stage: 'refunded',
      refund: { cents: 900, to: 'wallet' },
      order: { status: 'refunded' },
    });
    expect(page).toMatchObject({ status: 'SEND_FUSD_SUCCEEDED', success: false, unresolved: false });
    expect(page.fusdTransactionId).toMatch(/^[0-9a-f]{64}$/);
    // (The expiry is dated by the clock the test moved forward, so the events are compared as a set.)
    expect(page.order.events.map((e: Json) => [e.type, e.detail])).toEqual(
      expect.arrayContaining([
        ['paid_late', 'Your payment arrived after the order ended: it is refunded as FUSD to your wallet.'],
        ['fusd_sent', '$9 was sent back as FUSD to your wallet.'],
      ]),
    );
    expect(await fusd(me.walletAddress)).toBeCloseTo(before + 9, 8);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, res.body.order.id));
    expect(order!.status).toBe('refunded');
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order!.id));
    expect(events.map((e) => e.type).sort()).toEqual(['created', 'expired', 'fusd_sent', 'paid_late'].sort());
    // Another read sends nothing more.
    await sync(me, res.body.id);
    await new Promise((r) => setTimeout(r, 500));
    expect(await fusd(me.walletAddress)).toBeCloseTo(before + 9, 8);
    expect((await charge(res.body.id)).status).toBe('SEND_FUSD_SUCCEEDED');
  });
});
