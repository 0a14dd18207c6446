import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import scSigner from '@wert-io/widget-sc-signer';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  publicKeyOf,
  SANDBOX_API_KEY,
  SANDBOX_PARTNER_ID,
  SANDBOX_PRIVATE_KEY,
  signatureValid,
  signedMessage,
  startWertSandbox,
  type WertSandbox,
} from '../../sandbox/wert/index';
import { loadConfig } from '../../server/config';
import { OnrampProviderUnavailableError } from '../../server/payments/onramp-provider';
import { createWertProvider, signScData } from '../../server/payments/wert';
import { type OpenWidget, openWidget, type WidgetMessage, widgetUrl } from './support/wert';

/**
 * The on-ramp's pieces against each other: the partner signature (the official signer, checked
 * against Wert's published example), the sandbox's widget at the URL the official
 * `@wert-io/widget-initializer` opens and the messages its page posts to the opener, its webhooks
 * and Data API, the server's adapter, and the `wert` config block.
 */

/**
 * Wert's published example (docs.wert.io/docs/nft-module-widget): a sandbox widget URL for an NFT
 * mint on Sepolia, signed with the sandbox private key of Wert's own example repository
 * (wert-io/widget-integration-example, src/buy-nft.ts). The copy of the page we could retrieve cuts
 * the signature after DOCS_PREFIX (84 of its 128 hex digits); Ed25519 signatures are deterministic,
 * so the official signer reproducing that prefix from the six values and that key is the check, and
 * DOCS_SIGNATURE is the whole signature it gives.
 */
const DOCS = {
  fields: {
    address: '0x96D5990185022212d367A0e09263B12Dbb4EE06A',
    commodity: 'ETH',
    commodity_amount: 0.005,
    network: 'sepolia',
    sc_address: '0x3b2305502bd6f8b1eb2ed474ac15c61c6702b18b',
    sc_input_data:
      '0x9dae76ea000000000000000000000000000000000000000000000000000000000000003700000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000001',
  },
  privateKey: '0x57466afb5491ee372b3b30d82ef7e7a0583c9e36aef0f02435bd164fe172b1d3',
};
const DOCS_PREFIX = 'D4383F7ACB2FC8D0AF6467FE1C4B2D9821A6311EBEB967ED8729C2CC6B1A669D16DED09C4B2A215DFA15';
const DOCS_SIGNATURE = `${DOCS_PREFIX}F084CAD36F8AA6F671F78BE7076494BBDF1FD2A4BD04`;

const asQuery = (fields: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));

