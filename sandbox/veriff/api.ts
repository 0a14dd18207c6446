import { createHmac, randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { isHttpUrl } from '../http';
import type { SessionStore } from './sessions';
import { b64url, signatureOk } from './signing';
import type { Session } from './types';

const optionalString = (value: unknown, max: number) =>
  value === undefined || value === null || (typeof value === 'string' && value.length <= max);

const apiError = (c: Context, status: 400 | 401 | 404, message: string) =>
  c.json(
    { status: 'fail', code: String(status === 401 ? 1102 : status === 404 ? 1404 : 1101), message },
    status,
  );

/**
 * The session API (`X-AUTH-CLIENT` and `X-HMAC-SIGNATURE`): `POST /v1/sessions` and
 * `GET /v1/sessions/{id}/decision`.
 */
export function apiRoutes(
  app: Hono,
  options: { apiKey: string; secret: string; now: () => Date; origin: () => string; store: SessionStore },
) {
  const { apiKey, secret, now, store } = options;
  const { remember, decisionJson, expireIfDue } = store;

  app.post('/v1/sessions', async (c) => {
    if (c.req.header('X-AUTH-CLIENT') !== apiKey)
      return apiError(c, 401, 'Mandatory X-AUTH-CLIENT header containing the API key is missing or invalid.');
    const raw = await c.req.text();
    const signature = c.req.header('X-HMAC-SIGNATURE');
    if (signature !== undefined && !signatureOk(secret, raw, signature))
      return apiError(
        c,
        401,
        'Signature "x-hmac-signature" does not match the HMAC-SHA256 of the request body.',
      );
    let body: { verification?: Record<string, unknown> } | null;
    try {
      body = JSON.parse(raw);
    } catch {
      return apiError(c, 400, 'The request body is not JSON.');
    }
    const verification = body?.verification;
    if (!verification || typeof verification !== 'object' || Array.isArray(verification))
      return apiError(c, 400, 'verification is required and must be an object.');
    const person = (verification.person ?? {}) as Record<string, unknown>;
    if (typeof person !== 'object' || Array.isArray(person))
      return apiError(c, 400, 'verification.person must be an object.');
    if (!optionalString(person.firstName, 200) || !optionalString(person.lastName, 200))
      return apiError(c, 400, 'verification.person.firstName and lastName must be strings.');
    if (!optionalString(verification.vendorData, 1000))
      return apiError(c, 400, 'verification.vendorData must be a string of at most 1000 characters.');
    if (!optionalString(verification.endUserId, 100))
      return apiError(c, 400, 'verification.endUserId must be a UUID.');
    if (verification.callback !== undefined && !isHttpUrl(verification.callback))
      return apiError(c, 400, 'verification.callback must be an http(s) URL.');

    const id = randomUUID();
    const createdAt = now();
    const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const payload = b64url(
      JSON.stringify({
        auth_token: apiKey.slice(0, 8),
        session_id: id,
        iat: Math.floor(createdAt.getTime() / 1000),
      }),
    );
    const token = `${header}.${payload}.${createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')}`;
    const session: Session = {
      id,
      token,
      vendorData: (verification.vendorData as string | undefined) ?? null,
      endUserId: (verification.endUserId as string | undefined) ?? null,
      callback: (verification.callback as string | undefined) ?? null,
      person: {
        firstName: (person.firstName as string | undefined) ?? null,
        lastName: (person.lastName as string | undefined) ?? null,
      },
      createdAt,
      status: 'created',
      resubmissions: 0,
      decision: null,
    };
    remember(session);
    return c.json(
      {
        status: 'success',
        verification: {
          id,
          url: `${options.origin()}/v/${token}`,
          vendorData: session.vendorData,
          host: options.origin(),
          status: 'created',
          sessionToken: token,
        },
      },
      201,
    );
  });

  app.get('/v1/sessions/:id/decision', async (c) => {
    if (c.req.header('X-AUTH-CLIENT') !== apiKey)
      return apiError(c, 401, 'Mandatory X-AUTH-CLIENT header containing the API key is missing or invalid.');
    const id = c.req.param('id');
    if (!signatureOk(secret, id, c.req.header('X-HMAC-SIGNATURE')))
      return apiError(
        c,
        401,
        'Signature "x-hmac-signature" does not match the HMAC-SHA256 of the session id.',
      );
    const session = store.byId(id);
    if (!session) return apiError(c, 404, 'Session not found.');
    await expireIfDue(session);
    return c.json({ status: 'success', verification: decisionJson(session), technicalData: { ip: null } });
  });
}
