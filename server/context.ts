import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * What the server is doing right now, for its log lines: the request being answered (its id, from
 * X-Request-Id or made here), or the job being run (the id of the request that queued it, if one
 * did). Every log line written inside carries it (server/log.ts); a job queued inside a request
 * keeps the request's id (server/jobs.ts).
 */
export interface WorkContext {
  requestId?: string;
  /** The kind of the job being run. */
  job?: string;
}

const current = new AsyncLocalStorage<WorkContext>();

export const workContext = (): WorkContext | undefined => current.getStore();

export const currentRequestId = (): string | undefined => current.getStore()?.requestId;

/** Runs `fn` (and everything it starts) inside the context. */
export function withContext<T>(context: WorkContext, fn: () => T): T {
  return current.run(context, fn);
}

/**
 * A client's X-Request-Id is kept when it is 8 to 128 characters of letters, digits and `.:_-`
 * (a UUID, a proxy's trace id); anything else (absent, too long, other characters that could
 * forge log lines) is replaced by a new UUID.
 */
const REQUEST_ID = /^[A-Za-z0-9.:_-]{8,128}$/;

export function requestIdOf(header: string | undefined): string {
  return header !== undefined && REQUEST_ID.test(header) ? header : randomUUID();
}
