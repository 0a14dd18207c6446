import type { KyInstance, Options } from 'ky';
import {
  ApiError,
  type ApiErrorBody,
  ClientErrorCode,
  clientErrorText as errorMessage,
} from '#domain/apiError';
import { reviveDates } from '#domain/dates';

/**
 * The product API over ky: no answer or a status of 500 or more raises NETWORK_FAILURE; 400, 403,
 * 404 and others raise the parsed body. A 401 on a call made with a session token (but not on the
 * login calls) first tries to renew the token with the refresh cookie and sends the call once more;
 * when that fails too, the user is logged out.
 */
export interface ApiOptions {
  baseUrl?: string;
  getToken: () => string | null;
  /** A call was answered 401 (its session is over): the answer's body says why. */
  onUnauthorized: (body: ApiErrorBody) => void;
  /** Renews the session token (single flight); null when the session is over. */
  renewToken?: () => Promise<string | null>;
  fetch?: typeof fetch;
}

/** The calls whose 401 means "wrong credentials" or "no session", not "token out of date". */
const LOGIN_CALLS = ['auth/logins', 'auth/sessions', 'users/wallets/actions/verify-account-proof'];

export type Api = ReturnType<typeof createApi>;

export function createApi(options: ApiOptions) {
  // ky loads with the first call, so pages that make none (Home for a visitor) do not carry it.
  let client: Promise<{ ky: KyInstance; HTTPError: typeof import('ky').HTTPError }> | undefined;
  const load = () =>
    (client ??= import('ky').then(({ default: ky, HTTPError }) => ({
      HTTPError,
      ky: ky.create({
        prefixUrl: options.baseUrl ?? '/api',
        retry: 0,
        timeout: 20_000,
        fetch: options.fetch,
        hooks: {
          beforeRequest: [
            (request) => {
              const token = options.getToken();
              if (token && !request.headers.has('Authorization'))
                request.headers.set('Authorization', `Bearer ${token}`);
            },
          ],
        },
      }),
    })));

  async function call<T>(
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    init: Options = {},
    as: 'json' | 'text' = 'json',
  ): Promise<T> {
    const { ky, HTTPError } = await load();
    const send = async () => {
      try {
        return await ky(path, { method, ...init });
      } catch (error) {
        const renew = options.renewToken;
        const renewable =
          error instanceof HTTPError &&
          error.response.status === 401 &&
          !!renew &&
          !!options.getToken() &&
          !LOGIN_CALLS.some((p) => path.startsWith(p));
        if (!renewable) throw error;
        const token = await renew();
        if (!token) throw error;
        return ky(path, { method, ...init, headers: { ...init.headers, Authorization: `Bearer ${token}` } });
      }
    };
    try {
      const response = await send();
      if (response.status === 204) return undefined as T;
      const text = await response.text();
      if (as === 'text') return text as T;
      return (text ? JSON.parse(text, reviveDates) : undefined) as T;
    } catch (error) {
      throw await toApiError(error instanceof HTTPError ? error : null, path, options);
    }
  }

  return {
    get: <T>(
      path: string,
      searchParams?: Record<string, string | number | boolean | undefined>,
      init?: Options,
    ) => call<T>('get', path, { ...init, searchParams: clean(searchParams) }),
    /** A GET whose answer is text (e.g. CSV), with the same error handling. */
    getText: (path: string, searchParams?: Record<string, string | number | boolean | undefined>) =>
      call<string>('get', path, { searchParams: clean(searchParams) }, 'text'),
    post: <T>(path: string, json?: unknown, init?: Options) => call<T>('post', path, { ...init, json }),
    patch: <T>(path: string, json?: unknown, init?: Options) => call<T>('patch', path, { ...init, json }),
    delete: <T>(path: string, init?: Options) => call<T>('delete', path, init),
    /** Sends a file (or form) as the raw request body. */
    put: <T>(path: string, body: Blob, init?: Options) => call<T>('put', path, { ...init, body }),
  };
}

function clean(params?: Record<string, string | number | boolean | undefined>) {
  if (!params) return undefined;
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as Record<
    string,
    string | number | boolean
  >;
}

/** `error` is the HTTP error of an answered call, or null when no answer came (network, timeout). */
async function toApiError(
  error: { response: Response } | null,
  path: string,
  options: ApiOptions,
): Promise<ApiError> {
  if (!error) {
    return new ApiError(0, {
      code: ClientErrorCode.NETWORK_FAILURE,
      message: errorMessage({ code: ClientErrorCode.NETWORK_FAILURE }),
    });
  }
  const { status } = error.response;
  if (status >= 500) {
    return new ApiError(status, {
      code: ClientErrorCode.NETWORK_FAILURE,
      message: errorMessage({ code: ClientErrorCode.NETWORK_FAILURE }),
    });
  }
  let body: ApiErrorBody;
  try {
    body = (await error.response.json()) as ApiErrorBody;
    if (typeof body?.code !== 'string') throw new Error('not an error body');
  } catch {
    body = { code: ClientErrorCode.UNKNOWN, message: errorMessage({ code: ClientErrorCode.UNKNOWN }) };
  }
  if (status === 401 && !LOGIN_CALLS.some((p) => path.startsWith(p))) options.onUnauthorized(body);
  return new ApiError(status, body);
}
