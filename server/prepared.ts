/**
 * Answers made once and sent many times (the catalog cache's): their bytes and every header are
 * fixed when the answer is made, so the per-request work of the app-wide middleware is done once
 * per answer instead of once per request.
 *
 * A prepared answer goes out as a Response built from its bytes and a plain header record (on
 * @hono/node-server that Response is written straight to the socket, without a Headers object or a
 * stream), carrying its Prepared under a symbol:
 * - the security headers middleware leaves it alone when `security` is exactly the set it would add
 *   for `contentType` (otherwise it adds them as to any answer);
 * - the compression middleware leaves it alone: its encoding was chosen and made when prepared.
 * A middleware inside those two that changes an answer's headers keeps working: it reads
 * `res.headers` as for any answer.
 */
export interface Prepared {
  readonly status: number;
  readonly body: Uint8Array<ArrayBuffer>;
  /** All its headers, security headers included, with lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The Content-Type the security headers were chosen for. */
  readonly contentType: string;
  /** The security headers included (the very record security.ts's securityHeadersFor returned). */
  readonly security: Readonly<Record<string, string>>;
}

const PREPARED = Symbol('prepared');

/**
 * Prepares answers that carry these headers: their one record (lower-case names, in the order a
 * Headers object would list them, as @hono/node-server writes any other answer) is made here, once,
 * and shared by every answer prepared with it.
 */
export function preparer(
  headers: Record<string, string>,
  security: Readonly<Record<string, string>>,
): (status: number, body: Uint8Array<ArrayBuffer>) => Prepared {
  const all = new Headers(headers);
  for (const [name, value] of Object.entries(security)) all.set(name, value);
  const record = Object.freeze(Object.fromEntries(all));
  const contentType = all.get('content-type') ?? '';
  return (status, body) => ({ status, body, headers: record, contentType, security });
}

/** A new Response for the prepared answer. */
export function preparedResponse(prepared: Prepared): Response {
  const res = new Response(prepared.body, { status: prepared.status, headers: prepared.headers });
  (res as Response & { [PREPARED]?: Prepared })[PREPARED] = prepared;
  return res;
}

/** The prepared answer this response was made from, if it was. */
export function preparedOf(res: Response): Prepared | undefined {
  return (res as Response & { [PREPARED]?: Prepared })[PREPARED];
}
