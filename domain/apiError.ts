/**
 * What every page needs of the API's errors from its first load on: the body of an error answer,
 * the error an API call throws, and the codes and texts of the errors the API client makes itself
 * (no answer, an answer it cannot read). The list of every code the product answers is in
 * domain/errorCodes.ts, which loads with the screens.
 */

/** The codes of the errors the API client makes itself (also in the list of every code). */
export const ClientErrorCode = {
  NETWORK_FAILURE: 'NETWORK_FAILURE',
  UNKNOWN: 'unknown',
} as const;
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/** The body of every 400/401/403/404/429 answer of the product API. */
export interface ApiErrorBody {
  code: string;
  field?: string;
  message: string;
  /** Extra values for messages with placeholders, e.g. { n: 8 } for "{n} Characters". */
  params?: Record<string, string | number>;
}

/**
 * What a 401 says when the session token no longer opens a session (it expired, was logged out
 * elsewhere or revoked, or the password changed since); the sign-in page shows it.
 */
export const SESSION_EXPIRED_TEXT = 'Your session has expired. Please log in again.';

/** The texts of the errors the API client makes itself, and the default text. */
export const clientErrorTexts = {
  'errors.default': 'Something went wrong. Please try again.',
  'errors.unknown': 'Unknown error occurred',
  'errors.NETWORK_FAILURE': 'Unknown connection error. Please check your connection and try again.',
} as const;

/**
 * The text of an error the API client makes itself (no answer, an answer it cannot read): the
 * same text errorMessage (domain/errors.ts) gives for these codes.
 */
export function clientErrorText(err: { code: ClientErrorCode }) {
  return clientErrorTexts[`errors.${err.code}`];
}

/** A thrown error carrying an API error body; used by the server and the API client. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
    this.name = 'ApiError';
  }
}
