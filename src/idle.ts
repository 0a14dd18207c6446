/**
 * Runs `run` once the browser is idle (at the latest after `timeout` ms; where idle callbacks are
 * not known, on the next task); the answer cancels it.
 */
export function whenIdle(run: () => void, timeout = 2000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 0);
  return () => clearTimeout(id);
}
