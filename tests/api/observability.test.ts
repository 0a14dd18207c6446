import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULFIL_JOB } from '../../server/checkout/orders';
import { jobs, users } from '../../server/db/schema';
import { enqueueJob, findJob } from '../../server/jobs';
import { CHECK_CACHE_MS, reachable } from '../../server/readiness';
import { insertBlueprint } from '../../server/seed/factory';
import { start } from '../../server/start';
import {
  bothDatabases,
  flowAddress,
  type Json,
  openTestDatabase,
  register,
  testConfig,
  useTestApp,
} from './support/harness';
import { capturedLog } from './support/logs';
import { testMail, waitForEmails } from './support/mailpit';
import { creator } from './support/sales';

const TOKEN = 'metrics-token-for-the-tests';

/** The value of one sample line of the exposition (`name{labels} value`), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(bothDatabases)('watching the server on %s', (database) => {
  const captured = capturedLog();
  /** A stand-in provider API: any HTTP answer means reachable. */
  let provider: Server;
  let providerUrl: string;
  const jobsRun: string[] = [];
  const t = useTestApp(
    database,
    { metrics: { token: TOKEN, loopback: false } },
    {
      log: captured.log,
      readiness: { card: () => reachable(providerUrl)() },
      jobHandlers: () => ({
        [FULFIL_JOB]: {
          run: async (job) => {
            jobsRun.push(job.key);
          },
        },
      }),
    },
  );
  const metrics = async () => {
    const res = await t.app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    provider = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    provider.closeAllConnections();
    provider.close();
  });

  it('exposes request durations by route pattern, method and status, and the process metrics', async () => {
    const me = await register(t);
    const unknown = randomUUID();
    expect((await t.request('GET', `/api/users/${unknown}`)).status).toBe(404);
    expect((await t.request('GET', `/api/users/${me.id}`)).status).toBe(200);
    expect((await t.request('GET', '/api/no/such/thing')).status).toBe(404);
    const res = await t.app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    const series = (route: string, method: string, status: number) =>
      `http_server_request_duration_seconds_count{http_route="${route}",http_request_method="${method}",http_response_status_code="${status}"}`;
    expect(sample(text, series('/api/users/:id', 'GET', 404))).toBe(1);
    expect(sample(text, series('/api/users/:id', 'GET', 200))).toBe(1);
    expect(sample(text, series('/api/users/registrations', 'POST', 201))).toBeGreaterThanOrEqual(1);
    expect(sample(text, series('/api/*', 'GET', 404))).toBe(1);
    // No id is ever a label.
    expect(text).not.toContain(unknown);
    expect(text).not.toContain(me.id);
    expect(text).toContain('# TYPE http_server_request_duration_seconds histogram');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    // The email counter exists for the mail module to count with.
    expect(text).toContain('# TYPE vitrine_email_deliveries_total counter');
    // The PostgreSQL pool is watched; PGlite has none.
    if (database === 'postgres') {
      expect(sample(text, 'vitrine_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'vitrine_db_pool_waiting_clients')).toBe(0);
    } else expect(text).not.toContain('vitrine_db_pool');
  });

  it('reads the queue of each lane at the scrape: jobs due and the age of the longest-waiting one', async () => {
    const queued = await metrics();
    expect(sample(queued, 'vitrine_job_queue_depth{lane="money"}')).toBe(0);
    expect(sample(queued, 'vitrine_job_queue_oldest_age_seconds{lane="media"}')).toBe(0);
    // A kind no worker here runs waits for ever: due since 90 s, and one not due yet.
    const now = t.clock.now().getTime();
    const key = randomUUID();
    await enqueueJob(t.database.db, 'nobody.runs.this', key, new Date(now - 90_000));
    await enqueueJob(t.database.db, 'nobody.runs.this', `${key}-later`, new Date(now + 60_000));
    const text = await metrics();
    expect(sample(text, 'vitrine_job_queue_depth{lane="money"}')).toBe(1);
    const age = sample(text, 'vitrine_job_queue_oldest_age_seconds{lane="money"}')!;
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(150);
    await t.database.db.delete(jobs).where(eq(jobs.kind, 'nobody.runs.this'));
  });

  it('carries the request id into the answer, the log lines and the jobs the request queued', async () => {
    const buyer = await register(t);
    await t.database.db.update(users).set({ walletAddress: flowAddress() }).where(eq(users.id, buyer.id));
    const shop = await creator(t);
    const free = await insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: 'Free thing',
      price: 0,
      quantity: 5,
    });
    const requestId = `claim-${randomUUID()}`;
    const res = await t.request('POST', '/api/free-blueprint-claims', {
      token: buyer.authToken,
      body: { blueprintId: free.id },
      headers: { 'x-request-id': requestId },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const orderId = res.body.orderId as string;
    expect((await findJob(t.database.db, FULFIL_JOB, orderId))?.requestId).toBe(requestId);
    for (let i = 0; i < 100 && !jobsRun.includes(orderId); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 100));
    const lines = captured.lines();
    // One access line for the request, with its route pattern and status.
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'info',
        msg: 'request',
        request_id: requestId,
        method: 'POST',
        route: '/api/free-blueprint-claims',
        status: 201,
        duration_ms: expect.any(Number),
      }),
    );
    // The job's line, written by the worker, carries the request's id and the job's kind.
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: `job ${FULFIL_JOB} ${orderId} done`,
        request_id: requestId,
        job: FULFIL_JOB,
      }),
    );
    const text = await metrics();
    expect(sample(text, `vitrine_jobs_total{kind="${FULFIL_JOB}",outcome="done"}`)).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'vitrine_payment_outcomes_total{rail="freeBlueprintClaim",outcome="authorized"}'),
    ).toBeGreaterThanOrEqual(1);
  });

  it('keeps a sane X-Request-Id and replaces anything else with a new one', async () => {
    const asked = async (id?: string) =>
      (
        await t.app.request('/api/health', { headers: id === undefined ? {} : { 'x-request-id': id } })
      ).headers.get('x-request-id');
    expect(await asked('a1b2c3d4-trace.7:x')).toBe('a1b2c3d4-trace.7:x');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    expect(await asked()).toMatch(uuid);
    for (const bad of [
      'short',
      'x'.repeat(129),
      'has space in it',
      'line\\nbreak-forged',
      '{"level":"error"}',
    ])
      expect(await asked(bad)).toMatch(uuid);
  });

  it('keeps /metrics from anyone without the token: 401 with a wrong or missing one', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-of-some-length', `Basic ${TOKEN}`, TOKEN]) {
      const res = await t.app.request('/metrics', { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('answers /api/health/ready 200 naming each check, and 503 naming a dependency that stopped', async () => {
    const ready = await t.request('GET', '/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { card: 'ok', database: 'ok', storage: 'ok' } });
    await new Promise<void>((resolve) => {
      provider.closeAllConnections();
      provider.close(() => resolve());
    });
    // The last result is kept a few seconds: a storm of probes reaches the provider once.
    expect((await t.request('GET', '/api/health/ready')).status).toBe(200);
    t.clock.advance(CHECK_CACHE_MS);
    const down = await t.request('GET', '/api/health/ready');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      status: 'not_ready',
      notReady: ['card'],
      checks: { card: 'failed', database: 'ok', storage: 'ok' },
    });
    // Liveness does not depend on the providers.
    expect((await t.request('GET', '/api/health')).status).toBe(200);
  });
});

