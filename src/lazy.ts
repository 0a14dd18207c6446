/** Loads once: every call after the first shares the first call's promise. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => {
    promise ??= load();
    return promise;
  };
}

/**
 * An object whose every (async) method loads the real one first: callers use it as if it were
 * there, and the module behind it is fetched on the first call.
 */
export function lazyMethods<T extends object>(load: () => Promise<T>): T {
  return new Proxy({} as T, {
    get:
      (_, key) =>
      async (...args: unknown[]) => {
        const target = await load();
        return (target[key as keyof T] as (...a: unknown[]) => unknown)(...args);
      },
  });
}
