/**
 * Crash tests kill the server where a crash hurts most and restart it: VITRINE_CRASH_AT names the
 * point, and the process kills itself there with SIGKILL (no cleanup, no rollback handler, no
 * flush), exactly as `kill -9` would. The points: `captured` (the fulfil job captured the payment
 * and recorded nothing yet), `minted` (the editions are on chain and the order does not know), and
 * `webhook` (inside the transaction that records a provider event and authorizes its order, before the commit). Outside the
 * development helpers' environment (production without VITRINE_DEV_OUTBOX) the variable is refused.
 */
export const crashPoints = ['captured', 'minted', 'webhook'] as const;
export type CrashPoint = (typeof crashPoints)[number];

export function parseCrashPoint(raw: string | undefined): CrashPoint | undefined {
  if (!raw) return undefined;
  if (!(crashPoints as readonly string[]).includes(raw))
    throw new Error(`VITRINE_CRASH_AT must be one of ${crashPoints.join(', ')}`);
  return raw as CrashPoint;
}

/** Kills the process at `at`; nothing when no crash point is set. */
export function crashHook(at: CrashPoint | undefined): ((point: string) => void) | undefined {
  if (!at) return undefined;
  return (point) => {
    if (point === at) process.kill(process.pid, 'SIGKILL');
  };
}
