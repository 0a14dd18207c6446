import type { KyInstance, Options } from 'ky';
import {
  ApiError,
  type ApiErrorBody,
  ClientErrorCode,
  clientErrorText as errorMessage,
} from '#domain/apiError';
import type { AnswerOf, ApiMethod, ParamNames, PathOf } from '#domain/contract';
import { reviveDates } from '#domain/dates';

/**
 * The product API over ky, typed by the API's contract (domain/contract.ts): a call names a route's
 * path as the server declares it (`api.get('/nfts/{id}', { params: { id } })`), and its answer is the
 * output of that route's response schema. No answer or a status of 500 or more raises NETWORK_FAILURE; 400, 403,
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
  /**
   * The answers a server-rendered page was made from (src/services/firstLoad.ts): a GET among them is
   * answered from there, once, without asking the API.
   */
  answered?: (url: string) => string | undefined;
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

  async function call<T>(method: ApiMethod, path: string, init: Options = {}): Promise<T> {
    const noted = method === 'get' ? options.answered?.(urlOf(path, init.searchParams)) : undefined;
    if (noted !== undefined) return (noted ? JSON.parse(noted, reviveDates) : undefined) as T;
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
      // A JSON answer is parsed (its dates revived); another (a CSV file) is its text.
      if (!response.headers.get('content-type')?.includes('json')) return text as T;
      return (text ? JSON.parse(text, reviveDates) : undefined) as T;
    } catch (error) {
      throw await toApiError(error instanceof HTTPError ? error : null, path, options);
    }
  }

  /** The URL ky asks for a call: the prefix, the path and the query, encoded as ky encodes it. */
  const urlOf = (path: string, query: Options['searchParams']) => {
    const search = query ? new URLSearchParams(query as Record<string, string>).toString() : '';
    return `${options.baseUrl ?? '/api'}/${path}${search ? `?${search}` : ''}`;
  };

  const route =
    <M extends ApiMethod>(method: M) =>
    <P extends PathOf<M>>(path: P, ...[given]: CallArgs<P>): Promise<AnswerOf<M, P>> => {
      const { params, query, json, body, init } = (given ?? {}) as CallOptions<string>;
      const url = path
        .slice(1)
        .replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ''));
      return call(method, url, {
        ...init,
        searchParams: clean(query),
        ...(json !== undefined && { json }),
        ...(body !== undefined && { body }),
      });
    };

  return {
    get: route('get'),
    post: route('post'),
    patch: route('patch'),
    put: route('put'),
    delete: route('delete'),
  };
}

type Query = Record<string, string | number | boolean | undefined>;

/**
 * A call's options: the path's parameters (each encoded into the path), the query, a JSON body (or a
 * raw one: a file, a form), and ky's options.
 */
export type CallOptions<P extends string> = {
  query?: Query;
  json?: unknown;
  body?: Blob | FormData;
  init?: Options;
} & ([ParamNames<P>] extends [never] ? { params?: undefined } : { params: Record<ParamNames<P>, string> });

/** The options are required exactly when the path has parameters. */
type CallArgs<P extends string> = [ParamNames<P>] extends [never]
  ? [options?: CallOptions<P>]
  : [options: CallOptions<P>];

function clean(params?: Query) {
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
