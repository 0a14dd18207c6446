import { type Context, Hono } from 'hono';
import { listen } from '../http';
import { createOrderStore } from './orders';
import { publicKeyOf } from './signing';
import {
  DEFAULT_RETRY_SCHEDULE,
  type Order,
  SANDBOX_API_KEY,
  SANDBOX_DEFAULT_PORT,
  SANDBOX_PARTNER_ID,
  SANDBOX_PRIVATE_KEY,
  type WertSandbox,
  type WertSandboxOptions,
} from './types';
import { createWebhooks } from './webhooks';
import { widgetRoutes } from './widget';

export { publicKeyOf, SIGNED_KEYS, signatureValid, signedMessage } from './signing';
export {
  DEFAULT_RETRY_SCHEDULE,
  SANDBOX_API_KEY,
  SANDBOX_DEFAULT_PORT,
  SANDBOX_PARTNER_ID,
  SANDBOX_PRIVATE_KEY,
  type WertOrderStatus,
  type WertSandbox,
  type WertSandboxOptions,
} from './types';

/**
 * A Wert-shaped card-to-crypto on-ramp for development and tests: its own HTTP service on its own
 * port and origin, imitating what a partner of Wert's NFT (smart-contract) checkout sees.
 *
 * - **The widget** at `GET /{partner_id}/widget?…` — the URL `@wert-io/widget-initializer` (7.x)
 *   opens in its iframe when `origin` is this service: `${origin}/${partner_id}/widget` and every
 *   option that is not an object as a query parameter (`click_id`, `address`, `commodity`,
 *   `commodity_amount`, `network`, `sc_address`, `sc_input_data`, `signature`, …, plus
 *   `widget_layout_mode=Modal` and `await_data=true` when `extra` is given). The docs' direct form
 *   `/{partner_id}/widget/order?…` is served too. The page checks the Ed25519 `signature` over the
 *   six signed fields with the partner's public key (a bad one shows "Signature check failed", code
 *   9004, and nothing can be paid), shows the amount and, once the opener sends `extra`, the item
 *   (`extra.item_info`), and offers Pay, Fail (the card is declined), Cancel (the order is canceled)
 *   and Close.
 * - **The widget's events**, posted to `window.parent` (or `window.opener`) as the real widget does
 *   (`{ type, data? }`, target origin `*`): `loaded` when the page is ready (the initializer then
 *   answers with `allow-redirect`, `extra` and `parent-hostname`), `position { step }`,
 *   `rate-update { ticker, fee_percent, currency_amount, fee_amount, commodity_amount,
 *   purchase_amount, miner_fee, currency_miner_fee }` (strings), `payment-status { status, payment_id,
 *   order_id, tx_id?, external_order_id }` with status pending (again with `tx_id` once the
 *   transaction is sent), success, failed, canceled or failover, `error { name, message }` and
 *   `close`. The page relays the events the service lists for the order
 *   (`GET /{partner_id}/widget/orders/{order_id}/events?since=n`), so tests read the same messages
 *   over HTTP.
 * - **Webhooks** to the configured URL, unsigned as Wert's are (JSON, `type` and `click_id`, an
 *   order's events with `order { id, commodity, commodity_amount, currency, currency_amount, address,
 *   transaction_id, sc_address, sc_input_data }` and `user`): payment_started, transfer_started,
 *   order_complete, order_failed, order_canceled, tx_smart_contract_failed, failover_complete,
 *   failover_cancelled. A delivery answered with
 *   anything but 2xx (or not at all) is retried on the schedule (Wert: 5 min, 1 h, 2 h, 4 h, 8 h).
 * - **The Data API** `GET /api/external/orders?search_by=&limit=&offset=&order_by=` with
 *   `X-API-KEY` → `{ success, data: [order], total }`, shaped like Wert's partner Data API
 *   (docs.wert.io/docs/data-api: `order_id`, `click_id`, `currency`, `currency_amount`, `crypto`,
 *   `crypto_amount`, `user_id`, `status`, `card_id`, `created_at`, `changed_at`, `partner_fee`,
 *   `partner_fee_percent`). Wert documents `success` as a status but not the whole list; the sandbox
 *   uses the widget's payment statuses (pending, success, failed, canceled, failover: the contract
 *   call failed) and the failover's two ends as its webhooks name them (failover_complete: the coins
 *   went to the buyer's address; failover_cancelled: they did not, the card payment goes back), and adds
 *   `tx_id`, `address`, `sc_address`, `sc_input_data` (which an NFT order's webhooks carry) so a
 *   partner can check the order is the one it signed. The error answer's shape is not documented:
 *   `{ success: false, error }` here.
 *
 * One order per `click_id` (the widget of a purchase that has an order shows where it stands). After
 * Pay the order is pending; with `autoComplete` (the default) its transaction is sent after
 * `transferAfterMs` and it succeeds after `completeAfterMs` more; otherwise tests move it with
 * `complete`, `fail` and `failover`, and a failed-over order with `failoverComplete` or
 * `failoverCancel` (or `POST /sandbox/orders/{id}/{action}` with the API key: transfer, complete,
 * fail, failover, failover-complete, failover-cancel).
 * State lives in memory (the newest MAX_ENTRIES orders).
 */

