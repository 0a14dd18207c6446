import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import { ApiError, type ApiErrorBody, ErrorCode, errorMessage } from '#domain/errors';
import type { ResponseSchema } from '#domain/responses/common';
import { firstError } from '#domain/validation';
import type { users } from './db/schema';

/**
 * A tiny route registry: every route declares its method, path, input schemas and summary.
 * The same declarations mount the routes on Hono and generate the OpenAPI document.
 */

/**
 * The Cache-Control of a file whose URL changes with its content (the SPA's hashed files, stored
 * images and their copies, a share image at its version): kept a year, never asked for again.
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export type UserRow = typeof users.$inferSelect;
/** What a verified session token says: its user, session and token version (see server/auth/tokens.ts). */
export interface SessionClaims {
  userId: string;
  sid: string;
  tv: number;
}
export type AppEnv = {
  Variables: { user: UserRow | undefined; sessionId: string | undefined; claims: SessionClaims | undefined };
};
export type AppContext = Context<AppEnv>;

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
/**
 * none: public; optional: a valid token identifies the caller; required: 401 without one; admin:
 * required, and 403 for anyone whose role is not admin; token: required, but only the token (its
 * signature and expiry) is checked before the handler, which gets its claims (`claims`) and checks
 * the session itself in its own one statement (openSessionOf in server/auth/sessions.ts): a hot read
 * such as the purchase-complete poll costs one query.
 */
export type AuthMode = 'none' | 'optional' | 'required' | 'admin' | 'token';

type Schema = v.GenericSchema;
type Out<S> = S extends Schema ? v.InferOutput<S> : undefined;

export interface RouteSpec<P, Q, B> {
  method: Method;
  /** OpenAPI-style path below /api, e.g. /users/{id}. */
  path: string;
  summary: string;
  tag: string;
  auth?: AuthMode;
  /** A path parameter that fails its schema names no resource: 404. */
  params?: P;
  query?: Q;
  body?: B;
  /** Status → description of the answer. */
  responses: Record<number, string>;
  /**
   * The shape of every success answer (2xx): a valibot schema of its JSON (a union when a route has
   * more than one), or notJson(...) for an answer without a JSON body (204, CSV). Kept in domain/ so
   * the browser's client (domain/contract.ts) is typed from the same schema.
   */
  response: ResponseSchema;
  handler(
    c: AppContext,
    input: { params: Out<P>; query: Out<Q>; body: Out<B> },
  ): Response | Promise<Response>;
}

export interface Route {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  auth: AuthMode;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  responses: Record<number, string>;
  response: ResponseSchema;
  handler(
    c: AppContext,
    input: { params: unknown; query: unknown; body: unknown },
  ): Response | Promise<Response>;
}

export function defineRoute<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(spec: RouteSpec<P, Q, B>): Route {
  return { auth: 'none', ...spec } as unknown as Route;
}

/* ---- Errors: `{ code, field?, message }` with the codes of domain/errorCodes.ts ---- */

/** An API error that also sets response headers (e.g. Retry-After). */
export class HttpError extends ApiError {
  constructor(
    status: number,
    body: ApiErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(status, body);
  }
}

/** An error answer; `params` are the values its text names (an image rule's limits), sent along. */
export function apiError(
  status: number,
  code: string,
  field?: string,
  message?: string,
  params?: Record<string, string | number>,
): HttpError {
  const body: ApiErrorBody = { code, message: '' };
  if (field) body.field = field;
  if (params) body.params = params;
  body.message = message ?? errorMessage(body);
  return new HttpError(status, body);
}

export const badRequest = (
  code: string,
  field?: string,
  message?: string,
  params?: Record<string, string | number>,
) => apiError(400, code, field, message, params);
export const unauthorized = (message: string) => apiError(401, ErrorCode.UNAUTHORIZED, undefined, message);
export const forbidden = () => apiError(403, ErrorCode.FORBIDDEN, undefined, 'Restricted area');
export const notFound = () => apiError(404, ErrorCode.NOT_FOUND);

/** 429 RATE_LIMITED with Retry-After: the caller may try again after `retryAfterMs` (whole seconds, at least 1). */
export function rateLimited(retryAfterMs: number, message?: string): HttpError {
  const err = apiError(429, ErrorCode.RATE_LIMITED, undefined, message);
  err.headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return err;
}

export function errorResponse(c: Context, err: ApiError): Response {
  if (err instanceof HttpError) {
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
  }
  return c.json(err.body, err.status as 400);
}

/* ---- Mounting ---- */

function parse(
  schema: Schema,
  input: unknown,
  onFail: (issues: v.BaseIssue<unknown>[]) => ApiError,
): unknown {
  const r = v.safeParse(schema, input);
  if (!r.success) throw onFail(r.issues);
  return r.output;
}

