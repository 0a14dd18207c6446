import type { MiddlewareHandler } from 'hono';
import { ErrorCode } from '#domain/errors';
import { apiError } from './http';
import { preparedOf } from './prepared';

/* ---- Security headers ---- */

/**
 * Google Pay with a real card provider: the page loads Google's client library
 * (https://pay.google.com/gp/p/js/pay.js, which cannot be served from our origin), and Google's
 * sheet and button show icons from www.gstatic.com. Only then are these origins allowed; with
 * Google Pay off, or played by the stand-in (the embedded sandbox), the policy stays 'self'.
 * Google Pay's other traffic needs nothing more: its requests (connect-src, which the Payment Request
 * API's payment handlers fall under) and frames (frame-src) are not restricted by this policy.
 */
export const GOOGLE_PAY_SCRIPT_SOURCE = 'https://pay.google.com';
export const GOOGLE_PAY_IMAGE_SOURCE = 'https://www.gstatic.com';

export interface SecurityOptions {
  /** Whether the page may load Google's Google Pay script (read for each answer). */
  googlePayScript?: () => boolean;
  /** The origin media is fetched from besides ours (MEDIA_PUBLIC_URL's, which /media redirects to). */
  mediaSource?: string;
}

/**
 * The policy of HTML answers (the SPA's index.html and its history-routing fallback). Vite's build
 * emits no inline script (one module script and its preloads from /assets), so scripts come from
 * our origin only, and Google's Google Pay script where it is used (above). All images and media
 * are ours (/media), plus data: (identicons) and blob: (previews of a chosen file), and Google Pay's
 * icons with its script.
 *
 * default-src, connect-src, frame-src and style-src are deliberately left open: FCL in the browser
 * calls the Flow access node itself (FLOW_ACCESS_NODE), asks FLOW_WALLET_DISCOVERY which wallets
 * exist, and frames or pops up whichever wallet the user picks, at that wallet's own origin. On
 * testnet and mainnet those origins come from the discovery service at run time, so no list built
 * from the server's configuration could name them all. The browser also sends card details to the
 * card provider's API itself (POST /tokens), never to us. React and FCL also set inline styles.
 *
 * Framing: the page may not be framed by anyone (frame-ancestors 'none', X-Frame-Options DENY).
 * No exception is needed: the FCL dev wallet is framed by our page, not the other way round, and
 * card 3-D Secure uses the redirect flow, which navigates the whole page.
 *
 * The Stately inspector (QA builds only, see src/services/inspector.ts) opens its site with
 * window.open and talks to it by postMessage: navigation, which this policy does not govern.
 *
 * Google's Google Pay sources are added when its script is used, and the media origin
 * (MEDIA_PUBLIC_URL's) when /media redirects there.
 */
