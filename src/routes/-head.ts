import { DEFAULT_SHARE_IMAGE, type PageHead, SHARE_IMAGE } from '#domain/pageHead';

/**
 * A page's head (domain/pageHead.ts) as a route's `head` option answers it: `<HeadContent />` in
 * the shell renders it, the server's render puts it into the page's `<head>` (server/spa.ts) and
 * the browser updates it on every navigation. The canonical URL, og:url, og:image and the JSON-LD
 * are on `origin`, the canonical origin (the server's PUBLIC_URL). A deeper route's title and meta
 * replace the shell's defaults of the same name.
 */
export function headTags(origin: string, head: PageHead) {
  const url = head.path === undefined ? undefined : `${origin}${head.path}`;
  return {
    meta: [
      { title: head.title },
      { name: 'description', content: head.description },
      ...(head.noindex ? [{ name: 'robots', content: 'noindex' }] : []),
      { property: 'og:site_name', content: 'Vitrine' },
      { property: 'og:title', content: head.title },
      { property: 'og:description', content: head.description },
      { property: 'og:type', content: head.type ?? 'website' },
      ...(url ? [{ property: 'og:url', content: url }] : []),
      { property: 'og:image', content: `${origin}${head.image ?? DEFAULT_SHARE_IMAGE}` },
      { property: 'og:image:width', content: String(SHARE_IMAGE.width) },
      { property: 'og:image:height', content: String(SHARE_IMAGE.height) },
      { name: 'twitter:card', content: 'summary_large_image' },
      ...(head.jsonLd ? [{ 'script:ld+json': { '@context': 'https://schema.org', ...head.jsonLd } }] : []),
    ],
    links: url ? [{ rel: 'canonical', href: url }] : [],
  };
}

/** The `head` option of a page whose head is fixed. */
export const fixedHead =
  (head: PageHead) =>
  ({ match }: { match: { context: { origin: string } } }) =>
    headTags(match.context.origin, head);