describe('the partner signature', () => {
  it('reproduces the signature Wert published for its example with the official signer', () => {
    const signed = scSigner.signSmartContractData(DOCS.fields, DOCS.privateKey);
    expect(signed.signature.startsWith(DOCS_PREFIX)).toBe(true);
    expect(signed.signature).toBe(DOCS_SIGNATURE);
    expect(signScData(DOCS.fields, DOCS.privateKey).signature).toBe(DOCS_SIGNATURE);
    // The message: key:value lines in the signer's order, commodity and network lower-cased.
    expect(signedMessage(asQuery(DOCS.fields))).toBe(
      [
        `address:${DOCS.fields.address}`,
        'commodity:eth',
        'commodity_amount:0.005',
        'network:sepolia',
        `sc_address:${DOCS.fields.sc_address}`,
        `sc_input_data:${DOCS.fields.sc_input_data}`,
      ].join('\n'),
    );
  });

  it('verifies with the public key of the partner key; any changed field or another key fails', () => {
    const publicKey = publicKeyOf(DOCS.privateKey);
    const query = asQuery(DOCS.fields);
    expect(signatureValid(query, DOCS_SIGNATURE, publicKey)).toBe(true);
    // Case does not matter where the signer lower-cases, nor for the hex of the signature.
    expect(
      signatureValid({ ...query, commodity: 'eth', network: 'SEPOLIA' }, DOCS_SIGNATURE, publicKey),
    ).toBe(true);
    expect(signatureValid(query, DOCS_SIGNATURE.toLowerCase(), publicKey)).toBe(true);
    for (const [key, value] of Object.entries({
      address: '0x96D5990185022212d367A0e09263B12Dbb4EE06B',
      commodity_amount: '0.0051',
      sc_address: '0x3b2305502bd6f8b1eb2ed474ac15c61c6702b18c',
      sc_input_data: `${DOCS.fields.sc_input_data.slice(0, -1)}2`,
    }))
      expect(signatureValid({ ...query, [key]: value }, DOCS_SIGNATURE, publicKey), key).toBe(false);
    expect(signatureValid(query, DOCS_SIGNATURE, publicKeyOf(SANDBOX_PRIVATE_KEY))).toBe(false);
    expect(signatureValid(query, 'F'.repeat(128), publicKey)).toBe(false);
    expect(signatureValid(query, undefined, publicKey)).toBe(false);
    expect(signatureValid({ ...query, sc_input_data: '' }, DOCS_SIGNATURE, publicKey)).toBe(false);
  });

  it('signs numbers with at most 8 decimals and refuses a malformed key', () => {
    const fields = { ...DOCS.fields, commodity: 'FUSD', network: 'flow', commodity_amount: 12.5 };
    expect(signScData(fields, SANDBOX_PRIVATE_KEY).signature).toMatch(/^[0-9A-F]{128}$/);
    expect(() => signScData({ ...fields, commodity_amount: 0.123456789 }, SANDBOX_PRIVATE_KEY)).toThrow(
      /8 decimals/,
    );
    expect(() => signScData({ ...fields, commodity_amount: 0 }, SANDBOX_PRIVATE_KEY)).toThrow();
    expect(() => signScData(fields, 'not-a-key')).toThrow(/32 bytes/);
  });
});

