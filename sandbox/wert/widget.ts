import type { Context, Hono } from 'hono';
import { escapeHtml } from '../http';
import type { OrderStore } from './orders';
import { signatureValid } from './signing';
import {
  currencyAmount,
  type Order,
  USD_RATES,
  usd,
  type WertOrderStatus,
  type WidgetEvent,
  type WidgetParams,
} from './types';

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

/**
 * The widget's routes: its page (checking the partner's signature), Pay / Fail / Cancel, and the
 * order's events the page relays to its opener.
 */
export function widgetRoutes(
  app: Hono,
  { partnerId, publicKey, store }: { partnerId: string; publicKey: string; store: OrderStore },
) {
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
    const existing = p.clickId ? store.byClickId(p.clickId) : undefined;
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
    const existing = p.clickId ? store.byClickId(p.clickId) : undefined;
    if (existing)
      return c.json({ message: 'This purchase already has an order.', order_id: existing.id }, 409);
    const order = store.openOrder(p, action);
    const answer = { order_id: order.id, payment_id: order.paymentId, status: order.status };
    if (json) return c.json(answer, 201);
    return c.redirect(`/${partnerId}/widget?${query.toString()}`, 303);
  });

  /** The order's widget events from `since` on; `final` once it will not change any more. */
  app.get('/:partnerId/widget/orders/:orderId/events', (c) => {
    const order = store.byId(c.req.param('orderId'));
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
}
