import type { Clock, Log } from './clock';

/**
 * Readiness (GET /api/health/ready): every dependency the server is configured with answers. Each
 * dependency is a named check on Services (`s.readiness`): the database and the Flow access node
 * here, each enabled provider from server/start.ts, and whatever another module registers (the
 * mail server, the media storage). A check resolves when its dependency answered and rejects
 * otherwise; it is given CHECK_TIMEOUT_MS, and its result is kept for CHECK_CACHE_MS, so that
 * scrapes and probes, however many, reach each dependency at most once in that time.
 */
export type ReadinessCheck = () => Promise<unknown>;
export type Readiness = Record<string, ReadinessCheck>;

export const CHECK_TIMEOUT_MS = 2000;
export const CHECK_CACHE_MS = 5000;

export interface ReadinessReport {
  ready: boolean;
  /** Each check: ok, or failed. */
  checks: Record<string, 'ok' | 'failed'>;
  /** The names of the failed checks, sorted. */
  notReady: string[];
}

/**
 * A check that the URL answers over HTTP within the timeout: any status will do (a provider's API
 * root answers 401 or 404 to a request without credentials), unless `ok` asks for a 2xx. Nothing
 * secret is sent.
 */
export function reachable(url: string, options: { ok?: boolean } = {}): ReadinessCheck {
  return async () => {
    const res = await fetch(url, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS), redirect: 'manual' });
    await res.body?.cancel();
    if (options.ok && !res.ok) throw new Error(`${url} answered ${res.status}`);
  };
}

function withTimeout(check: ReadinessCheck): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([Promise.resolve().then(check), timeout]).finally(() => clearTimeout(timer));
}

/** Runs the checks (each result kept CHECK_CACHE_MS by the clock) and reports them. */
export function readinessProbe(checks: Readiness, clock: Clock, log: Log): () => Promise<ReadinessReport> {
  const kept = new Map<string, { at: number; result: Promise<boolean> }>();
  const run = (name: string, check: ReadinessCheck): Promise<boolean> => {
    const now = clock().getTime();
    const last = kept.get(name);
    if (last && now - last.at < CHECK_CACHE_MS) return last.result;
    const result = withTimeout(check).then(
      () => true,
      (err: unknown) => {
        log.error(`readiness: ${name} is not ready`, err);
        return false;
      },
    );
    kept.set(name, { at: now, result });
    return result;
  };
  return async () => {
    const names = Object.keys(checks).sort();
    const results = await Promise.all(names.map((name) => run(name, checks[name]!)));
    const report: ReadinessReport = { ready: true, checks: {}, notReady: [] };
    names.forEach((name, i) => {
      report.checks[name] = results[i] ? 'ok' : 'failed';
      if (!results[i]) report.notReady.push(name);
    });
    report.ready = report.notReady.length === 0;
    return report;
  };
}