describe('the on-ramp sandbox', () => {
  let sandbox: WertSandbox;
  let receiver: Server;
  const received: Record<string, unknown>[] = [];
  let answerWith = 200;
  const open: OpenWidget[] = [];

  beforeAll(async () => {
    const app = new Hono();
    app.post('/hook', async (c) => {
      received.push(await c.req.json());
      return c.json({}, answerWith as 200);
    });
    receiver = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((resolve) => receiver.once('listening', () => resolve()));
    sandbox = await startWertSandbox({
      port: 0,
      webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      retrySchedule: [0.05, 0.05],
      transferAfterMs: 50,
      completeAfterMs: 50,
    });
  });
  afterAll(async () => {
    for (const w of open) w.close();
    await sandbox?.close();
    await new Promise<void>((resolve) => {
      receiver?.close(() => resolve());
      receiver?.closeAllConnections();
    });
  });

  /** Signed options for a purchase of `amount` FUSD, as the server makes them. */
  const signedFor = (amount: number, clickId: string) => ({
    ...signScData(
      {
        address: '0x01cf0e2f2f715450',
        commodity: 'FUSD',
        commodity_amount: amount,
        network: 'flow-emulator',
        sc_address: '0xf8d6e0586b0a20c7',
        sc_input_data: `0x${Buffer.from(JSON.stringify({ orderId: clickId })).toString('hex')}`,
      },
      SANDBOX_PRIVATE_KEY,
    ),
    partner_id: SANDBOX_PARTNER_ID,
    click_id: clickId,
    origin: sandbox.url,
  });
  const load = async (src: string) => {
    const w = await openWidget(src);
    open.push(w);
    return w;
  };
  const paymentStatuses = (messages: WidgetMessage[]) =>
    messages.filter((m) => m.type === 'payment-status').map((m) => m.data);
  async function until<T>(read: () => T, done: (v: T) => boolean, ms = 5000): Promise<T> {
    for (const end = Date.now() + ms; ; ) {
      const v = read();
      if (done(v) || Date.now() > end) return v;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('serves the widget at the URL the official initializer opens; the page shows the amount, then the item', async () => {
    const clickId = crypto.randomUUID();
    const src = widgetUrl({
      ...signedFor(25, clickId),
      extra: { item_info: { name: 'Night Market #1', author: 'Aria Sounds', seller: 'Vitrine' } },
    });
    const url = new URL(src);
    expect(`${url.origin}${url.pathname}`).toBe(`${sandbox.url}/${SANDBOX_PARTNER_ID}/widget`);
    expect(url.searchParams.get('click_id')).toBe(clickId);
    expect(url.searchParams.get('commodity_amount')).toBe('25');
    expect(url.searchParams.get('widget_layout_mode')).toBe('Modal');
    expect(url.searchParams.get('await_data')).toBe('true');
    const w = await load(src);
    expect(w.status).toBe(200);
    expect(w.document.body.textContent).toContain('$25.00 USD');
    // The page announces itself as the real widget does; the opener then sends `extra`.
    await w.waitFor((m) => m.type === 'loaded');
    expect(w.messages.map((m) => m.type)).toEqual(['loaded', 'rate-update', 'position']);
    expect(w.messages[1]).toEqual({
      type: 'rate-update',
      data: {
        ticker: '1',
        fee_percent: '0',
        currency_amount: '25.00',
        fee_amount: '0',
        commodity_amount: '25',
        purchase_amount: '25.00',
        miner_fee: '0',
        currency_miner_fee: '0',
      },
    });
    expect(w.messages[2]).toEqual({ type: 'position', data: { step: 'order-review' } });
    w.send({
      type: 'extra',
      data: { item_info: { name: 'Night Market #1', author: 'Aria Sounds', seller: 'Vitrine' } },
    });
    expect(w.document.getElementById('item-name')!.textContent).toBe('Night Market #1');
    expect(w.document.getElementById('item-by')!.textContent).toBe('Aria Sounds · Vitrine');
    // Wert's own example URL form (/widget/order) is served too.
    const docsForm = await fetch(src.replace('/widget?', '/widget/order?'));
    expect(docsForm.status).toBe(200);
  });

  it('refuses a bad signature visibly: no Pay button, an error event, and no order', async () => {
    const clickId = crypto.randomUUID();
    const options = signedFor(25, clickId);
    const src = widgetUrl({ ...options, commodity_amount: 2.5 });
    const w = await load(src);
    expect(w.status).toBe(400);
    expect(w.document.querySelector('[role="alert"]')!.textContent).toContain('error 9004');
    expect(w.document.querySelector('button[value="pay"]')).toBeNull();
    await w.waitFor((m) => m.type === 'error');
    expect(w.messages).toContainEqual({
      type: 'error',
      data: { name: 'SignatureError', message: 'The signature does not match the order data (error 9004).' },
    });
    // Nor can the action be forced over HTTP.
    const forced = await fetch(`${sandbox.url}/${SANDBOX_PARTNER_ID}/widget/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'pay', query: new URL(src).search }),
    });
    expect(forced.status).toBe(400);
    expect(sandbox.orderOf(clickId)).toBeUndefined();
    // An unknown partner is a page of its own.
    expect((await fetch(src.replace(SANDBOX_PARTNER_ID, '01HVUNKNOWN000000000000000'))).status).toBe(404);
  });

  it('Pay: the page posts the payment statuses, webhooks follow, and the Data API confirms', async () => {
    const clickId = crypto.randomUUID();
    const w = await load(widgetUrl(signedFor(12.5, clickId)));
    await w.waitFor((m) => m.type === 'loaded');
    w.press('pay');
    await w.waitFor((m) => m.type === 'payment-status' && m.data?.status === 'success');
    const order = sandbox.orderOf(clickId)!;
    expect(order).toMatchObject({ status: 'success', txId: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const common = { order_id: order.id, payment_id: expect.any(String), external_order_id: clickId };
    expect(paymentStatuses(w.messages)).toEqual([
      { status: 'pending', ...common },
      { status: 'pending', ...common, tx_id: order.txId },
      { status: 'success', ...common, tx_id: order.txId },
    ]);
    const hooks = await until(
      () => received.filter((h) => h.click_id === clickId),
      (h) => h.length === 3,
    );
    expect(hooks.map((h) => h.type)).toEqual(['payment_started', 'transfer_started', 'order_complete']);
    expect(hooks[2]).toMatchObject({
      type: 'order_complete',
      click_id: clickId,
      order: {
        id: order.id,
        commodity: 'FUSD',
        commodity_amount: '12.5',
        currency: 'USD',
        currency_amount: '12.50',
        transaction_id: order.txId,
        sc_address: '0xf8d6e0586b0a20c7',
      },
    });
    expect(JSON.stringify(hooks)).not.toContain('signature');
    const api = await fetch(`${sandbox.url}/api/external/orders?search_by=${clickId}`, {
      headers: { 'X-API-KEY': SANDBOX_API_KEY },
    });
    expect(await api.json()).toMatchObject({
      success: true,
      total: 1,
      data: [
        {
          order_id: order.id,
          click_id: clickId,
          status: 'success',
          currency: 'usd',
          currency_amount: 12.5,
          crypto: 'fusd.sc.flow-emulator',
          crypto_amount: 12.5,
          tx_id: order.txId,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        },
      ],
    });
    // The page of a purchase that has an order shows where it stands; a second Pay is refused.
    const again = await fetch(widgetUrl(signedFor(12.5, clickId)));
    expect(await again.text()).toContain('Payment complete');
    const second = await fetch(`${sandbox.url}/${SANDBOX_PARTNER_ID}/widget/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'pay', query: new URL(widgetUrl(signedFor(12.5, clickId))).search }),
    });
    expect(second.status).toBe(409);
  });

  it('Fail is a declined card and Cancel a canceled order; Close only closes', async () => {
    const failing = crypto.randomUUID();
    const w = await load(widgetUrl(signedFor(5, failing)));
    w.press('fail');
    await w.waitFor((m) => m.type === 'payment-status' && m.data?.status === 'failed');
    expect(sandbox.orderOf(failing)!.status).toBe('failed');
    const canceling = crypto.randomUUID();
    const c = await load(widgetUrl(signedFor(5, canceling)));
    c.press('cancel');
    await c.waitFor((m) => m.type === 'payment-status' && m.data?.status === 'canceled');
    const hooks = await until(
      () => received.filter((h) => h.click_id === failing || h.click_id === canceling).map((h) => h.type),
      (t) => t.length === 4,
    );
    expect(hooks.sort()).toEqual(['order_canceled', 'order_failed', 'payment_started', 'payment_started']);
    const closing = crypto.randomUUID();
    const x = await load(widgetUrl(signedFor(5, closing)));
    x.press('close');
    await x.waitFor((m) => m.type === 'close');
    expect(sandbox.orderOf(closing)).toBeUndefined();
  });

  it('without autoComplete an order waits; tests move it on; a failed contract call fails over, and the failover ends', async () => {
    sandbox.setAutoComplete(false);
    try {
      /** A paid order of a new purchase, waiting. */
      const paid = async () => {
        const clickId = crypto.randomUUID();
        const res = await fetch(`${sandbox.url}/${SANDBOX_PARTNER_ID}/widget/actions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ action: 'pay', query: new URL(widgetUrl(signedFor(3, clickId))).search }),
        });
        expect(res.status).toBe(201);
        const { order_id } = (await res.json()) as { order_id: string };
        return { clickId, orderId: order_id };
      };
      const control = (orderId: string, action: string, key = SANDBOX_API_KEY) =>
        fetch(`${sandbox.url}/sandbox/orders/${orderId}/${action}`, {
          method: 'POST',
          headers: { 'X-API-KEY': key },
        });
      const hooks = (clickId: string, n: number) =>
        until(
          () => received.filter((h) => h.click_id === clickId).map((h) => h.type),
          (t) => t.length === n,
        );
      const dataApi = async (orderId: string) =>
        (
          (await (
            await fetch(`${sandbox.url}/api/external/orders?search_by=${orderId}`, {
              headers: { 'X-API-KEY': SANDBOX_API_KEY },
            })
          ).json()) as { data: { status: string }[] }
        ).data[0]!.status;

      const first = await paid();
      await new Promise((r) => setTimeout(r, 200));
      expect(sandbox.orderOf(first.clickId)!.status).toBe('pending');
      // The failover's end needs a failover first.
      expect((await control(first.orderId, 'failover-complete')).status).toBe(409);
      expect((await control(first.orderId, 'failover', 'wrong')).status).toBe(401);
      expect((await control(first.orderId, 'failover')).status).toBe(200);
      expect((await control(first.orderId, 'complete')).status).toBe(409);
      expect(sandbox.orderOf(first.clickId)!.status).toBe('failover');
      expect(await dataApi(first.orderId)).toBe('failover');
      expect(await hooks(first.clickId, 3)).toEqual([
        'payment_started',
        'transfer_started',
        'tx_smart_contract_failed',
      ]);
      // The coins go to the buyer's address instead: failover_complete, once.
      expect((await control(first.orderId, 'failover-complete')).status).toBe(200);
      expect((await control(first.orderId, 'failover-cancel')).status).toBe(409);
      expect(await dataApi(first.orderId)).toBe('failover_complete');
      expect((await hooks(first.clickId, 4)).at(-1)).toBe('failover_complete');

      // Or the failover is canceled: failover_cancelled.
      const second = await paid();
      expect(sandbox.failover(second.orderId)).toBe(true);
      expect(sandbox.failoverCancel(second.orderId)).toBe(true);
      expect(sandbox.failoverComplete(second.orderId)).toBe(false);
      expect(await dataApi(second.orderId)).toBe('failover_cancelled');
      expect(await hooks(second.clickId, 4)).toEqual([
        'payment_started',
        'transfer_started',
        'tx_smart_contract_failed',
        'failover_cancelled',
      ]);
    } finally {
      sandbox.setAutoComplete(true);
    }
  });

  it('retries a delivery that is not answered with 2xx', async () => {
    answerWith = 500;
    const clickId = crypto.randomUUID();
    try {
      await fetch(`${sandbox.url}/${SANDBOX_PARTNER_ID}/widget/actions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'cancel', query: new URL(widgetUrl(signedFor(3, clickId))).search }),
      });
      const attempts = await until(
        () => sandbox.deliveries.filter((d) => d.clickId === clickId && d.type === 'order_canceled'),
        (d) => d.length === 3,
      );
      expect(attempts.map((d) => d.status)).toEqual([500, 500, 500]);
    } finally {
      answerWith = 200;
    }
  });

  it('the adapter reads orders from the Data API; no key, a refused key or no answer is unavailable', async () => {
    const clickId = crypto.randomUUID();
    await fetch(`${sandbox.url}/${SANDBOX_PARTNER_ID}/widget/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'fail', query: new URL(widgetUrl(signedFor(7, clickId))).search }),
    });
    const provider = createWertProvider({
      partnerId: SANDBOX_PARTNER_ID,
      origin: `${sandbox.url}/`,
      privateKey: SANDBOX_PRIVATE_KEY,
      apiUrl: sandbox.url,
      apiKey: SANDBOX_API_KEY,
    });
    expect(provider.origin).toBe(sandbox.url);
    const [order] = await provider.findOrders(clickId);
    expect(order).toEqual({
      id: sandbox.orderOf(clickId)!.id,
      clickId,
      status: 'failed',
      txId: null,
      commodityAmount: 7,
      scAddress: '0xf8d6e0586b0a20c7',
      scInputData: signedFor(7, clickId).sc_input_data,
      address: '0x01cf0e2f2f715450',
    });
    expect(await provider.findOrders(order!.id)).toEqual([order]);
    expect(await provider.findOrders(crypto.randomUUID())).toEqual([]);
    expect(await provider.findOrders('../../etc')).toEqual([]);
    const refused = createWertProvider({
      partnerId: SANDBOX_PARTNER_ID,
      origin: sandbox.url,
      privateKey: SANDBOX_PRIVATE_KEY,
      apiUrl: sandbox.url,
      apiKey: 'wert-sbox-wrong',
    });
    await expect(refused.findOrders(clickId)).rejects.toBeInstanceOf(OnrampProviderUnavailableError);
    const gone = createWertProvider({
      partnerId: SANDBOX_PARTNER_ID,
      origin: sandbox.url,
      privateKey: SANDBOX_PRIVATE_KEY,
      apiUrl: 'http://127.0.0.1:9',
      apiKey: SANDBOX_API_KEY,
      timeoutMs: 2000,
    });
    await expect(gone.findOrders(clickId)).rejects.toBeInstanceOf(OnrampProviderUnavailableError);
  });

  it('accepts Wert’s own example URL for the partner whose key signed it', async () => {
    const docs = await startWertSandbox({
      port: 0,
      partnerId: 'YOUR_PARTNER_ID',
      publicKey: publicKeyOf(DOCS.privateKey),
    });
    try {
      const query = new URLSearchParams({ ...asQuery(DOCS.fields), signature: DOCS_SIGNATURE });
      const res = await fetch(`${docs.url}/YOUR_PARTNER_ID/widget/order?${query}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('$10.00 USD');
    } finally {
      await docs.close();
    }
  });
});

