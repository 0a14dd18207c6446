import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import { ErrorCode } from '#domain/errors';
import type { Services } from '../deps';
import { type AppEnv, badRequest, errorResponse, IMMUTABLE, notFound } from '../http';
import { cardVersion, VERSION_PATTERN } from './card';
import { createShareImages, type ShareImages } from './images';
import { itemPage, type SharedPage, storefrontPage } from './pages';
import { renderShareImage } from './render';

/** `?v=`: the version the URL was made for (an API answer's `shareImage.url`). */
const ShareImageQuery = v.object({ v: v.optional(v.pipe(v.string(), v.regex(VERSION_PATTERN))) });

/** A URL carrying the image's current version names that image for good. */
/** Without it (or with an older one) the image may change: caches ask again after 5 minutes. */
const SHORT = 'public, max-age=300';

/** Whether an If-None-Match header names the entity tag (weak or strong, in a list, or `*`). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/** `{name}.png` → name; anything else is no image. */
const pngName = (file: string) => (file.endsWith('.png') ? file.slice(0, -4) : null);

async function answer(
  c: Context<AppEnv>,
  images: ShareImages,
  find: (name: string) => Promise<SharedPage | null>,
): Promise<Response> {
  const query = v.safeParse(ShareImageQuery, c.req.query());
  if (!query.success) throw badRequest(ErrorCode.INVALID_VALUE, 'v');
  const name = pngName(c.req.param('file') ?? '');
  const found = name === null ? null : await find(name);
  if (!found) return errorResponse(c, notFound());
  const version = cardVersion(found.card);
  const etag = `"${version}"`;
  const headers = { ETag: etag, 'Cache-Control': query.output.v === version ? IMMUTABLE : SHORT };
  if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
  const png = await images.png(found.page, found.card);
  return c.body(new Uint8Array(png), 200, { ...headers, 'Content-Type': 'image/png' });
}

/**
 * The share images (link previews) of the public pages: GET /og/nft/{id}.png for the item page
 * /nft/{id} and GET /og/s/{vanityUrl}.png for a storefront's page. 404 where the page would be one
 * (unknown, hidden, suspended); 400 for a `v` that is not a version. Each answer carries the ETag of
 * its version and answers If-None-Match with 304.
 */
export function mountShareImages(app: Hono<AppEnv>, s: Services): void {
  const images = createShareImages(s.storage, (card) => renderShareImage(card, s.storage), s.log);
  app.get('/og/nft/:file', (c) => answer(c, images, (id) => itemPage(s.db, id)));
  app.get('/og/s/:file', (c) => answer(c, images, (key) => storefrontPage(s.db, key)));
}
