import { HeadContent } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';

/**
 * Marks the elements of a page's head as the server wrote them (its title, description, canonical
 * link, Open Graph and JSON-LD, and index.html's own title and description): the app replaces them
 * once it runs.
 */
export const HEAD_MARK = 'data-head';

/**
 * The current route's head (each route's `head` option: title, description, canonical link, Open
 * Graph, JSON-LD) in the document's `<head>`, following every navigation. Nothing on the server or
 * in a first render, so a server-rendered page hydrates as it was sent; once mounted it takes the
 * place of the head the server wrote (marked with HEAD_MARK) and renders into `<head>` itself.
 */
export function DocumentHead() {
  const [head, setHead] = useState<HTMLHeadElement | null>(null);
  useEffect(() => {
    for (const element of document.head.querySelectorAll(`[${HEAD_MARK}]`)) element.remove();
    setHead(document.head);
  }, []);
  return head ? createPortal(<HeadContent />, head) : null;
}