describe('the wert config block', () => {
  const base = { VITRINE_DATA_DIR: '/tmp/vitrine-wert-config', JWT_SECRET: 'x'.repeat(40) };

  it('defaults to the embedded sandbox, signing FUSD to the emulator treasury', () => {
    expect(loadConfig({ ...base }).wert).toEqual({
      mode: 'embedded',
      partnerId: SANDBOX_PARTNER_ID,
      origin: undefined,
      privateKey: SANDBOX_PRIVATE_KEY,
      apiUrl: undefined,
      apiKey: SANDBOX_API_KEY,
      sandboxPort: 8792,
      commodity: 'FUSD',
      network: 'flow-emulator',
      scAddress: '0xf8d6e0586b0a20c7',
    });
    expect(loadConfig({ ...base, WERT: 'off' }).wert.mode).toBe('off');
    expect(loadConfig({ ...base, WERT_SANDBOX_PORT: '0' }).wert.sandboxPort).toBe(0);
    expect(loadConfig({ ...base, FLOW_NETWORK: 'testnet', FLOW_ADMIN_ADDRESS: '0x1234' }).wert).toMatchObject(
      { network: 'flow-testnet', scAddress: '0x0000000000001234' },
    );
  });

  it('remote needs the origin, partner id, key, Data API and its key; values are checked', () => {
    const remote = {
      ...base,
      WERT: 'remote',
      WERT_ORIGIN: 'https://sandbox.wert.io/',
      WERT_PARTNER_ID: '01GCRJZ1P7GP32304PZCS6RSPD',
      WERT_PRIVATE_KEY: DOCS.privateKey,
      WERT_API_URL: 'https://partner-sandbox.wert.io',
      WERT_API_KEY: 'wert-sbox-abc',
    };
    expect(loadConfig(remote).wert).toMatchObject({
      mode: 'remote',
      origin: 'https://sandbox.wert.io',
      privateKey: DOCS.privateKey.slice(2),
      apiUrl: 'https://partner-sandbox.wert.io',
    });
    expect(() => loadConfig({ ...remote, WERT_API_KEY: '' })).toThrow(/WERT_API_KEY is required/);
    expect(() => loadConfig({ ...remote, WERT_PRIVATE_KEY: 'abc' })).toThrow(/32 bytes/);
    expect(() => loadConfig({ ...base, WERT: 'sometimes' })).toThrow(/embedded, remote or off/);
    expect(() => loadConfig({ ...base, WERT_COMMODITY: 'ETH' })).toThrow(/WERT_COMMODITY/);
  });
});