export function documentPolicy(googlePayScript = false, mediaSource?: string): string {
  const google = (source: string) => (googlePayScript ? ` ${source}` : '');
  const media = mediaSource ? ` ${mediaSource}` : '';
  return [
    `script-src 'self'${google(GOOGLE_PAY_SCRIPT_SOURCE)}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    `img-src 'self' data: blob:${media}${google(GOOGLE_PAY_IMAGE_SOURCE)}`,
    `media-src 'self' blob:${media}`,
  ].join('; ');
}

/**
 * The policy of images, video and audio (/media, the favicon): opened on their own they may show
 * themselves and nothing else; an SVG runs no script.
 */
export const FILE_POLICY = [
  "default-src 'none'",
  "img-src 'self'",
  "media-src 'self'",
  "style-src 'unsafe-inline'",
  "frame-ancestors 'none'",
].join('; ');

/** The policy of every other answer (API JSON, CSV, errors): nothing may load or frame it. */
export const RESOURCE_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Browser features the site does not use. payment stays with our own page (Apple Pay and Google
 * Pay through the Payment Request API). usb and hid are not listed: FCL frames the chosen wallet
 * with allow="usb *; hid *" so a hardware wallet (Ledger) can work, and a feature turned off here
 * could not be handed on to that frame; without a header they stay limited to our origin and to
 * frames we delegate them to. autoplay and fullscreen are used by item videos.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'bluetooth=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'idle-detection=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=(self)',
  'screen-wake-lock=()',
  'serial=()',
  'xr-spatial-tracking=()',
].join(', ');

/**
 * The Content-Security-Policy for an answer of this content type: the document policy for HTML
 * (with Google's Google Pay sources when `googlePayScript`), the file policy for images, video and
 * audio, none for scripts (a script runs under the policy of its page; a worker's own policy would
 * come from its script's answer, so none is set there) and the strict resource policy for
 * everything else.
 */
export function contentSecurityPolicy(
  contentType: string | null | undefined,
  googlePayScript = false,
  mediaSource?: string,
): string | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html') return documentPolicy(googlePayScript, mediaSource);
  if (/^(image|video|audio)\//.test(type)) return FILE_POLICY;
  if (/^(text|application)\/(javascript|ecmascript)$/.test(type)) return undefined;
  return RESOURCE_POLICY;
}

/**
 * The security headers of an answer of this content type, by name:
 * - Content-Security-Policy (see contentSecurityPolicy);
 * - X-Content-Type-Options: nosniff, so no answer is read as another type than it declares;
 * - Referrer-Policy: strict-origin-when-cross-origin: other sites (the access node, wallets,
 *   outside links) learn our origin only, never a path or query such as a password-reset token.
 *   Wallets may show the origin they are connecting to, so no-referrer would cost more than it saves;
 * - Permissions-Policy (see PERMISSIONS_POLICY);
 * - X-Frame-Options: DENY, frame-ancestors 'none' for browsers that do not know CSP level 2.
 * Scripts and stylesheets never become a page of their own, and browsers read neither
 * Permissions-Policy nor X-Frame-Options on them: those two are left off the SPA's many chunks
 * (about 300 bytes each on every first load), and so is Referrer-Policy (50 bytes each): what they
 * fetch is the page's own origin, and anything else follows the page's policy.
 *
 * The same set is always the same (frozen) object, so a prepared answer (server/prepared.ts) can
 * tell that it already carries the set this content type needs.
 */
export function securityHeadersFor(
  contentType: string | null | undefined,
  googlePayScript = false,
  mediaSource?: string,
): Readonly<Record<string, string>> {
  const key = `${googlePayScript ? 1 : 0}${mediaSource ?? ''} ${contentType ?? ''}`;
  let found = byContentType.get(key);
  if (found) return found;
  const policy = contentSecurityPolicy(contentType, googlePayScript, mediaSource);
  const page = !SUBRESOURCE.test(contentType ?? '');
  const set = `${policy ?? ''}\n${page}`;
  found = distinctSets.get(set);
  if (!found) {
    const headers: Record<string, string> = {};
    if (policy) headers['Content-Security-Policy'] = policy;
    headers['X-Content-Type-Options'] = 'nosniff';
    if (page) {
      headers['Referrer-Policy'] = 'strict-origin-when-cross-origin';
      headers['Permissions-Policy'] = PERMISSIONS_POLICY;
      headers['X-Frame-Options'] = 'DENY';
    }
    found = Object.freeze(headers);
    distinctSets.set(set, found);
  }
  // Content types come from our own answers, so there are few; the bound only keeps an odd one
  // from growing the map.
  if (byContentType.size >= 256) byContentType.clear();
  byContentType.set(key, found);
  return found;
}
/** The sets made so far, by content type (and whether Google Pay's script is used, and the media origin). */
const byContentType = new Map<string, Readonly<Record<string, string>>>();
/** The distinct sets (there are a handful). */
const distinctSets = new Map<string, Readonly<Record<string, string>>>();

/** Sets the security headers (see securityHeadersFor) on an answer's headers, by its content type. */
export function applySecurityHeaders(headers: Headers, options: SecurityOptions = {}): void {
  const set = securityHeadersFor(
    headers.get('content-type'),
    options.googlePayScript?.() ?? false,
    options.mediaSource,
  );
  for (const name in set) headers.set(name, set[name]!);
}

/** Scripts and stylesheets: answers a browser only ever runs or applies inside a page. */
const SUBRESOURCE = /^\s*(text|application)\/(javascript|ecmascript)|^\s*text\/css/i;

/**
 * Sets the security headers on every answer of the app, errors and 404s included. A prepared
 * answer (server/prepared.ts) that already carries the set its content type needs is sent as it is.
 */
export function securityHeaders(options: SecurityOptions = {}): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const prepared = preparedOf(c.res);
    if (
      prepared &&
      prepared.security ===
        securityHeadersFor(prepared.contentType, options.googlePayScript?.() ?? false, options.mediaSource)
    )
      return;
    applySecurityHeaders(c.res.headers, options);
  };
}

/* ---- JSON-only request bodies ---- */

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** application/json, optionally with a charset parameter. */
const JSON_CONTENT_TYPE = /^application\/json\s*(;\s*charset\s*=\s*("?)[\w.:-]+\2\s*)?$/i;

/**
 * The routes whose body is not JSON, by method and full path:
 * - PUT /api/assets/uploads/{token}: the raw image bytes. It is authorized by the signed URL
 *   itself, never by cookies, so a request from another site carries no authority of the user.
 * - POST /api/image-jobs: a multipart form with the file. It requires a bearer token in the
 *   Authorization header, which a form or a no-cors request of another site cannot send (setting
 *   that header makes the browser ask the server first, and CORS is not granted).
 */
export const RAW_BODY_ROUTES: readonly { method: string; path: RegExp }[] = [
  { method: 'PUT', path: /^\/api\/assets\/uploads\/[^/]+$/ },
  { method: 'POST', path: /^\/api\/image-jobs$/ },
];

/**
 * Refuses, with 415 UNSUPPORTED_MEDIA_TYPE, a state-changing request (POST, PUT, PATCH, DELETE)
 * whose body is not JSON: a content type other than application/json (charset allowed), or a
 * non-empty body without a content type. A bodiless request without a content type passes.
 *
 * Another site can send a request with a body only as a form (urlencoded, multipart, text/plain)
 * or a no-cors fetch (those types, or none); application/json makes the browser ask the server
 * first. So this keeps other sites from registering accounts, sending reset emails or acting with
 * the user's cookies. RAW_BODY_ROUTES are the exceptions.
 */
export function jsonBodiesOnly(): MiddlewareHandler {
  return async (c, next) => {
    const method = c.req.method.toUpperCase();
    if (!STATE_CHANGING.has(method)) return next();
    if (RAW_BODY_ROUTES.some((r) => r.method === method && r.path.test(c.req.path))) return next();
    const type = c.req.header('content-type');
    const refused =
      type === undefined ? (await c.req.arrayBuffer()).byteLength > 0 : !JSON_CONTENT_TYPE.test(type.trim());
    if (refused) throw apiError(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE);
    return next();
  };
}
