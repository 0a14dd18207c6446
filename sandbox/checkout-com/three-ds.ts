import type { Context, Hono } from 'hono';
import { escapeHtml } from '../http';
import { declineOf } from './cards';
import type { Store } from './store';

/**
 * The 3-D Secure challenge page `GET /3ds/{sid}`, where a person approves or fails; the buyer is
 * sent on to `success_url` or `failure_url` with `cko-session-id`.
 */
export function threeDsRoutes(app: Hono, { find, setStatus }: Store) {
  const challenge = (c: Context) => {
    const sid = c.req.param('sid') ?? '';
    const p = find(sid);
    return p && p.sessionId === sid ? p : undefined;
  };
  const backTo = (url: string | null, sid: string) => {
    if (!url) return null;
    const target = new URL(url);
    target.searchParams.set('cko-session-id', sid);
    return target.toString();
  };

  app.get('/3ds/:sid', (c) => {
    const p = challenge(c);
    if (!p)
      return c.html(
        '<!doctype html><html lang="en"><title>Not found</title><h1>Session not found</h1></html>',
        404,
      );
    const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: p.currency }).format(
      p.amount / 100,
    );
    const open = p.status === 'Pending';
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>3-D Secure check</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
button{font:inherit;padding:.6rem 1.2rem;margin-right:.5rem;border-radius:.4rem;border:1px solid #1a1a1a;cursor:pointer}
.approve{background:#1a1a1a;color:#fff}</style></head>
<body><main>
<h1>3-D Secure check</h1>
<p>Card sandbox: confirm this payment as the card's issuer would.</p>
<dl><dt>Amount</dt><dd>${escapeHtml(amount)}</dd><dt>Merchant reference</dt><dd>${escapeHtml(p.reference ?? '')}</dd>
<dt>Card</dt><dd>${escapeHtml(p.card.scheme)} •••• ${escapeHtml(p.card.last4)}</dd></dl>
${
  open
    ? `<form method="post" action="/3ds/${escapeHtml(p.sessionId!)}">
<button class="approve" name="action" value="approve">Approve</button>
<button name="action" value="fail">Fail</button></form>`
    : `<p role="status">This check is over: the payment is ${escapeHtml(p.status)}.</p>`
}
</main></body></html>`);
  });

  app.post('/3ds/:sid', async (c) => {
    const p = challenge(c);
    if (!p) return c.text('Session not found', 404);
    const form = await c.req.parseBody();
    if (p.status === 'Pending') {
      if (form.action === 'approve') {
        const decline = declineOf(p.card, p.card.cvv, p.amount);
        if (decline) setStatus(p, 'Declined', false, decline.code, decline.summary);
        else setStatus(p, 'Authorized', true, '10000', 'Approved');
      } else {
        // The buyer failed the issuer's check (a sandbox choice of code: authentication failed).
        setStatus(p, 'Declined', false, '20150', 'Card not 3D Secure enabled / authentication failed');
      }
    }
    const target = backTo(p.approved ? p.successUrl : p.failureUrl, p.sessionId!);
    return target ? c.redirect(target, 302) : c.text(`Payment ${p.status}`);
  });
}
