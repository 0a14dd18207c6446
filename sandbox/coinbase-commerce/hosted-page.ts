import type { Context, Hono } from 'hono';
import { escapeHtml } from '../http';
import { type ChargeStore, hostedUrl, statusOf } from './store';
import { amountOf, type Charge, COIN_NAMES, COINS, type Coin, cryptoOf, iso, type Status } from './types';

const page = (title: string, content: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
fieldset{border:1px solid #999;border-radius:.4rem;margin:1rem 0}label{display:block;padding:.3rem 0}
code{word-break:break-all}.warning{border-left:4px solid #b00020;padding:.5rem .8rem;background:#fdecee}
button{font:inherit;padding:.6rem 1.2rem;margin:.3rem .5rem .3rem 0;border-radius:.4rem;border:1px solid #1a1a1a;cursor:pointer}
.pay{background:#1a1a1a;color:#fff}</style></head>
<body><main>
${content}
</main></body></html>`;

const endings: Record<Exclude<Status, 'NEW'>, { title: string; text: string }> = {
  PENDING: {
    title: 'Payment received',
    text: 'Your payment was detected and is waiting for confirmations on the blockchain.',
  },
  COMPLETED: { title: 'Payment complete', text: 'Your payment is confirmed.' },
  EXPIRED: { title: 'Charge expired', text: 'No payment arrived in time: this charge has expired.' },
  UNRESOLVED: {
    title: 'Payment needs attention',
    text: 'The payment received does not settle this charge; the merchant will resolve it with you.',
  },
  RESOLVED: { title: 'Payment resolved', text: 'The merchant has resolved this payment.' },
  CANCELED: { title: 'Charge canceled', text: 'This charge was canceled; nothing was paid.' },
};

/**
 * The hosted page `GET /charges/{code}` (answered through the API's GET, see ./api.ts), where a
 * person pays in full or half (underpaid), lets the charge expire or cancels it; a paid charge is
 * COMPLETED after `confirmAfterMs`.
 */
export function hostedPageRoutes(
  app: Hono,
  options: {
    now: () => Date;
    origin: () => string;
    confirmAfterMs: number;
    later: (ms: number, run: () => void) => void;
    store: ChargeStore;
  },
) {
  const { now, confirmAfterMs, later, store } = options;
  const { setStatus, find, addPayment } = store;

  const byCode = (c: Context) => {
    const code = c.req.param('idOrCode') ?? '';
    const charge = /^[A-Z0-9]{8}$/.test(code) ? find(code) : undefined;
    return charge && charge.code === code && charge.hosted ? charge : undefined;
  };
  const notFoundPage = (c: Context) =>
    c.html(
      page('Charge not found', '<h1>Charge not found</h1><p>There is no charge with this code.</p>'),
      404,
    );

  function statusPage(c: Context, charge: Charge, httpStatus: 200 | 409 = 200) {
    const last = charge.timeline.at(-1)!;
    const ending = endings[last.status as Exclude<Status, 'NEW'>];
    const back = last.status === 'CANCELED' ? charge.cancelUrl : charge.redirectUrl;
    const paid = charge.payments.reduce((sum, p) => sum + p.localCents, 0);
    const text =
      last.status === 'UNRESOLVED'
        ? `${ending.text} Received $${amountOf(paid)} of $${amountOf(charge.amount)} (${last.context ?? 'OTHER'}).`
        : ending.text;
    return c.html(
      page(
        ending.title,
        `<h1>${escapeHtml(ending.title)}</h1>
<p role="status">${escapeHtml(text)}</p>
<p>${escapeHtml(charge.name)}: $${amountOf(charge.amount)} (charge ${charge.code}, ${last.status}${last.context ? ` ${escapeHtml(last.context)}` : ''}).</p>
${back ? `<p><a href="${escapeHtml(back)}">Back to ${escapeHtml(new URL(back).host)}</a></p>` : ''}`,
      ),
      httpStatus,
    );
  }

  function hostedPage(c: Context) {
    const charge = byCode(c);
    if (!charge) return notFoundPage(c);
    if (statusOf(charge) !== 'NEW') return statusPage(c, charge);
    const options = COIN_NAMES.map(
      (coin, i) => `<label><input type="radio" name="coin" value="${coin}"${i === 0 ? ' checked' : ''}>
${COINS[coin].label} (${COINS[coin].symbol}): ${cryptoOf(charge.amount, coin)} ${COINS[coin].symbol}
to <code>${escapeHtml(charge.addresses[coin])}</code></label>`,
    ).join('\n');
    return c.html(
      page(
        `Pay ${charge.name}`,
        `<h1>Pay $${amountOf(charge.amount)} USD</h1>
<p>${escapeHtml(charge.name)}${charge.description ? ` — ${escapeHtml(charge.description)}` : ''}</p>
<p>Crypto sandbox: act as the buyer's wallet. This charge expires at <time datetime="${iso(charge.expiresAt)}">${iso(charge.expiresAt)}</time>.</p>
<form method="post" action="/charges/${charge.code}">
<fieldset><legend>Pay with</legend>
${options}
</fieldset>
<p class="warning" role="note"><strong>Warning:</strong> send only the chosen coin on its own network
(ETH and USDC on Ethereum mainnet, BTC on Bitcoin, BCH on Bitcoin Cash). A payment on an unsupported
network, or in another token, cannot be detected and the funds are lost.</p>
<button class="pay" name="action" value="pay">Pay</button>
<button name="action" value="underpay">Underpay</button>
<button name="action" value="expire">Let it expire</button>
<button name="action" value="cancel">Cancel</button>
</form>`,
      ),
    );
  }

  app.post('/charges/:idOrCode', async (c) => {
    const charge = byCode(c);
    if (!charge) return notFoundPage(c);
    const form = await c.req.parseBody();
    const coin = (typeof form.coin === 'string' ? form.coin : 'ethereum') as Coin;
    if (!COIN_NAMES.includes(coin)) return c.text('Unknown coin', 400);
    // Whatever was asked, a charge that is no longer NEW only shows where it stands.
    if (statusOf(charge) !== 'NEW') return statusPage(c, charge, 409);
    const self = hostedUrl(charge, options.origin());
    switch (form.action) {
      case 'pay': {
        const payment = addPayment(charge, coin, charge.amount, 'PENDING');
        setStatus(charge, 'PENDING');
        later(confirmAfterMs, () => {
          if (statusOf(charge) !== 'PENDING') return;
          payment.status = 'CONFIRMED';
          charge.confirmedAt = now();
          setStatus(charge, 'COMPLETED');
        });
        return c.redirect(charge.redirectUrl ?? self, 303);
      }
      case 'underpay': {
        // Half the price (rounded down to the cent) arrives: the charge is UNRESOLVED, UNDERPAID.
        addPayment(charge, coin, Math.floor(charge.amount / 2), 'CONFIRMED');
        setStatus(charge, 'UNRESOLVED', 'UNDERPAID');
        return c.redirect(self, 303);
      }
      case 'expire':
        setStatus(charge, 'EXPIRED');
        return c.redirect(self, 303);
      case 'cancel':
        setStatus(charge, 'CANCELED');
        return c.redirect(charge.cancelUrl ?? self, 303);
      default:
        return c.text('Unknown action', 400);
    }
  });

  return hostedPage;
}
