import { useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface ViewportSize {
  width: number;
  height: number;
}

/** Resize handling is debounced by 100 ms. */
export const RESIZE_DEBOUNCE_MS = 100;

function viewport(): ViewportSize {
  return { width: window.innerWidth, height: window.innerHeight };
}

/**
 * Calls `callback` with the window size once the window has stopped resizing for `delay` ms
 * (a burst of resize events gives a single call). The pending call is dropped on unmount.
 */
export function useDebouncedResize(callback: (size: ViewportSize) => void, delay = RESIZE_DEBOUNCE_MS): void {
  const latest = useRef(callback);
  useLayoutEffect(() => {
    latest.current = callback;
  });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        latest.current(viewport());
      }, delay);
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [delay]);
}

/**
 * The window's inner width, updated through `useDebouncedResize` (e.g. settings tabs become buttons at
 * 680 px or less on the profile and settings pages).
 */
export function useViewportWidth(delay = RESIZE_DEBOUNCE_MS): number {
  const [width, setWidth] = useState(() => (typeof window === 'undefined' ? 0 : window.innerWidth));
  useDebouncedResize((size) => setWidth(size.width), delay);
  return width;
}
