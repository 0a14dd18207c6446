import { createHmac, timingSafeEqual } from 'node:crypto';
import ky, { HTTPError } from 'ky';
import type { KycStatus } from '#domain/enums';

/**
 * Veriff's v1 session API over plain HTTP with `ky`, pointed at any base URL: the integration's
 * host (e.g. https://stationapi.veriff.com) or the local sandbox (sandbox/veriff). Veriff publishes
 * SDKs for the browser only (`@veriff/js-sdk`, `@veriff/incontext-sdk`); sessions are created on the
 * server so that the API key stays there and the session is tied to the signed-in account.
 *
 * Rules:
 * - every request carries `X-AUTH-CLIENT` (the API key) and `X-HMAC-SIGNATURE`: the lowercase hex
 *   HMAC-SHA256, with the shared secret, of the raw JSON body (POST) or of the session id (GET);
 * - webhooks are believed only when their `X-HMAC-SIGNATURE` is the HMAC of the raw body (compared
 *   in constant time); the decision is `verification.status`, not the delivery's top-level status;
 * - a 4xx answer is a refusal (IdentityProviderRefusedError); network failures, timeouts, 408, 429
 *   and 5xx mean the provider is unreachable (IdentityProviderUnavailableError);
 * - no automatic retries: a repeated POST /v1/sessions would open a second session.
 */
export interface VeriffOptions {
  apiUrl: string;
  apiKey: string;
  sharedSecret: string;
  timeoutMs?: number;
}

export class IdentityProviderUnavailableError extends Error {}
export class IdentityProviderRefusedError extends Error {}

export interface IdentitySession {
  id: string;
  /** Where the person verifies (the hosted flow). */
  url: string;
}

/** A decision webhook, as much of it as we keep. */
export interface IdentityDecision {
  sessionId: string;
  status: Exclude<KycStatus, 'created' | 'unknown'>;
  code: string;
  reason: string | null;
  reasonCode: string | null;
  /** Our reference: the account's id. */
  vendorData: string | null;
  decisionTime: Date;
}

/** A started/submitted event webhook: progress, never a decision. */
export interface IdentityEvent {
  sessionId: string;
  action: string;
  code: string;
  vendorData: string | null;
}

export interface IdentityProvider {
  createSession(request: {
    firstName: string;
    lastName: string;
    vendorData: string;
    callback: string;
  }): Promise<IdentitySession>;
  /** GET /v1/sessions/{id}/decision: null until the session is decided. */
  decision(sessionId: string): Promise<IdentityDecision | null>;
  /** The webhook's body when the signature matches, else null. */
  verifyWebhook(
    rawBody: string,
    signature: string | undefined,
  ):
    | { kind: 'decision'; decision: IdentityDecision }
    | { kind: 'event'; event: IdentityEvent }
    | { kind: 'other' }
    | null;
}

const DECIDED: ReadonlySet<string> = new Set([
  'approved',
  'declined',
  'resubmission_requested',
  'expired',
  'abandoned',
  'review',
]);

export const hmacHex = (payload: string, secret: string) =>
  createHmac('sha256', secret).update(payload, 'utf8').digest('hex');

export function signatureMatches(payload: string, signature: string | undefined, secret: string): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  return timingSafeEqual(Buffer.from(hmacHex(payload, secret), 'hex'), Buffer.from(signature, 'hex'));
}

// biome-ignore lint/suspicious/noExplicitAny: the provider's answers are plain JSON read field by field
type Json = any;

/** Codes and reason codes arrive as numbers or strings (the docs say strings, fixtures carry numbers). */
const codeOf = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value)
    ? String(value)
    : typeof value === 'string' && /^\d{1,6}$/.test(value)
      ? value
      : null;

/** A decision's `verification` object, or null when it is not one we can read. */
export function readDecision(verification: Json): IdentityDecision | null {
  if (!verification || typeof verification !== 'object') return null;
  const { id, status } = verification;
  if (typeof id !== 'string' || id.length === 0 || id.length > 100) return null;
  if (typeof status !== 'string' || !DECIDED.has(status)) return null;
  const code = codeOf(verification.code);
  const time = new Date(verification.decisionTime ?? Number.NaN);
  if (!code || Number.isNaN(time.getTime())) return null;
  const reason = typeof verification.reason === 'string' ? verification.reason.slice(0, 500) : null;
  const vendorData = typeof verification.vendorData === 'string' ? verification.vendorData : null;
  return {
    sessionId: id,
    status: status as IdentityDecision['status'],
    code,
    reason,
    reasonCode: codeOf(verification.reasonCode),
    vendorData,
    decisionTime: time,
  };
}

export function createVeriffProvider(options: VeriffOptions): IdentityProvider {
  const client = ky.create({
    prefixUrl: options.apiUrl.replace(/\/+$/, ''),
    timeout: options.timeoutMs ?? 10_000,
    retry: 0,
  });
  const headers = (signed: string) => ({
    'X-AUTH-CLIENT': options.apiKey,
    'X-HMAC-SIGNATURE': hmacHex(signed, options.sharedSecret),
  });

  /** Runs a request, sorting its failures into refused and unavailable. */
  async function call(request: () => Promise<Json>): Promise<Json> {
    try {
      return await request();
    } catch (err) {
      if (err instanceof HTTPError) {
        const status = err.response.status;
        if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
          const body: Json = await err.response.json().catch(() => null);
          throw new IdentityProviderRefusedError(
            `Veriff refused the request (${status}${body?.message ? `: ${body.message}` : ''})`,
          );
        }
      }
      throw new IdentityProviderUnavailableError(`Veriff could not be reached: ${(err as Error).message}`);
    }
  }

  return {
    async createSession({ firstName, lastName, vendorData, callback }) {
      const body = JSON.stringify({
        verification: {
          callback,
          person: { firstName, lastName },
          vendorData,
          timestamp: new Date().toISOString(),
        },
      });
      const answer = await call(() =>
        client
          .post('v1/sessions', {
            body,
            headers: { ...headers(body), 'Content-Type': 'application/json' },
          })
          .json(),
      );
      const verification = answer?.verification;
      if (typeof verification?.id !== 'string' || typeof verification?.url !== 'string')
        throw new IdentityProviderUnavailableError('Veriff answered without a session id and URL');
      return { id: verification.id, url: verification.url };
    },

    async decision(sessionId) {
      const answer = await call(() =>
        client
          .get(`v1/sessions/${encodeURIComponent(sessionId)}/decision`, { headers: headers(sessionId) })
          .json(),
      );
      if (!answer?.verification) return null;
      const decision = readDecision(answer.verification);
      if (!decision)
        throw new IdentityProviderUnavailableError('Veriff answered with an unreadable decision');
      return decision;
    },

    verifyWebhook(rawBody, signature) {
      if (!signatureMatches(rawBody, signature, options.sharedSecret)) return null;
      let body: Json;
      try {
        body = JSON.parse(rawBody);
      } catch {
        return null;
      }
      if (!body || typeof body !== 'object') return null;
      if (body.verification !== undefined) {
        const decision = readDecision(body.verification);
        return decision ? { kind: 'decision', decision } : null;
      }
      // An event webhook: { id, code 7001|7002, action started|submitted, vendorData }.
      const code = codeOf(body.code);
      if (typeof body.id === 'string' && typeof body.action === 'string' && code)
        return {
          kind: 'event',
          event: {
            sessionId: body.id,
            action: body.action,
            code,
            vendorData: typeof body.vendorData === 'string' ? body.vendorData : null,
          },
        };
      return { kind: 'other' };
    },
  };
}
