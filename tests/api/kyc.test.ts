import { randomBytes, randomInt } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_API_KEY,
  SANDBOX_SHARED_SECRET,
  startVeriffSandbox,
  type VeriffSandbox,
} from '../../sandbox/veriff/index';
import { kycVerifications, nfts, outbox, users, webhookEvents } from '../../server/db/schema';
import { createVeriffProvider, hmacHex, type IdentityProvider } from '../../server/identity/veriff';
import {
  databases,
  flowAddress,
  type Json,
  register,
  registerAdmin,
  type TestApi,
  useTestApp,
} from './support/harness';
import { testMail, waitForEmails } from './support/mailpit';

/**
 * Identity verification against the Veriff-shaped sandbox over real HTTP, its webhooks delivered
 * to the app served on a port: a collector who owns an NFT opens a session, decides it on the
 * hosted page and comes back verified; repeated, forged, stale and foreign webhooks change
 * nothing; the provider's refusal and absence are told apart; bad input never reaches it.
 */
describe.each(databases)('identity verification on %s', (database) => {
  let sandbox: VeriffSandbox;
  let provider: IdentityProvider;
  let server: Server;
  let webhookUrl: string;
  const t: TestApi = useTestApp(
    database,
    { mail: testMail() },
    {
      identityProvider: {
        createSession: (r) => provider.createSession(r),
        decision: (id) => provider.decision(id),
        verifyWebhook: (raw, sig) => provider.verifyWebhook(raw, sig),
      },
    },
  );

  beforeAll(async () => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/veriff`;
    sandbox = await startVeriffSandbox({
      port: 0,
      decisionWebhookUrl: webhookUrl,
      eventWebhookUrl: webhookUrl,
      retrySchedule: [],
    });
    provider = createVeriffProvider({
      apiUrl: sandbox.url,
      apiKey: SANDBOX_API_KEY,
      sharedSecret: SANDBOX_SHARED_SECRET,
    });
  });
  afterAll(async () => {
    await sandbox?.close();
    await new Promise<void>((resolve) => {
      server?.close(() => resolve());
      server?.closeAllConnections();
    });
  });

  /** A registered account whose wallet holds `owned` collectibles. */
  async function collector(owned = 1) {
    const me = await register(t);
    const walletAddress = flowAddress();
    await t.database.db.update(users).set({ walletAddress }).where(eq(users.id, me.id));
    for (let i = 0; i < owned; i++) {
      const blueprintId = 800_000_000 + randomInt(99_999_999);
      await t.database.db
        .insert(nfts)
        .values({ id: `${blueprintId}1`, blueprintId, serialNumber: 1, owner: walletAddress });
    }
    return { ...me, walletAddress };
  }
  const start = (who: { authToken: string }, body: Json = { firstName: 'Grace', lastName: 'Hopper' }) =>
    t.request('POST', '/api/veriff-kyc', { token: who.authToken, body });
  const me = async (who: { authToken: string }) =>
    (await t.request('GET', '/api/users/me', { token: who.authToken })).body;
  /** The subjects of the emails the address received (in the test Mailpit), once there are `n`. */
  const subjects = async (to: string, n = 1) => (await waitForEmails(to, n)).map((m) => m.Subject);

  /** Decides on the hosted page as the person would: the browser is sent back to the app. */
  async function onPage(url: string, decision: string) {
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Verify your identity');
    const res = await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ decision }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    return res.headers.get('location');
  }

  /** A decision webhook as the provider signs it. */
  function signed(verification: Json, secret = SANDBOX_SHARED_SECRET) {
    const body = JSON.stringify({ status: 'success', verification, technicalData: { ip: '127.0.0.1' } });
    return { body, signature: hmacHex(body, secret) };
  }
  const deliver = (webhook: { body: string; signature: string }) =>
    fetch(webhookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-HMAC-SIGNATURE': webhook.signature },
      body: webhook.body,
    });

  it('opens a session for a collector, who approves it on the hosted page and comes back verified', async () => {
    const grace = await collector();
    expect((await me(grace)).nfts).toBe(1);
    const res = await start(grace);
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(new RegExp(`^${sandbox.url}/v/`));
    const before = await me(grace);
    expect(before.kyc).toMatchObject({
      status: 'created',
      url: res.body.url,
      firstName: 'Grace',
      lastName: 'Hopper',
    });

    // Pressing "Continue KYC" again answers the open session; no second one is opened.
    const again = await start(grace);
    expect(again.body.url).toBe(res.body.url);

    expect(await onPage(res.body.url, 'approved')).toBe('http://vitrine.test/settings/account?kyc=returned');
    const after = await me(grace);
    expect(after.kyc).toMatchObject({
      status: 'approved',
      code: '9001',
      reason: null,
      sessionId: before.kyc.sessionId,
    });
    // The started and submitted events were received and changed nothing else.
    expect(
      sandbox.deliveries.filter((d) => d.sessionId === before.kyc.sessionId).map((d) => [d.status, d.http]),
    ).toEqual([
      ['started', 200],
      ['submitted', 200],
      ['approved', 200],
    ]);
    expect(await subjects(grace.email)).toEqual(['Your identity is verified']);
    // Decided: no new session.
    const closed = await start(grace);
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('KYC_CLOSED');
  });

  it('blocks an account that owns no collectible before asking the provider', async () => {
    const empty = await collector(0);
    const res = await start(empty);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('KYC_NO_NFTS');
    expect((await me(empty)).kyc.status).toBe('unknown');
  });

  it('checks the name with the shared rules and refuses anonymous callers', async () => {
    const ada = await collector();
    expect((await start(ada, { firstName: 'Ada' })).body).toMatchObject({
      code: 'LASTNAME_MISSING',
      field: 'lastName',
    });
    expect((await start(ada, { firstName: 'Al', lastName: 'Li' })).body).toMatchObject({
      code: 'INVALID_VALUE',
      field: 'firstName',
    });
    expect((await start(ada, { firstName: 'Ada', lastName: 'x'.repeat(101) })).body).toMatchObject({
      code: 'INVALID_VALUE',
      field: 'lastName',
    });
    expect(
      (await t.request('POST', '/api/veriff-kyc', { body: { firstName: 'Ada', lastName: 'Byron' } })).status,
    ).toBe(401);
    expect((await me(ada)).kyc.status).toBe('unknown');
  });

  it('applies a decision delivered ten times once: one record, one email', async () => {
    const loud = await startVeriffSandbox({
      port: 0,
      decisionWebhookUrl: webhookUrl,
      deliveries: 10,
      retrySchedule: [],
    });
    try {
      const linus = await collector();
      const session = await createVeriffProvider({
        apiUrl: loud.url,
        apiKey: SANDBOX_API_KEY,
        sharedSecret: SANDBOX_SHARED_SECRET,
      }).createSession({
        firstName: 'Linus',
        lastName: 'Pauling',
        vendorData: linus.id,
        callback: 'http://vitrine.test/',
      });
      await t.database.db
        .insert(kycVerifications)
        .values({ userId: linus.id, sessionId: session.id, url: session.url, status: 'created' });
      await loud.decide(session.id, 'declined');
      expect(loud.deliveries.map((d) => d.http)).toEqual(Array(10).fill(200));
      const after = await me(linus);
      expect(after.kyc).toMatchObject({ status: 'declined', code: '9102', reasonCode: '102' });
      const [events] = await t.database.db
        .select({ n: count() })
        .from(webhookEvents)
        .where(and(eq(webhookEvents.provider, 'veriff'), eq(webhookEvents.type, 'decision:declined')));
      expect(Number(events!.n)).toBe(1);
      const sent = await t.database.db.select().from(outbox).where(eq(outbox.to, linus.email));
      expect(sent.map((m) => m.subject)).toEqual(['We could not verify your identity']);
    } finally {
      await loud.close();
    }
  });

  it('refuses a forged signature (401) and changes nothing', async () => {
    const eve = await collector();
    const { body } = await start(eve);
    const sessionId = (await me(eve)).kyc.sessionId;
    const forged = signed(
      { id: sessionId, status: 'approved', code: 9001, decisionTime: new Date().toISOString() },
      'not-the-shared-secret',
    );
    expect((await deliver(forged)).status).toBe(401);
    expect((await deliver({ ...forged, signature: 'zz' })).status).toBe(401);
    expect((await me(eve)).kyc).toMatchObject({ status: 'created', url: body.url });
  });

  it('keeps the newest decision when an older one arrives late, and ignores sessions not ours', async () => {
    const kim = await collector();
    await start(kim);
    const sessionId = (await me(kim)).kyc.sessionId;
    const older = new Date(Date.now() - 60_000).toISOString();
    const newer = new Date().toISOString();
    const approved = signed({
      id: sessionId,
      status: 'approved',
      code: 9001,
      reason: null,
      reasonCode: null,
      decisionTime: newer,
    });
    const resubmit = signed({
      id: sessionId,
      status: 'resubmission_requested',
      code: '9103',
      reason: 'Poor image quality',
      reasonCode: '204',
      decisionTime: older,
    });
    expect((await deliver(approved)).status).toBe(200);
    expect((await deliver(resubmit)).status).toBe(200);
    expect((await me(kim)).kyc).toMatchObject({ status: 'approved', code: '9001' });

    const stranger = signed({ id: crypto.randomUUID(), status: 'declined', code: 9102, decisionTime: newer });
    expect((await deliver(stranger)).status).toBe(200);
    // An unreadable decision (an unknown status) is not believed either.
    expect(
      (await deliver(signed({ id: sessionId, status: 'maybe', code: 1, decisionTime: newer }))).status,
    ).toBe(401);
  });

  it('restarts after an abandoned session; the old session’s late decision changes nothing', async () => {
    const ida = await collector();
    const first = await start(ida);
    await onPage(first.body.url, 'abandoned');
    const abandoned = await me(ida);
    expect(abandoned.kyc).toMatchObject({ status: 'abandoned', code: '9104' });
    const second = await start(ida, { firstName: 'Ida', lastName: 'Noddack' });
    expect(second.status).toBe(200);
    expect(second.body.url).not.toBe(first.body.url);
    const restarted = await me(ida);
    expect(restarted.kyc).toMatchObject({ status: 'created', firstName: 'Ida', lastName: 'Noddack' });
    expect(restarted.kyc.sessionId).not.toBe(abandoned.kyc.sessionId);
    const late = signed({
      id: abandoned.kyc.sessionId,
      status: 'approved',
      code: 9001,
      decisionTime: new Date(Date.now() + 1000).toISOString(),
    });
    expect((await deliver(late)).status).toBe(200);
    expect((await me(ida)).kyc.status).toBe('created');
    // A resubmission keeps the session and its URL: the person retries there.
    expect(await onPage(second.body.url, 'resubmission_requested')).toContain('/settings/account');
    expect((await me(ida)).kyc).toMatchObject({
      status: 'resubmission_requested',
      reasonCode: '204',
      url: second.body.url,
    });
    expect((await start(ida)).body.url).toBe(second.body.url);
    await onPage(second.body.url, 'approved');
    expect((await me(ida)).kyc.status).toBe('approved');
  });

  it('reopens a disputed decline through support: audited, the old session forgotten, and the person verifies again', async () => {
    const kim = await collector();
    const first = await start(kim);
    await onPage(first.body.url, 'declined');
    const declined = await me(kim);
    expect(declined.kyc).toMatchObject({ status: 'declined', code: '9102' });
    expect((await start(kim)).body.code).toBe('KYC_CLOSED');

    const reopen = (who: { authToken: string }, id = declined.kyc.id) =>
      t.request('PATCH', `/api/admin/kyc/${id}`, { token: who.authToken, body: { reopen: true } });
    // Only an admin reopens; the person cannot reopen their own.
    expect((await reopen(kim)).status).toBe(403);
    const admin = await registerAdmin(t);
    expect(
      (await t.request('PATCH', `/api/admin/kyc/${declined.kyc.id}`, { token: admin.authToken, body: {} }))
        .status,
    ).toBe(400);
    const res = await reopen(admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: declined.kyc.id, status: 'unknown' });
    // Reopened once: a second press finds nothing closed.
    const twice = await reopen(admin);
    expect([twice.status, twice.body.code]).toEqual([409, 'KYC_NOT_CLOSED']);
    expect((await reopen(admin, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await me(kim)).kyc).toMatchObject({
      status: 'unknown',
      sessionId: null,
      url: null,
      reason: null,
    });
    // The decline's email and the reopening's.
    expect((await subjects(kim.email, 2)).sort()).toEqual([
      'We could not verify your identity',
      'You can verify your identity again',
    ]);

    // The back office's audit log names who did it, to what, and what it was.
    const audit = await t.request('GET', `/api/admin/audit?searchText=${encodeURIComponent(admin.email)}`, {
      token: admin.authToken,
    });
    expect(audit.body.results).toEqual([
      expect.objectContaining({
        admin: admin.email,
        action: 'kyc.reopen',
        subjectType: 'kyc',
        subjectId: declined.kyc.id,
        before: expect.objectContaining({ status: 'declined', sessionId: declined.kyc.sessionId }),
        after: expect.objectContaining({ status: 'unknown' }),
      }),
    ]);

    // A late decision about the declined session changes nothing now.
    const late = signed({
      id: declined.kyc.sessionId,
      status: 'approved',
      code: 9001,
      decisionTime: new Date(Date.now() + 1000).toISOString(),
    });
    expect((await deliver(late)).status).toBe(200);
    expect((await me(kim)).kyc.status).toBe('unknown');

    const second = await start(kim);
    expect(second.status).toBe(200);
    expect(second.body.url).not.toBe(first.body.url);
    await onPage(second.body.url, 'approved');
    expect((await me(kim)).kyc.status).toBe('approved');
    // An approved verification is not reopened.
    expect((await reopen(admin)).status).toBe(409);
  });

  it('reads a decision back from the provider (the polling fallback), signed over the session id', async () => {
    const ken = await collector();
    const { body } = await start(ken);
    const sessionId = (await me(ken)).kyc.sessionId;
    expect(await provider.decision(sessionId)).toBeNull();
    await onPage(body.url, 'review');
    expect(await provider.decision(sessionId)).toMatchObject({ sessionId, status: 'review', code: '9121' });
    expect((await me(ken)).kyc.status).toBe('review');
  });
});

describe.each(databases)('identity verification when the provider fails on %s', (database) => {
  let sandbox: VeriffSandbox;
  let provider: IdentityProvider;
  const t: TestApi = useTestApp(
    database,
    {},
    {
      identityProvider: {
        createSession: (r) => provider.createSession(r),
        decision: (id) => provider.decision(id),
        verifyWebhook: (raw, sig) => provider.verifyWebhook(raw, sig),
      },
    },
  );
  beforeAll(async () => {
    sandbox = await startVeriffSandbox({ port: 0 });
  });
  afterAll(() => sandbox?.close());

  async function collector() {
    const who = await register(t);
    const walletAddress = flowAddress();
    await t.database.db.update(users).set({ walletAddress }).where(eq(users.id, who.id));
    const blueprintId = 800_000_000 + randomInt(99_999_999);
    await t.database.db
      .insert(nfts)
      .values({ id: `${blueprintId}1`, blueprintId, serialNumber: 1, owner: walletAddress });
    return who;
  }
  const start = (who: { authToken: string }) =>
    t.request('POST', '/api/veriff-kyc', {
      token: who.authToken,
      body: { firstName: 'Marie', lastName: 'Curie' },
    });

  it('answers CREATE_KYC when the provider refuses, VERIFF_UNREACHABLE when it cannot be reached; records nothing', async () => {
    const marie = await collector();
    provider = createVeriffProvider({
      apiUrl: sandbox.url,
      apiKey: 'wrong-key',
      sharedSecret: SANDBOX_SHARED_SECRET,
    });
    const refused = await start(marie);
    expect(refused.status).toBe(502);
    expect(refused.body.code).toBe('CREATE_KYC');
    provider = createVeriffProvider({
      apiUrl: 'http://127.0.0.1:9',
      apiKey: SANDBOX_API_KEY,
      sharedSecret: SANDBOX_SHARED_SECRET,
      timeoutMs: 2000,
    });
    const unreachable = await start(marie);
    expect(unreachable.status).toBe(502);
    expect(unreachable.body).toMatchObject({ code: 'VERIFF_UNREACHABLE' });
    expect(unreachable.body.message).toMatch(/^Unable to reach Veriff/);
    const rows = await t.database.db
      .select()
      .from(kycVerifications)
      .where(eq(kycVerifications.userId, marie.id));
    expect(rows).toEqual([]);
    // A wrong request signature is refused by the provider too.
    const res = await fetch(`${sandbox.url}/v1/sessions`, {
      method: 'POST',
      headers: {
        'X-AUTH-CLIENT': SANDBOX_API_KEY,
        'X-HMAC-SIGNATURE': '0'.repeat(64),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ verification: {} }),
    });
    expect(res.status).toBe(401);
  });
});

describe.each(databases)('identity verification turned off on %s', (database) => {
  const t = useTestApp(database);
  it('answers 503 unavailable to a start and to webhooks', async () => {
    const who = await register(t);
    const walletAddress = flowAddress();
    await t.database.db.update(users).set({ walletAddress }).where(eq(users.id, who.id));
    await t.database.db.insert(nfts).values({
      id: `7${randomBytes(4).readUInt32BE()}`,
      blueprintId: 7,
      serialNumber: randomInt(1e9),
      owner: walletAddress,
    });
    const res = await t.request('POST', '/api/veriff-kyc', {
      token: who.authToken,
      body: { firstName: 'Rosalind', lastName: 'Franklin' },
    });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('unavailable');
    const hook = await t.request('POST', '/api/webhooks/veriff', { body: { verification: {} } });
    expect(hook.status).toBe(503);
    const events = await t.database.db.select().from(webhookEvents).where(like(webhookEvents.id, 'veriff:%'));
    expect(events).toEqual([]);
  });
});
