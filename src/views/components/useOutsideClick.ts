import { type RefObject, useEffect, useInsertionEffect, useRef } from 'react';

type Refs = RefObject<Element | null> | ReadonlyArray<RefObject<Element | null>>;

/**
 * Calls `handler` when a pointer goes down outside every element in `refs` while `active` is true
 * (the nav menu, dropdowns and the viewer overlay close on outside click).
 *
 * Listens in the capture phase and checks `composedPath()`, so a click on an element that is removed
 * by the same click still counts as inside.
 */
export function useOutsideClick(refs: Refs, handler: (event: PointerEvent) => void, active = true): void {
  const latestHandler = useRef(handler);
  const latestRefs = useRef(refs);
  // Kept current before any effect runs; an insertion effect, so a server render runs nothing.
  useInsertionEffect(() => {
    latestHandler.current = handler;
    latestRefs.current = refs;
  });

  useEffect(() => {
    if (!active) return;
    const onPointerDown = (event: PointerEvent) => {
      const current = latestRefs.current;
      const list = Array.isArray(current) ? current : [current as RefObject<Element | null>];
      const path = event.composedPath();
      const inside = list.some((ref) => {
        const element = ref.current;
        if (!element) return false;
        return path.includes(element) || (event.target instanceof Node && element.contains(event.target));
      });
      if (!inside) latestHandler.current(event);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => document.removeEventListener('pointerdown', onPointerDown, true);
  }, [active]);
}
