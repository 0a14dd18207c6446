/**
 * The time and the log every server module is handed: a leaf module (it imports nothing), so that
 * any module can name them without importing the composition root (server/deps.ts).
 */

/** Now, as the server sees it; tests move it. */
export type Clock = () => Date;

/**
 * Where the server writes what happened: `info(message, fields?)`, `error(message, err?)`. The
 * server's is a JSON logger (server/log.ts); tests hand in one that keeps the lines.
 */
export type Log = Pick<Console, 'info' | 'error'>;
