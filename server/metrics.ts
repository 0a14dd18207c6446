import { and, count, eq, inArray, lte, sql } from 'drizzle-orm';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Log } from './clock';
import type { Database } from './db';
import { jobLanes, jobs, orderEvents, orders } from './db/schema';

/**
 * What an operator watches (GET /metrics, Prometheus text; docs/operations.md "Running it"). Each
 * server has its own registry (tests run several servers in one process): the process's default
 * metrics (CPU, memory, event loop lag, GC), and
 *
 * - `http_server_request_duration_seconds{http_route, http_request_method, http_response_status_code}`:
 *   every answer, labelled by its route's pattern (`/api/orders/:id`), never the path asked;
 * - `vitrine_job_queue_depth{lane}` and `vitrine_job_queue_oldest_age_seconds{lane}`: the jobs due
 *   and waiting for a slot, read from the database at each scrape;
 * - `vitrine_jobs_total{kind, outcome}`: job runs by outcome (`done`, `retried`: failed and queued
 *   again, `failed`: failed for good);
 * - `vitrine_payment_outcomes_total{rail, outcome}`: orders that reached each payment outcome, by
 *   rail (the order's method), counted at each scrape from the orders' timelines (order_events):
 *   every instance reports the same totals, which survive restarts;
 * - `vitrine_mint_latency_seconds`: from an order's payment (authorized) to its editions minted;
 * - `vitrine_email_deliveries_total{result}`: emails handed to the mail server (`sent`) or not (`failed`);
 * - `vitrine_db_pool_connections{state}` (`in_use`, `idle`) and `vitrine_db_pool_waiting_clients`:
 *   the PostgreSQL pool; absent on PGlite (one in-process connection, no pool);
 * - `vitrine_external_call_duration_seconds{system, operation, outcome}`: calls to the Flow access
 *   node and to each provider, by client method.
 */
/** What one attempt to deliver an email came to: sent, refused for good or past 24 h, or to be retried. */
export type EmailDeliveryResult = 'sent' | 'failed' | 'retried';

export interface Metrics {
  readonly registry: Registry;
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  jobFinished(kind: string, outcome: JobOutcome): void;
  observeMint(seconds: number): void;
  /** One email delivery attempt, by result (`sent` or `failed`). */
  countEmailDelivery(result: EmailDeliveryResult): void;
  /**
   * The object with each method that answers a promise timed under `system` and the method's name
   * (`outcome` ok or error). Internal calls between its methods are not counted twice.
   */
  timed<T extends object>(target: T, system: string): T;
  /** The figures read from the database at each scrape. */
  watch(source: ScrapeSource): void;
  /** The exposition text and its content type. */
  scrape(): Promise<{ text: string; contentType: string }>;
}

export type JobOutcome = 'done' | 'retried' | 'failed';

export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

export interface ScrapeSource {
  db: Database;
  now: () => Date;
  /** The PostgreSQL pool; none on PGlite. */
  pool?: PoolStats;
  log?: Log;
}

/** The order timeline events that are payment outcomes (server/checkout/orders.ts addEvent). */
export const PAYMENT_OUTCOMES = [
  'authorized',
  'captured',
  'declined',
  'canceled',
  'expired',
  'voided',
  'refunded',
  'review',
] as const;

/** OpenTelemetry's default buckets for request durations, in seconds. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const CALL_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const MINT_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800];

/** The gauges read from the database at each scrape: the job queue by lane, and payment outcomes. */
function databaseGauges(registers: Registry[]) {
  const queueDepth = new Gauge({
    name: 'vitrine_job_queue_depth',
    help: 'Jobs due and waiting for a slot, by lane',
    labelNames: ['lane'],
    registers,
  });
  const queueAge = new Gauge({
    name: 'vitrine_job_queue_oldest_age_seconds',
    help: 'How long the longest-waiting due job of the lane has waited (0: none waits)',
    labelNames: ['lane'],
    registers,
  });
  const payments = new Counter({
    name: 'vitrine_payment_outcomes_total',
    help: 'Orders that reached each payment outcome, by rail (from the order timelines)',
    labelNames: ['rail', 'outcome'],
    registers,
  });
  return { queueDepth, queueAge, payments };
}

