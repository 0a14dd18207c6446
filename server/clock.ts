/**
 * The time and the log every server module is handed: a leaf module (it imports nothing), so that
 * any module can name them without importing the composition root (server/deps.ts).
 */

/** Now, as the server sees it; tests move it. */
export type Clock = () => Date;

/** Where the server writes what happened. */
export type Log = Pick<Console, 'info' | 'error'>;