const invalid = (issues: v.BaseIssue<unknown>[]) => new HttpError(400, firstError(issues));

/** The JSON object of the request body; an empty body reads as {}. */
async function readJsonObject(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest(ErrorCode.INVALID_VALUE, undefined, 'The request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest(ErrorCode.INVALID_VALUE, undefined, 'The request body must be a JSON object');
  }
  return body;
}

/**
 * The first text in the input that holds U+0000, as the field it sits in (object keys and values,
 * array items, at any depth; "a.0.b"): PostgreSQL text cannot store NUL, and no field of the API
 * needs it. An object key that holds it names itself. Undefined when there is none. Walks with its
 * own stack, so no nesting depth a body can reach overflows the call stack.
 */
export function nulField(input: unknown): string | undefined {
  // Nearly every input holds none: a walk that keeps no path answers that alone, and only an input
  // that holds one is walked again to name its field.
  if (!holdsNul(input)) return undefined;
  const stack: NulNode[] = [{ value: input }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const { value } = node;
    if (typeof value === 'string') {
      if (value.includes('\0')) return nulNodeName(node);
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      // Pushed last to first, so the first key is looked at first.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        const child = { value: item, key, parent: node };
        if (key.includes('\0')) return nulNodeName(child);
        stack.push(child);
      }
    }
  }
  return undefined;
}

type NulNode = { value: unknown; key?: string; parent?: NulNode };

/** The field a node of nulField's walk sits in ("a.0.b"; "body" for the input itself). */
function nulNodeName(node: NulNode): string {
  const keys: string[] = [];
  for (let n: NulNode | undefined = node; n?.key !== undefined; n = n.parent) keys.unshift(n.key);
  return keys.join('.') || 'body';
}

/** Whether any text in the input (object keys and values, array items, at any depth) holds U+0000. */
function holdsNul(input: unknown): boolean {
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes('\0')) return true;
    } else if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) {
        if (key.includes('\0')) return true;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** The input itself, or 400 INVALID_VALUE naming the field when it holds U+0000 anywhere (see nulField). */
function refuseNul<T>(input: T): T {
  const field = nulField(input);
  if (field !== undefined) {
    throw badRequest(ErrorCode.INVALID_VALUE, field, 'Text may not contain the NUL character (U+0000).');
  }
  return input;
}

export type Authenticate = (c: AppContext, mode: AuthMode) => Promise<void>;

/** Mounts routes on a Hono app whose base is /api; authentication runs before input validation. */
export function mountRoutes(app: Hono<AppEnv>, routes: readonly Route[], authenticate: Authenticate): void {
  // A known path asked with a method it does not serve answers 405 with the methods it does
  // (Allow). A path without parameters is checked before any route, so GET /users/registrations
  // (POST only) is not answered as GET /users/{id}; paths with parameters are checked after the
  // routes, fewer parameters first, so /users/me is not answered as /users/{id}.
  const methods = new Map<string, Set<string>>();
  for (const route of routes) {
    const honoPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    const set = methods.get(honoPath) ?? new Set<string>();
    set.add(route.method.toUpperCase());
    if (route.method === 'get') set.add('HEAD');
    methods.set(honoPath, set);
  }
  const byParams = (path: string) => (path.match(/:/g) ?? []).length;
  const guards = [...methods].sort(([a], [b]) => byParams(a) - byParams(b));
  const refuse = (c: AppContext, allowed: Set<string>) => {
    const allow = [...allowed].sort().join(', ');
    return c.json({ code: ErrorCode.METHOD_NOT_ALLOWED, message: `This resource answers ${allow}.` }, 405, {
      Allow: allow,
    });
  };
  for (const [honoPath, allowed] of guards.filter(([path]) => byParams(path) === 0)) {
    app.all(honoPath, (c, next) => (allowed.has(c.req.method) ? next() : refuse(c, allowed)));
  }
  for (const route of routes) {
    const honoPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    app.on(route.method.toUpperCase(), honoPath, async (c) => {
      await authenticate(c, route.auth);
      // No path parameter, nor any text of the query or body a route reads, may hold NUL. Keys a
      // route does not declare are dropped by its schema unread, whatever they hold.
      const params: Record<string, string> = c.req.param();
      refuseNul(params);
      const input = {
        params: route.params && parse(route.params, params, () => notFound()),
        query: route.query && refuseNul(parse(route.query, c.req.query(), invalid)),
        body: route.body && refuseNul(parse(route.body, await readJsonObject(c), invalid)),
      };
      return route.handler(c, input);
    });
  }
  for (const [honoPath, allowed] of guards.filter(([path]) => byParams(path) > 0)) {
    app.all(honoPath, (c) => (allowed.has(c.req.method) ? c.notFound() : refuse(c, allowed)));
  }
}