/** The pool's gauges, read at each scrape; only with a pool. */
function watchPool(registers: Registry[], pool: PoolStats) {
  new Gauge({
    name: 'vitrine_db_pool_connections',
    help: 'PostgreSQL pool connections by state (in_use, idle)',
    labelNames: ['state'],
    registers,
    collect() {
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
    },
  });
  new Gauge({
    name: 'vitrine_db_pool_waiting_clients',
    help: 'Queries waiting for a PostgreSQL pool connection',
    registers,
    collect() {
      this.set(pool.waitingCount);
    },
  });
}

/** Reads the queue and the payment outcomes; on failure reports none of them (and logs why). */
async function readDatabase(
  { queueDepth, queueAge, payments }: ReturnType<typeof databaseGauges>,
  source: ScrapeSource | undefined,
): Promise<void> {
  queueDepth.reset();
  queueAge.reset();
  payments.reset();
  if (!source) return;
  const { db } = source;
  const now = source.now();
  try {
    const [queue, outcomes] = await Promise.all([
      db
        .select({
          lane: jobs.lane,
          depth: count(),
          age: sql<number>`extract(epoch from (${now.toISOString()}::timestamptz - min(${jobs.runAt})))::float8`,
        })
        .from(jobs)
        .where(and(eq(jobs.status, 'queued'), lte(jobs.runAt, now)))
        .groupBy(jobs.lane),
      db
        .select({ rail: orders.method, outcome: orderEvents.type, n: count() })
        .from(orderEvents)
        .innerJoin(orders, eq(orders.id, orderEvents.orderId))
        .where(inArray(orderEvents.type, [...PAYMENT_OUTCOMES]))
        .groupBy(orders.method, orderEvents.type),
    ]);
    for (const lane of jobLanes) {
      const row = queue.find((r) => r.lane === lane);
      queueDepth.set({ lane }, row?.depth ?? 0);
      queueAge.set({ lane }, Math.max(0, Number(row?.age ?? 0)));
    }
    for (const row of outcomes) payments.inc({ rail: row.rail, outcome: row.outcome }, row.n);
  } catch (err) {
    queueDepth.reset();
    queueAge.reset();
    payments.reset();
    source.log?.error('metrics: reading the job queue and payment outcomes failed', err);
  }
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP server requests, by route pattern, method and status',
    labelNames: ['http_route', 'http_request_method', 'http_response_status_code'],
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const jobRuns = new Counter({
    name: 'vitrine_jobs_total',
    help: 'Job runs by kind and outcome (done, retried, failed for good)',
    labelNames: ['kind', 'outcome'],
    registers,
  });
  const mints = new Histogram({
    name: 'vitrine_mint_latency_seconds',
    help: "From an order's payment (authorized) to its editions minted",
    buckets: MINT_BUCKETS,
    registers,
  });
  const emails = new Counter({
    name: 'vitrine_email_deliveries_total',
    help: 'Email delivery attempts by result (sent, failed)',
    labelNames: ['result'],
    registers,
  });
  const calls = new Histogram({
    name: 'vitrine_external_call_duration_seconds',
    help: 'Calls to the Flow access node and the providers, by system, operation and outcome',
    labelNames: ['system', 'operation', 'outcome'],
    buckets: CALL_BUCKETS,
    registers,
  });

  let source: ScrapeSource | undefined;
  const database = databaseGauges(registers);

  return {
    registry,
    observeRequest(route, method, status, seconds) {
      requests.observe(
        { http_route: route, http_request_method: method, http_response_status_code: status },
        seconds,
      );
    },
    jobFinished: (kind, outcome) => jobRuns.inc({ kind, outcome }),
    observeMint: (seconds) => mints.observe(seconds),
    countEmailDelivery: (result) => emails.inc({ result }),
    timed(target, system) {
      return new Proxy(target, {
        get(object, property, receiver) {
          const value = Reflect.get(object, property, receiver);
          if (typeof value !== 'function' || typeof property !== 'string') return value;
          return (...args: unknown[]) => {
            const started = performance.now();
            const result = value.apply(object, args);
            if (!(result instanceof Promise)) return result;
            const observe = (outcome: string) =>
              calls.observe({ system, operation: property, outcome }, (performance.now() - started) / 1000);
            return result.then(
              (answer) => {
                observe('ok');
                return answer;
              },
              (err: unknown) => {
                observe('error');
                throw err;
              },
            );
          };
        },
      });
    },
    watch(next) {
      if (source) throw new Error('metrics: already watching a database');
      source = next;
      if (next.pool) watchPool(registers, next.pool);
    },
    async scrape() {
      await readDatabase(database, source);
      return { text: await registry.metrics(), contentType: registry.contentType };
    },
  };
}