export async function startWertSandbox(options: WertSandboxOptions = {}): Promise<WertSandbox> {
  const partnerId = options.partnerId ?? SANDBOX_PARTNER_ID;
  const publicKey = (options.publicKey ?? publicKeyOf(SANDBOX_PRIVATE_KEY)).toLowerCase();
  const apiKey = options.apiKey ?? SANDBOX_API_KEY;
  const retrySchedule = options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE;
  const copies = Math.max(1, options.deliveries ?? 1);
  let autoComplete = options.autoComplete ?? true;
  const transferAfterMs = options.transferAfterMs ?? 1000;
  const completeAfterMs = options.completeAfterMs ?? 1000;
  const now = options.now ?? (() => new Date());
  let webhookUrl = options.webhookUrl;
  let origin = '';
  let closed = false;

  const timers = new Set<NodeJS.Timeout>();
  const deliveries: WertSandbox['deliveries'] = [];

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) run();
    }, ms);
    timers.add(timer);
  };

  const webhook = createWebhooks({
    webhookUrl: () => webhookUrl,
    retrySchedule,
    copies,
    later,
    closed: () => closed,
    deliveries,
  });
  const store = createOrderStore({
    now,
    autoComplete: () => autoComplete,
    transferAfterMs,
    completeAfterMs,
    later,
    webhook,
  });
  const { sendTransaction, complete, fail, failover, endFailover, dataApiOrder } = store;

  /* ---- HTTP ---- */

  const app = new Hono();
  widgetRoutes(app, { partnerId, publicKey, store });

  /* ---- the Data API ---- */

  const keyOk = (c: Context) => c.req.header('x-api-key') === apiKey;

  app.get('/api/external/orders', (c) => {
    if (!keyOk(c)) return c.json({ success: false, error: 'Invalid API key' }, 401);
    const limit = Math.min(100, Math.max(1, Number(c.req.query('limit')) || 10));
    const offset = Math.max(0, Number(c.req.query('offset')) || 0);
    const search = c.req.query('search_by');
    let found = store.all();
    if (search) found = found.filter((o) => o.id === search || o.params.clickId === search);
    found.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    if (c.req.query('order_by') !== 'asc') found.reverse();
    return c.json({
      success: true,
      data: found.slice(offset, offset + limit).map(dataApiOrder),
      total: found.length,
    });
  });

  /* ---- test controls (API key) ---- */

  const controls: Record<string, (o: Order) => boolean> = {
    transfer: sendTransaction,
    complete,
    fail,
    failover,
    'failover-complete': (o) => endFailover(o, 'failover_complete'),
    'failover-cancel': (o) => endFailover(o, 'failover_cancelled'),
  };
  app.post('/sandbox/orders/:orderId/:action', (c) => {
    if (!keyOk(c)) return c.json({ success: false, error: 'Invalid API key' }, 401);
    const order = store.byId(c.req.param('orderId'));
    const control = controls[c.req.param('action')];
    if (!order || !control) return c.json({ success: false, error: 'Not found' }, 404);
    if (!control(order)) return c.json({ success: false, error: `The order is ${order.status}` }, 409);
    return c.json({ success: true, data: dataApiOrder(order) });
  });

  const server = await listen(app.fetch, options.port ?? SANDBOX_DEFAULT_PORT, options.host);
  const { port } = server;
  origin = server.origin;
  const byId = store.byId;
  return {
    url: origin,
    port,
    partnerId,
    deliveries,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    setAutoComplete(on) {
      autoComplete = on;
    },
    orderOf(clickId) {
      const order = store.byClickId(clickId);
      return order ? { id: order.id, status: order.status, txId: order.txId } : undefined;
    },
    transfer: (id) => {
      const o = byId(id);
      return o ? sendTransaction(o) : false;
    },
    complete: (id) => {
      const o = byId(id);
      return o ? complete(o) : false;
    },
    fail: (id) => {
      const o = byId(id);
      return o ? fail(o) : false;
    },
    failover: (id) => {
      const o = byId(id);
      return o ? failover(o) : false;
    },
    failoverComplete: (id) => {
      const o = byId(id);
      return o ? endFailover(o, 'failover_complete') : false;
    },
    failoverCancel: (id) => {
      const o = byId(id);
      return o ? endFailover(o, 'failover_cancelled') : false;
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await server.close();
    },
  };
}
