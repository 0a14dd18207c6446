import { createHash, randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { type Context, Hono } from 'hono';
import { escapeHtml, listen, postWebhook } from '../http';

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

/** A Wert-style partner id (a ULID): the sandbox's only partner unless told otherwise. */
export const SANDBOX_PARTNER_ID = '01HVSANDBXPARTNER000000000';
/**
 * The sandbox partner's Ed25519 private key (32-byte seed, hex). Published on purpose: it signs
 * nothing but sandbox purchases. The sandbox knows its public key.
 */
export const SANDBOX_PRIVATE_KEY = 'ef12ea95a89a3a85f5aefe5c90dc665bd806100b621c13ee770e01f690273f73';
/** The Data API key (Wert's look like `wert-sbox-…` / `wert-prod-…`). */
export const SANDBOX_API_KEY = 'wert-sbox-vitrine-000000000000000001';
export const SANDBOX_DEFAULT_PORT = 8792;
/** Seconds before each retry of a failed delivery (Wert's documented schedule). */
export const DEFAULT_RETRY_SCHEDULE = [300, 3600, 7200, 14_400, 28_800];

const MAX_ENTRIES = 10_000;

/** The six fields the partner signs, in the signer's order. */
export const SIGNED_KEYS = [
  'address',
  'commodity',
  'commodity_amount',
  'network',
  'sc_address',
  'sc_input_data',
] as const;

/** The public key (hex) of an Ed25519 seed (hex, optional 0x). */
export function publicKeyOf(privateKey: string): string {
  return bytesToHex(ed25519.getPublicKey(hexToBytes(privateKey.replace(/^0x/i, ''))));
}

/**
 * The message the partner signs (widget-sc-signer 3.x): one `key:value` line per signed key, joined
 * by "\n"; commodity and network lower-cased; commodity_amount as the number it reads as (the
 * widget sends the number's decimal form). Null when a field is missing.
 */
export function signedMessage(fields: Partial<Record<(typeof SIGNED_KEYS)[number], string>>): string | null {
  const lines: string[] = [];
  for (const key of SIGNED_KEYS) {
    const raw = fields[key];
    if (typeof raw !== 'string' || raw === '') return null;
    const value =
      key === 'commodity' || key === 'network'
        ? raw.toLowerCase()
        : key === 'commodity_amount'
          ? String(Number.parseFloat(raw))
          : raw;
    lines.push(`${key}:${value}`);
  }
  return lines.join('\n');
}

/** Whether `signature` (128 hex digits, any case) signs the fields for the public key (hex). */
export function signatureValid(
  fields: Partial<Record<(typeof SIGNED_KEYS)[number], string>>,
  signature: string | undefined,
  publicKey: string,
): boolean {
  const message = signedMessage(fields);
  if (!message || typeof signature !== 'string' || !/^[0-9a-fA-F]{128}$/.test(signature)) return false;
  try {
    return ed25519.verify(
      hexToBytes(signature.toLowerCase()),
      new TextEncoder().encode(message),
      hexToBytes(publicKey),
    );
  } catch {
    return false;
  }
}

export interface WertSandboxOptions {
  /** 0 picks a free port; default SANDBOX_DEFAULT_PORT. */
  port?: number;
  host?: string;
  partnerId?: string;
  /** The partner's registered public key (hex); default the one of SANDBOX_PRIVATE_KEY. */
  publicKey?: string;
  apiKey?: string;
  /** Where webhooks go; none: no webhooks. */
  webhookUrl?: string;
  /** Seconds before each retry of a failed delivery. */
  retrySchedule?: number[];
  /** Deliver each webhook this many times (at-least-once delivery, for tests); default 1. */
  deliveries?: number;
  /** After Pay, send the transaction and succeed by themselves (default true). */
  autoComplete?: boolean;
  /** With autoComplete: from Pay to the transaction (default 1000 ms) and from it to success (default 1000 ms). */
  transferAfterMs?: number;
  completeAfterMs?: number;
  now?: () => Date;
}

/** The Data API's statuses (see above). */
export type WertOrderStatus =
  | 'pending'
  | 'success'
  | 'failed'
  | 'canceled'
  | 'failover'
  | 'failover_complete'
  | 'failover_cancelled';

export interface WertSandbox {
  url: string;
  port: number;
  partnerId: string;
  setWebhookUrl(url: string | undefined): void;
  setAutoComplete(on: boolean): void;
  /** Deliveries attempted so far: event type, click_id, order id and the HTTP status (0: no answer). */
  deliveries: { type: string; clickId: string; orderId: string; status: number }[];
  /** The order of a purchase, by click_id (tests). */
  orderOf(clickId: string): { id: string; status: WertOrderStatus; txId: string | null } | undefined;
  /**
   * Moves a pending order on (tests): its transaction, success, a declined card, or the contract
   * call failing (failover); then a failed-over order's end: the coins sent to the buyer's address,
   * or the failover canceled.
   */
  transfer(orderId: string): boolean;
  complete(orderId: string): boolean;
  fail(orderId: string): boolean;
  failover(orderId: string): boolean;
  failoverComplete(orderId: string): boolean;
  failoverCancel(orderId: string): boolean;
  close(): Promise<void>;
}

/** What the widget page was opened with (the query the initializer built). */
interface WidgetParams {
  clickId: string;
  address: string;
  commodity: string;
  commodityAmount: string;
  network: string;
  scAddress: string;
  scInputData: string;
  signature: string;
  currency: string;
}

interface WidgetEvent {
  type: string;
  data?: Record<string, unknown>;
}

interface Order {
  id: string;
  paymentId: string;
  userId: string;
  cardId: string;
  params: WidgetParams;
  status: WertOrderStatus;
  txId: string | null;
  createdAt: Date;
  changedAt: Date;
  /** The widget events of this order, in order (the page relays them). */
  events: WidgetEvent[];
}

/** Made-up USD prices of the coins the sandbox sells (stablecoins at par). */
const USD_RATES: Record<string, number> = {
  fusd: 1,
  usdc: 1,
  usdt: 1,
  flow: 0.5,
  eth: 2000,
  matic: 0.5,
  pol: 0.5,
};

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID (26 Crockford base-32 characters: 48-bit time, 80 random bits), as Wert's ids are. */
function ulid(at: Date): string {
  let time = at.getTime();
  let head = '';
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32] + head;
    time = Math.floor(time / 32);
  }
  let tail = '';
  for (const b of randomBytes(16)) tail += CROCKFORD[b % 32];
  return head + tail;
}