describe.each(bothDatabases)('/metrics over real connections on %s', (database) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-metrics-'));
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function serverWith(metrics: { token?: string; loopback: boolean }) {
    const created = await openTestDatabase(database);
    drops.push(created.drop);
    const server = await start(testConfig(created.url, dataDir, { metrics }), { log: capturedLog().log });
    await server.ready;
    return server;
  }

  it('in the embedded world: open to a loopback caller, never to one a proxy forwarded', async () => {
    const server = await serverWith({ loopback: true });
    try {
      const url = `http://127.0.0.1:${server.port}/metrics`;
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('http_server_request_duration_seconds');
      for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
        const forwarded = await fetch(url, { headers: { [header]: '203.0.113.7' } });
        expect(forwarded.status).toBe(403);
      }
    } finally {
      await server.close();
    }
  });

  it('in a deployment: 404 without METRICS_TOKEN, even from loopback; with it, only its holder', async () => {
    const closed = await serverWith({ loopback: false });
    try {
      expect((await fetch(`http://127.0.0.1:${closed.port}/metrics`)).status).toBe(404);
    } finally {
      await closed.close();
    }
    const open = await serverWith({ token: TOKEN, loopback: false });
    try {
      const url = `http://127.0.0.1:${open.port}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer not-the-token-at-all' } })).status).toBe(
        401,
      );
      expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe.each(bothDatabases)('email on a whole server on %s', (database) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-mail-metrics-'));
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A port nothing listens on. */
  async function closedPort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return port;
  }

  /** A server sending to `smtpUrl`, a new account on it, and its password reset asked for. */
  async function resetOn(smtpUrl: string) {
    const created = await openTestDatabase(database);
    drops.push(created.drop);
    const base = testConfig(created.url, dataDir, { metrics: { loopback: true } });
    const server = await start({ ...base, mail: { ...testMail(), smtpUrl } }, { log: capturedLog().log });
    await server.ready;
    const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;
    const post = (path: string, body: unknown) =>
      fetch(url(path), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const name = Array.from(randomUUID().replace(/-/g, ''), (c) =>
      String.fromCharCode(97 + (parseInt(c, 16) % 26)),
    )
      .join('')
      .slice(0, 12);
    const email = `${name}@example.com`;
    const signUp = await post('/api/users/registrations', {
      email,
      username: `user_${name}`,
      password: `Quartz-zebra-${name}`,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    expect(signUp.status).toBe(201);
    expect((await post('/api/auth/logins/passwords/resets', { email })).status).toBe(204);
    const metrics = async () => (await fetch(url('/metrics'))).text();
    const ready = async () => {
      const res = await fetch(url('/api/health/ready'));
      return { status: res.status, body: (await res.json()) as Json };
    };
    return { server, email, metrics, ready };
  }

  it('counts a delivered email as sent, and the relay is ready', async () => {
    const { server, email, metrics, ready } = await resetOn(testMail().smtpUrl!);
    try {
      await waitForEmails(email);
      await expect
        .poll(metrics, { timeout: 10_000 })
        .toContain('vitrine_email_deliveries_total{result="sent"} 1');
      const answer = await ready();
      expect(answer.status).toBe(200);
      expect(answer.body.checks.smtp).toBe('ok');
    } finally {
      await server.close();
    }
  });

  it('counts an attempt the relay could not take as retried, and names the relay not ready', async () => {
    const { server, metrics, ready } = await resetOn(`smtp://127.0.0.1:${await closedPort()}`);
    try {
      await expect
        .poll(metrics, { timeout: 10_000 })
        .toContain('vitrine_email_deliveries_total{result="retried"} 1');
      expect(await metrics()).not.toContain('vitrine_email_deliveries_total{result="sent"}');
      const answer = await ready();
      expect(answer.status).toBe(503);
      expect(answer.body.notReady).toEqual(['smtp']);
    } finally {
      await server.close();
    }
  });
});
