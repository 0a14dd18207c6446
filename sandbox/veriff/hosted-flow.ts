import type { Context, Hono } from 'hono';
import { escapeHtml } from '../http';
import type { SessionStore } from './sessions';
import { DECISION_NAMES, DECISIONS, type Decision, type Session } from './types';

const page = (title: string, content: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
fieldset{border:1px solid #999;border-radius:.4rem;margin:1rem 0;padding:.5rem 1rem}
button{font:inherit;padding:.6rem 1.2rem;margin:.3rem .5rem .3rem 0;border-radius:.4rem;border:1px solid #1a1a1a;cursor:pointer;background:#fff}
.primary{background:#1a1a1a;color:#fff}.note{border-left:4px solid #555;padding:.5rem .8rem;background:#f3f3f3}</style></head>
<body><main>
${content}
</main></body></html>`;

const back = (s: Session) =>
  s.callback
    ? `<p><a href="${escapeHtml(s.callback)}">Back to ${escapeHtml(new URL(s.callback).host)}</a></p>`
    : '';

/**
 * The hosted flow at `/v/{sessionToken}`, where a person plays the end user and the verification
 * team at once; then the browser goes to the session's callback.
 */
export function hostedFlowRoutes(app: Hono, store: SessionStore) {
  const { sendEvent, decide, expireIfDue } = store;

  const sessionOfPage = (c: Context) => {
    const token = c.req.param('token') ?? '';
    return store.byToken(token);
  };
  const notFoundPage = (c: Context) =>
    c.html(
      page('Session not found', '<h1>Session not found</h1><p>This verification link is not valid.</p>'),
      404,
    );

  function statusPage(c: Context, s: Session, httpStatus: 200 | 409 = 200) {
    const d = s.decision!;
    return c.html(
      page(
        'Verification finished',
        `<h1>Verification finished</h1>
<p role="status">Decision: ${escapeHtml(d.status)} (${d.code})${d.reason ? `: ${escapeHtml(d.reason)}` : ''}.</p>
${back(s)}`,
      ),
      httpStatus,
    );
  }

  app.get('/v/:token', async (c) => {
    const s = sessionOfPage(c);
    if (!s) return notFoundPage(c);
    await expireIfDue(s);
    if (s.decision && s.status !== 'resubmission_requested') return statusPage(c, s);
    if (s.status === 'created') {
      s.status = 'started';
      await sendEvent(s, 'started');
    }
    const name = [s.person.firstName, s.person.lastName].filter(Boolean).join(' ') || 'the end user';
    const retry = s.status === 'resubmission_requested';
    const buttons = DECISION_NAMES.map(
      (d, i) =>
        `<button${i === 0 ? ' class="primary"' : ''} name="decision" value="${d}">${escapeHtml(DECISIONS[d].label)}</button>`,
    ).join('\n');
    return c.html(
      page(
        'Verify your identity',
        `<h1>Verify your identity</h1>
<p>Identity sandbox: act as ${escapeHtml(name)} and as the verification team. Nothing is photographed or stored.</p>
${retry ? `<p class="note" role="note">Please try again: ${escapeHtml(s.decision?.reason ?? '')}.</p>` : ''}
<form method="post" action="/v/${escapeHtml(s.token)}">
<fieldset><legend>Decision</legend>
${buttons}
</fieldset>
</form>`,
      ),
    );
  });

  app.post('/v/:token', async (c) => {
    const s = sessionOfPage(c);
    if (!s) return notFoundPage(c);
    await expireIfDue(s);
    if (s.decision && s.status !== 'resubmission_requested') return statusPage(c, s, 409);
    const form = await c.req.parseBody();
    const wanted = form.decision as Decision;
    if (!DECISION_NAMES.includes(wanted)) return c.text('Unknown decision', 400);
    // Submitting is what a person does; abandoning or letting it expire is not.
    if (wanted !== 'abandoned' && wanted !== 'expired') {
      s.status = 'submitted';
      await sendEvent(s, 'submitted');
    }
    await decide(s, wanted);
    return c.redirect(s.callback ?? `/v/${s.token}`, 303);
  });
}