/** A ULID-shaped id that is always the same for the same seed. */
function stableId(seed: string): string {
  return [...createHash('sha256').update(seed).digest().subarray(0, 26)]
    .map((b) => CROCKFORD[b % 32])
    .join('');
}

/** "2022-12-15 10:51:02", as the Data API writes times (UTC). */
const apiTime = (d: Date) =>
  d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, '');

/** Dollars with cents, "25.00". */
const usd = (n: number) => (Math.round(n * 100) / 100).toFixed(2);

/** The widget params from a query string, or why they cannot be used. */
function readParams(query: URLSearchParams): { params: WidgetParams } | { error: string } {
  const get = (name: string) => query.get(name) ?? '';
  const params: WidgetParams = {
    clickId: get('click_id'),
    address: get('address'),
    commodity: get('commodity'),
    commodityAmount: get('commodity_amount'),
    network: get('network'),
    scAddress: get('sc_address'),
    scInputData: get('sc_input_data'),
    signature: get('signature'),
    currency: (query.get('currency') || 'USD').toUpperCase(),
  };
  const missing = [
    ['address', params.address],
    ['commodity', params.commodity],
    ['commodity_amount', params.commodityAmount],
    ['network', params.network],
    ['sc_address', params.scAddress],
    ['sc_input_data', params.scInputData],
    ['signature', params.signature],
  ].filter(([, value]) => !value);
  if (missing.length) return { error: `Missing ${missing.map(([k]) => k).join(', ')}` };
  // Up to 8 decimals (Wert's precision), more than zero.
  if (!/^\d{1,12}(\.\d{1,8})?$/.test(params.commodityAmount) || Number(params.commodityAmount) <= 0)
    return { error: 'commodity_amount must be a positive number with at most 8 decimals' };
  if (!(params.commodity.toLowerCase() in USD_RATES))
    return { error: `The sandbox does not sell ${params.commodity}` };
  if (params.clickId.length > 100) return { error: 'click_id is too long' };
  return { params };
}

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

  const orders = new Map<string, Order>();
  const byClick = new Map<string, string>();
  const timers = new Set<NodeJS.Timeout>();
  const deliveries: WertSandbox['deliveries'] = [];

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) run();
    }, ms);
    timers.add(timer);
  };

  const remember = (order: Order) => {
    orders.set(order.id, order);
    if (order.params.clickId) byClick.set(order.params.clickId, order.id);
    if (orders.size > MAX_ENTRIES) {
      const oldest = orders.values().next().value as Order;
      orders.delete(oldest.id);
      byClick.delete(oldest.params.clickId);
    }
  };

  const currencyAmount = (p: WidgetParams) =>
    Number(p.commodityAmount) * (USD_RATES[p.commodity.toLowerCase()] ?? 0);

  /* ---- webhooks ---- */

  async function deliver(
    body: string,
    meta: { type: string; clickId: string; orderId: string },
    attempt: number,
  ) {
    if (closed || !webhookUrl) return;
    // Wert counts an answer after 5 s as a failure.
    const status = await postWebhook(webhookUrl, body, {}, 5000);
    deliveries.push({ ...meta, status });
    if (deliveries.length > MAX_ENTRIES) deliveries.shift();
    if ((status < 200 || status >= 300) && attempt < retrySchedule.length) {
      later(retrySchedule[attempt]! * 1000, () => void deliver(body, meta, attempt + 1));
    }
  }

  function webhook(order: Order, type: string) {
    if (!webhookUrl) return;
    const p = order.params;
    const body = JSON.stringify({
      type,
      click_id: p.clickId,
      user: {
        user_id: order.userId,
        verification_status: { fkyc: { state: 'success' }, lkyc: { state: 'success' } },
      },
      order: {
        id: order.id,
        commodity: p.commodity.toUpperCase(),
        commodity_amount: p.commodityAmount,
        currency: p.currency,
        currency_amount: usd(currencyAmount(p)),
        address: p.address,
        transaction_id: order.txId,
        sc_address: p.scAddress,
        sc_input_data: p.scInputData,
      },
    });
    const meta = { type, clickId: p.clickId, orderId: order.id };
    for (let i = 0; i < copies; i++) void deliver(body, meta, 0);
  }

  /* ---- orders ---- */

  function paymentStatus(order: Order): WidgetEvent {
    return {
      type: 'payment-status',
      data: {
        status: order.status,
        payment_id: order.paymentId,
        order_id: order.id,
        ...(order.txId ? { tx_id: order.txId } : {}),
        // The initializer's types name it; the sandbox echoes the partner's click_id.
        external_order_id: order.params.clickId,
      },
    };
  }

  /** Moves an order to a status: its widget event and its webhook. */
  function setStatus(order: Order, status: WertOrderStatus, hook: string) {
    order.status = status;
    order.changedAt = now();
    order.events.push(paymentStatus(order));
    webhook(order, hook);
  }

  function sendTransaction(order: Order): boolean {
    if (order.status !== 'pending' || order.txId) return false;
    // A Flow transaction id: 32 bytes of hex.
    order.txId = createHash('sha256').update(`${order.id}:tx`).digest('hex');
    order.changedAt = now();
    order.events.push(paymentStatus(order));
    webhook(order, 'transfer_started');
    return true;
  }

  function complete(order: Order): boolean {
    if (order.status !== 'pending') return false;
    if (!order.txId) sendTransaction(order);
    setStatus(order, 'success', 'order_complete');
    order.events.push({ type: 'position', data: { step: 'order-status' } });
    return true;
  }

  function fail(order: Order): boolean {
    if (order.status !== 'pending') return false;
    setStatus(order, 'failed', 'order_failed');
    return true;
  }

  function failover(order: Order): boolean {
    if (order.status !== 'pending') return false;
    // The contract call failed: nothing reaches the partner, and the order fails over.
    if (!order.txId) sendTransaction(order);
    setStatus(order, 'failover', 'tx_smart_contract_failed');
    return true;
  }

  /** The failover's end: the coins sent to the buyer's own address, or not (the card payment goes back). */
  function endFailover(order: Order, status: 'failover_complete' | 'failover_cancelled'): boolean {
    if (order.status !== 'failover') return false;
    order.status = status;
    order.changedAt = now();
    webhook(order, status);
    return true;
  }

  /** A person pressed Pay, Fail or Cancel in the widget: the order, with its first events. */
  function openOrder(params: WidgetParams, action: 'pay' | 'fail' | 'cancel'): Order {
    const at = now();
    const order: Order = {
      id: ulid(at),
      paymentId: ulid(at),
      // One sandbox user per wallet address.
      userId: stableId(params.address),
      cardId: ulid(at),
      params,
      status: 'pending',
      txId: null,
      createdAt: at,
      changedAt: at,
      events: [{ type: 'position', data: { step: 'order-status' } }],
    };
    remember(order);
    // "Confirm and Pay": the request goes to the card acquirer.
    order.events.push(paymentStatus(order));
    webhook(order, 'payment_started');
    if (action === 'fail') {
      setStatus(order, 'failed', 'order_failed');
    } else if (action === 'cancel') {
      setStatus(order, 'canceled', 'order_canceled');
    } else if (autoComplete) {
      later(transferAfterMs, () => {
        if (!sendTransaction(order)) return;
        later(completeAfterMs, () => void complete(order));
      });
    }
    return order;
  }

  function dataApiOrder(order: Order) {
    const p = order.params;
    return {
      order_id: order.id,
      click_id: p.clickId,
      currency: p.currency.toLowerCase(),
      currency_amount: Number(usd(currencyAmount(p))),
      crypto: `${p.commodity}.sc.${p.network}`.toLowerCase(),
      crypto_amount: Number(p.commodityAmount),
      user_id: order.userId,
      status: order.status,
      card_id: order.cardId,
      created_at: apiTime(order.createdAt),
      changed_at: apiTime(order.changedAt),
      partner_fee: 0,
      partner_fee_percent: 0,
      // Beyond Wert's documented example (see the module comment).
      tx_id: order.txId,
      address: p.address,
      sc_address: p.scAddress,
      sc_input_data: p.scInputData,
    };
  }

  /* ---- HTTP ---- */

  const app = new Hono();

  const page = (title: string, content: string, script = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a;background:#fff}
.item{display:flex;gap:1rem;align-items:center;border:1px solid #ccc;border-radius:.5rem;padding:.75rem;margin:1rem 0}
.item img{width:4rem;height:4rem;object-fit:cover;border-radius:.3rem}.muted{color:#555}
.error{border-left:4px solid #b00020;padding:.5rem .8rem;background:#fdecee}
button{font:inherit;padding:.6rem 1.2rem;margin:.3rem .5rem .3rem 0;border-radius:.4rem;border:1px solid #1a1a1a;cursor:pointer;background:#fff}
.pay{background:#1a1a1a;color:#fff}code{word-break:break-all}</style></head>
<body><main>
<p class="muted">Wert sandbox · card-to-crypto checkout</p>
${content}
</main>${script ? `<script>${script}</script>` : ''}</body></html>`;

  /**
   * The page's script: posts `loaded` (and what the page knows) to the opener, shows `extra` when
   * the initializer sends it, and relays the order's events from the service. No framework: the
   * markup is the server's, the script only fills text and sends messages.
   */
  const widgetScript = (state: { base: string; orderId: string | null; initial: WidgetEvent[] }) => `
(() => {
  const target = window.parent !== window ? window.parent : window.opener;
  const post = (event) => { if (target) target.postMessage(event, '*'); };
  const state = ${JSON.stringify(state).replace(/</g, '\\u003c')};
  window.addEventListener('message', (e) => {
    if (target && e.source !== target) return;
    const message = e.data || {};
    if (message.type !== 'extra' || !message.data) return;
    const info = message.data.item_info || {};
    const name = document.getElementById('item-name');
    if (name && typeof info.name === 'string') name.textContent = info.name;
    const by = document.getElementById('item-by');
    if (by) by.textContent = [info.author, info.seller].filter((s) => typeof s === 'string' && s).join(' · ');
    const img = document.getElementById('item-image');
    if (img && typeof info.image_url === 'string' && /^https?:/.test(info.image_url)) {
      img.src = info.image_url;
      img.hidden = false;
    }
  });
  post({ type: 'loaded' });
  for (const event of state.initial) post(event);
  let since = 0;
  const follow = async (orderId) => {
    for (;;) {
      try {
        const res = await fetch(state.base + '/orders/' + orderId + '/events?since=' + since);
        const body = await res.json();
        for (const event of body.events) post(event);
        since = body.next;
        const status = document.getElementById('status');
        if (status) status.textContent = body.text;
        if (body.final) return;
      } catch {}
      await new Promise((r) => setTimeout(r, 300));
    }
  };
  if (state.orderId) follow(state.orderId);
  const form = document.getElementById('actions');
  if (form) form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const action = e.submitter && e.submitter.value;
    if (action === 'close') { post({ type: 'close' }); return; }
    for (const b of form.querySelectorAll('button')) b.disabled = true;
    const res = await fetch(state.base + '/actions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action, query: location.search }),
    });
    const body = await res.json();
    if (!res.ok) {
      post({ type: 'error', data: { name: 'OrderError', message: body.message } });
      const status = document.getElementById('status');
      if (status) status.textContent = body.message;
      return;
    }
    form.hidden = true;
    follow(body.order_id);
  });
})();`;

  const STATUS_TEXT: Record<WertOrderStatus, string> = {
    pending: 'Payment started: your card is being charged and the coins sent.',
    success: 'Payment complete: the coins were sent to the seller.',
    failed: 'The card payment failed. You were not charged.',
    canceled: 'The order was canceled. You were not charged.',
    failover: 'The purchase could not be completed on chain: the coins are sent to your wallet instead.',
    failover_complete: 'The purchase could not be completed on chain: the coins were sent to your wallet.',
    failover_cancelled: 'The purchase could not be completed on chain: your card payment is given back.',
  };
  const statusText = (order: Order) =>
    order.status === 'pending' && order.txId
      ? 'Payment received: the transaction was sent.'
      : STATUS_TEXT[order.status];
  const final = (order: Order) => order.status !== 'pending' && order.status !== 'failover';

  function widgetPage(c: Context) {
    const partner = c.req.param('partnerId');
    const base = `/${partner}/widget`;
    if (partner !== partnerId) {
      return c.html(
        page(
          'Unknown partner',
          '<h1>Unknown partner</h1><p class="error" role="alert">No partner has this id.</p>',
        ),
        404,
      );
    }
    const query = new URL(c.req.url).searchParams;
    const read = readParams(query);
    const signed =
      'params' in read &&
      signatureValid(
        {
          address: read.params.address,
          commodity: read.params.commodity,
          commodity_amount: read.params.commodityAmount,
          network: read.params.network,
          sc_address: read.params.scAddress,
          sc_input_data: read.params.scInputData,
        },
        read.params.signature,
        publicKey,
      );
    if (!('params' in read) || !signed) {
      const message =
        'params' in read ? 'The signature does not match the order data (error 9004).' : read.error;
      return c.html(
        page(
          'Signature check failed',
          `<h1>Signature check failed</h1><p class="error" role="alert">${escapeHtml(message)}</p>
<p>This purchase cannot be paid. Close this window and try again from the shop.</p>
<form id="actions"><button name="action" value="close">Close</button></form>`,
          widgetScript({
            base,
            orderId: null,
            initial: [{ type: 'error', data: { name: 'SignatureError', message } }],
          }),
        ),
        400,
      );
    }
    const p = read.params;
    const amount = currencyAmount(p);
    const rate: WidgetEvent = {
      type: 'rate-update',
      data: {
        ticker: String(USD_RATES[p.commodity.toLowerCase()]),
        fee_percent: '0',
        currency_amount: usd(amount),
        fee_amount: '0',
        commodity_amount: p.commodityAmount,
        purchase_amount: usd(amount),
        miner_fee: '0',
        currency_miner_fee: '0',
      },
    };
    const item = `<div class="item"><img id="item-image" alt="" hidden>
<div><strong id="item-name">Your item</strong><div id="item-by" class="muted"></div></div></div>
<p>Total: <strong>$${usd(amount)} ${escapeHtml(p.currency)}</strong>
(${escapeHtml(p.commodityAmount)} ${escapeHtml(p.commodity.toUpperCase())} on ${escapeHtml(p.network)})</p>
<p class="muted">Sent to <code>${escapeHtml(p.scAddress)}</code> for <code>${escapeHtml(p.address)}</code>.</p>`;
    const existing = p.clickId ? orders.get(byClick.get(p.clickId) ?? '') : undefined;
    if (existing) {
      return c.html(
        page(
          'Your order',
          `<h1>Your order</h1>${item}<p id="status" role="status">${escapeHtml(statusText(existing))}</p>
<form id="actions"><button name="action" value="close">Close</button></form>`,
          widgetScript({ base, orderId: existing.id, initial: [rate] }),
        ),
      );
    }
    return c.html(
      page(
        `Pay $${usd(amount)}`,
        `<h1>Pay with card</h1>${item}
<p class="muted">Sandbox: no card is charged. Pay succeeds, Fail is a declined card, Cancel cancels the order.</p>
<p id="status" role="status"></p>
<form id="actions" method="post" action="${base}/actions">
<input type="hidden" name="query" value="${escapeHtml(`?${query.toString()}`)}">
<button class="pay" name="action" value="pay">Pay $${usd(amount)}</button>
<button name="action" value="fail">Fail</button>
<button name="action" value="cancel">Cancel</button>
<button name="action" value="close">Close</button>
</form>`,
        widgetScript({
          base,
          orderId: null,
          initial: [rate, { type: 'position', data: { step: 'order-review' } }],
        }),
      ),
    );
  }

  app.get('/:partnerId/widget', widgetPage);
  app.get('/:partnerId/widget/order', widgetPage);

  /**
   * Pay / Fail / Cancel: JSON `{ action, query }` from the page's script (or the same fields as a
   * form without script). The query is checked again as when the page was served.
   */
  app.post('/:partnerId/widget/actions', async (c) => {
    if (c.req.param('partnerId') !== partnerId) return c.json({ message: 'Unknown partner' }, 404);
    const json = (c.req.header('content-type') ?? '').includes('application/json');
    const body = json
      ? ((await c.req.json().catch(() => null)) as Record<string, unknown> | null)
      : ((await c.req.parseBody()) as Record<string, unknown>);
    const action = body?.action;
    const rawQuery = typeof body?.query === 'string' ? body.query : '';
    if (action !== 'pay' && action !== 'fail' && action !== 'cancel')
      return c.json({ message: 'action must be pay, fail or cancel' }, 400);
    const query = new URLSearchParams(rawQuery.replace(/^\?/, ''));
    const read = readParams(query);
    if (!('params' in read)) return c.json({ message: read.error }, 400);
    const p = read.params;
    const fields = {
      address: p.address,
      commodity: p.commodity,
      commodity_amount: p.commodityAmount,
      network: p.network,
      sc_address: p.scAddress,
      sc_input_data: p.scInputData,
    };
    if (!signatureValid(fields, p.signature, publicKey))
      return c.json({ message: 'The signature does not match the order data (error 9004).' }, 400);
    const existingId = p.clickId ? byClick.get(p.clickId) : undefined;
    if (existingId && orders.has(existingId))
      return c.json({ message: 'This purchase already has an order.', order_id: existingId }, 409);
    const order = openOrder(p, action);
    const answer = { order_id: order.id, payment_id: order.paymentId, status: order.status };
    if (json) return c.json(answer, 201);
    return c.redirect(`/${partnerId}/widget?${query.toString()}`, 303);
  });

  /** The order's widget events from `since` on; `final` once it will not change any more. */
  app.get('/:partnerId/widget/orders/:orderId/events', (c) => {
    const order = orders.get(c.req.param('orderId'));
    if (c.req.param('partnerId') !== partnerId || !order) return c.json({ message: 'Not found' }, 404);
    const since = Math.max(0, Math.min(order.events.length, Number(c.req.query('since')) || 0));
    return c.json({
      events: order.events.slice(since),
      next: order.events.length,
      status: order.status,
      text: statusText(order),
      final: final(order),
    });
  });

  /* ---- the Data API ---- */

  const keyOk = (c: Context) => c.req.header('x-api-key') === apiKey;

  app.get('/api/external/orders', (c) => {
    if (!keyOk(c)) return c.json({ success: false, error: 'Invalid API key' }, 401);
    const limit = Math.min(100, Math.max(1, Number(c.req.query('limit')) || 10));
    const offset = Math.max(0, Number(c.req.query('offset')) || 0);
    const search = c.req.query('search_by');
    let found = [...orders.values()];
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
    const order = orders.get(c.req.param('orderId'));
    const control = controls[c.req.param('action')];
    if (!order || !control) return c.json({ success: false, error: 'Not found' }, 404);
    if (!control(order)) return c.json({ success: false, error: `The order is ${order.status}` }, 409);
    return c.json({ success: true, data: dataApiOrder(order) });
  });

  const server = await listen(app.fetch, options.port ?? SANDBOX_DEFAULT_PORT, options.host);
  const { port } = server;
  origin = server.origin;
  const byId = (id: string) => orders.get(id);
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
      const order = orders.get(byClick.get(clickId) ?? '');
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
