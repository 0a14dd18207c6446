import { loadConfig } from '../server/config';

/** The product API's configuration for an in-process benchmark: in-memory PGlite, no chain, no seed. */
export const benchConfig = (dataDir: string) =>
  loadConfig({
    VITRINE_DATA_DIR: dataDir,
    DATABASE_URL: 'memory://',
    FLOW_EMULATOR: 'off',
    VITRINE_SEED: 'off',
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256',
  });

// biome-ignore lint/suspicious/noExplicitAny: answers read field by field
export type Json = any;

/**
 * A client of a benchmark's server at `base` (…/api): JSON or a FormData body, a bearer token, and
 * the client address it comes from (`X-Forwarded-For`, believed when the server trusts 127.0.0.1:
 * each buyer of a benchmark is a person of their own, as the abuse limits count them). A failed
 * answer throws.
 */
export function apiCaller(base: string) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    token?: string,
    from?: string,
  ): Promise<Json> => {
    const form = body instanceof FormData;
    const res = await fetch(`${base}/${path}`, {
      method,
      headers: {
        ...(body === undefined || form ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(from ? { 'x-forwarded-for': from } : {}),
      },
      body: body === undefined ? undefined : form ? (body as FormData) : JSON.stringify(body),
    });
    const json = await res.json().catch(() => null);
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}
