import { type ComponentType, createElement, lazy, useState } from 'react';

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

/**
 * A component of a module loaded on demand (once): `preload` fetches it ahead. Mounted once its
 * module is there, it renders at once; before, through React.lazy, which suspends on its first
 * render even when the module arrives meanwhile, and React then reveals it up to 300 ms later (its
 * throttle of Suspense content). Each mount keeps the way it started, so it never remounts.
 */
export function preloadable<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> & { preload: () => Promise<void> } {
  let ready: ComponentType<P> | undefined;
  const fetch = once(() => load().then((component) => (ready = component)));
  const Lazy = lazy(() => fetch().then((component) => ({ default: component })));
  function Preloadable(props: P) {
    const [Component] = useState<ComponentType<P>>(() => ready ?? (Lazy as unknown as ComponentType<P>));
    return createElement(Component, props);
  }
  return Object.assign(Preloadable, { preload: () => fetch().then(() => undefined) });
}
