import { useEffect, useInsertionEffect, useRef } from 'react';

type EscapeHandler = (event: KeyboardEvent) => void;

/**
 * Active Escape handlers, most recently activated last. Only the top one runs, so a dropdown opened
 * inside a modal closes on the first Escape and the modal on the second.
 */
const stack: Array<{ current: EscapeHandler }> = [];

function onKeyDown(event: KeyboardEvent): void {
  if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
  const top = stack[stack.length - 1];
  if (!top) return;
  event.preventDefault();
  top.current(event);
}

/**
 * Calls `handler` when Escape is pressed anywhere in the document while `active` is true
 * (modals, menus and the viewer overlay close on Escape). Nested users form a stack: only the innermost
 * (latest activated) handler runs.
 */
export function useEscape(handler: EscapeHandler, active = true): void {
  const latest = useRef(handler);
  // Kept current before any effect runs; an insertion effect, so a server render runs nothing.
  useInsertionEffect(() => {
    latest.current = handler;
  });

  useEffect(() => {
    if (!active) return;
    const entry = { current: (event: KeyboardEvent) => latest.current(event) };
    stack.push(entry);
    if (stack.length === 1) document.addEventListener('keydown', onKeyDown);
    return () => {
      const index = stack.indexOf(entry);
      if (index !== -1) stack.splice(index, 1);
      if (stack.length === 0) document.removeEventListener('keydown', onKeyDown);
    };
  }, [active]);
}
