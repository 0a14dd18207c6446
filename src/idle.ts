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

/**
 * Resolves in a task of its own, soon (a message to itself, which background tabs do not slow down
 * as they do timers): work after it leaves the browser a chance to paint first.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
