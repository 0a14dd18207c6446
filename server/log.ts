import pino, { type DestinationStream } from 'pino';
import type { Log } from './clock';
import { workContext } from './context';

/**
 * The server's log: one JSON object per line (pino) on standard output, with `time` (ISO),
 * `level` (info, error), `msg`, the `request_id` of the request being answered or of the request
 * that queued the job being run (server/context.ts), `job` (the job's kind) while a job runs, and
 * the fields a line adds (`err` for an error). `npx pino-pretty` makes it readable in a terminal.
 *
 * What may never be in a line: secrets, tokens, card data, KYC data. So no request or answer body
 * and no header is ever logged; an error is logged as its type, message, code, status and stack
 * only (never the request, answer or options an HTTP client hangs on it); and the fields below are
 * censored wherever a line's fields or an error's name them.
 */
const SECRET_KEYS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'authToken',
  'refreshToken',
  'accessToken',
  'resetToken',
  'authorization',
  'cookie',
  'secret',
  'apiKey',
  'secretKey',
  'privateKey',
  'sharedSecret',
  'signature',
  'number',
  'cardNumber',
  'cvv',
  'cvc',
  'firstName',
  'lastName',
  'legalName',
  'dateOfBirth',
  'sessionUrl',
  'url',
];

/** The censored paths: each key at the top of a line, one level down, and in `err`. */
export const REDACTED_PATHS = SECRET_KEYS.flatMap((key) => [key, `*.${key}`]);

interface LoggedError {
  type: string;
  message: string;
  code?: string | number;
  status?: number;
  stack?: string;
  cause?: LoggedError;
}

/** An error as a line carries it: its type, message, code, status and stack, and so its causes (3 deep). */
export function loggedError(err: unknown, depth = 0): LoggedError {
  if (!(err instanceof Error)) return { type: typeof err, message: String(err) };
  const { code, status, statusCode } = err as Error & {
    code?: unknown;
    status?: unknown;
    statusCode?: unknown;
  };
  const out: LoggedError = { type: err.name, message: err.message, stack: err.stack };
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  const httpStatus = typeof status === 'number' ? status : statusCode;
  if (typeof httpStatus === 'number') out.status = httpStatus;
  if (err.cause !== undefined && depth < 3) out.cause = loggedError(err.cause, depth + 1);
  return out;
}

export interface LoggerOptions {
  /** Where lines go: standard output by default (tests capture them). */
  destination?: DestinationStream;
  /** LOG_LEVEL: info by default. */
  level?: string;
}

/** A pino logger, as the server's Log: `log.info(message, fields?)`, `log.error(message, err?)`. */
export function createLogger(options: LoggerOptions = {}): Log {
  const logger = pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { err: (err: unknown) => loggedError(err) },
      mixin() {
        const context = workContext();
        if (!context) return {};
        return {
          ...(context.requestId ? { request_id: context.requestId } : {}),
          ...(context.job ? { job: context.job } : {}),
        };
      },
    },
    // Written at once: a line is never lost when the process exits.
    options.destination ?? pino.destination({ fd: 1, sync: true }),
  );
  /** Console-style arguments as one line: an Error becomes `err`, objects add fields, the rest `details`. */
  const write =
    (level: 'info' | 'error') =>
    (message?: unknown, ...rest: unknown[]) => {
      const fields: Record<string, unknown> = {};
      const details: unknown[] = [];
      let msg: string;
      if (message instanceof Error) {
        fields.err = message;
        msg = message.message;
      } else msg = String(message);
      for (const item of rest) {
        if (item instanceof Error) fields.err = item;
        else if (item !== null && typeof item === 'object') Object.assign(fields, item);
        else if (item !== undefined) details.push(item);
      }
      if (details.length > 0) fields.details = details.map(String);
      logger[level](fields, msg);
    };
  return { info: write('info'), error: write('error') };
}

let shared: Log | undefined;

/** The process's log on standard output (made on first use). */
export function defaultLog(): Log {
  shared ??= createLogger();
  return shared;
}
