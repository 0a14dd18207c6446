import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { Log } from './clock';
import { type AppEnv, IMMUTABLE } from './http';
import { isPagePath } from './pages';

/** A page not rendered by then goes out unrendered: the browser renders it itself. */
const RENDER_TIMEOUT_MS = 2000;

/**
 * Renders a page of the SPA on the server (the build's dist-ssr/entry-server.js): its markup, the
 * API answers it was made from and its status (404 for the Not Found page), or null when the
 * browser must render it itself.
 */
export type PageRenderer = (
  url: string,
  api: typeof fetch,
  origin: string,
) => Promise<{
  html: string;
  /** The page's own title, meta and link elements, for the document's head. */
  head?: string;
  answers: Record<string, string>;
  status?: 200 | 404;
} | null>;

/** The server-side renderer built beside the SPA (`npm run build`), if it was built. */
export async function loadPageRenderer(spaDir: string): Promise<PageRenderer | undefined> {
  const entry = join(spaDir, '..', 'dist-ssr', 'entry-server.js');
  if (!existsSync(entry)) return undefined;
  return ((await import(pathToFileURL(entry).href)) as { renderPage: PageRenderer }).renderPage;
}

/** The JSON of the API answers, safe inside a script element (no `</script>` can close it). */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The page with its one stylesheet inline instead of linked, for rendered pages: a page then paints
 * as soon as its markup has arrived. Linked, the stylesheet is a second request, which the app's
 * scripts can overtake, and the first paint then waits behind their work as well. A stylesheet that
 * could close the style element early stays linked.
 */
function inlineStylesheet(page: string, root: string): string {
  const link = /<link rel="stylesheet"[^>]* href="(\/assets\/[^"]+\.css)"[^>]*>/.exec(page);
  if (!link) return page;
  const css = readFileSync(join(root, link[1]!), 'utf8');
  if (/<\/style/i.test(css)) return page;
  return page.replace(link[0], () => `<style>${css}</style>`);
}

/**
 * The page's script and its preloads moved from the head to the end of the body. A page rendered on
 * the server is read before any script runs, so the browser fetches what it shows (its pictures, the
 * largest among them) before the app's code, which only takes the page over: a module script runs
 * once the document is parsed, wherever it sits.
 */
function scriptsLast(page: string): string {
  const tags = page.match(/\s*<(script type="module"[^>]*><\/script|link rel="modulepreload"[^>]*)>/g) ?? [];
  const without = tags.reduce((rest, tag) => rest.replace(tag, ''), page);
  return without.replace('</body>', () => `${tags.map((tag) => tag.trim()).join('')}\n  </body>`);
}

/**
 * The page with its own head (title, description, canonical link, Open Graph) where index.html has
 * its generic title and description: a page carries one of each.
 */
function withHead(page: string, head: string | undefined): string {
  if (!head) return page;
  return page
    .replace(/<meta name="description"[^>]*>\s*/, '')
    .replace(/<title[^>]*>[^<]*<\/title>/, () => head);
}

/**
 * Serves the built SPA: each text file as the .br or .gz the build wrote beside it when the browser
 * accepts that encoding (else as it is), hashed /assets/* cached for a year, anything else
 * revalidated on every load. Other GET paths without a file answer index.html: with status 200 on
 * a path a route of the SPA answers (server/pages.ts), else with 404 (the browser's router shows
 * its Not Found page); a missing asset stays a plain 404.
 *
 * With a renderer, a page (a path whose last part has no file extension) is first rendered on the
 * server as a visitor with no session sees it: its markup goes inside the root element and the API
 * answers it was made from into a JSON script the browser reads instead of asking again. The page
 * then shows before any script has run; it stays inert (no clicks, no focus) until the browser's
 * React has taken it over, so no click or keystroke is lost before then. A path no route knows is
 * the Not Found page with status 404, and so is an item or storefront a visitor cannot see. The
 * page's head (its title, description, canonical link on `publicUrl`, Open Graph) replaces
 * index.html's generic title and description. A page the renderer leaves to the browser (it needs a
 * session, redirects, failed to load or took over RENDER_TIMEOUT_MS) is the plain index.html, as without one.
 */
export function mountSpa(
  app: Hono<AppEnv>,
  root: string,
  options: { renderPage?: PageRenderer; log?: Log; publicUrl: string },
): void {
  const index = serveStatic({ root, path: 'index.html', precompressed: true });
  app.get('*', async (c, next) => {
    await next();
    if (c.res.status !== 200) return;
    if (!c.req.path.startsWith('/assets/')) {
      c.res.headers.set('Cache-Control', 'no-cache');
      return;
    }
    c.res.headers.set('Cache-Control', IMMUTABLE);
    // A hashed file never changes, so no browser revalidates it by date or resumes it by range:
    // without these two headers each script of a first load costs 70 bytes less.
    c.res.headers.delete('Last-Modified');
    c.res.headers.delete('Accept-Ranges');
  });
  const { renderPage, log, publicUrl } = options;
  if (renderPage) {
    const template = scriptsLast(inlineStylesheet(readFileSync(join(root, 'index.html'), 'utf8'), root));
    // The page's API calls are answered in-process, as the browser's would be over HTTP.
    const api = ((input: RequestInfo | URL, init?: RequestInit) =>
      app.fetch(new Request(input, init))) as typeof fetch;
    app.get('*', async (c, next) => {
      if (/\.[^/]*$/.test(c.req.path)) return next();
      const url = new URL(c.req.url);
      let page: Awaited<ReturnType<PageRenderer>> = null;
      let timer: NodeJS.Timeout | undefined;
      try {
        page = await Promise.race([
          renderPage(`${url.pathname}${url.search}`, api, publicUrl),
          new Promise<null>((resolve) => {
            timer = setTimeout(resolve, RENDER_TIMEOUT_MS, null);
          }),
        ]);
      } catch (error) {
        log?.error(`rendering ${url.pathname} on the server failed`, error);
      } finally {
        clearTimeout(timer);
      }
      if (!page) return next();
      return c.html(
        // A function, so that `$&` or `$'` in the page (a title, a price) is taken literally.
        withHead(template, page.head).replace(
          '<div id="root"></div>',
          () =>
            `<div id="root" inert>${page.html}</div><script type="application/json" id="vt-first-load">${scriptJson(page.answers)}</script>`,
        ),
        page.status ?? 200,
      );
    });
  }
  app.get('*', serveStatic({ root, precompressed: true }));
  app.get('*', async (c, next) => {
    if (c.req.path.startsWith('/assets/')) return next();
    const res = await index(c, next);
    if (!res || isPagePath(c.req.path)) return res;
    // No route has this path: the browser's router shows the Not Found page, with status 404.
    return new Response(res.body, { status: 404, headers: res.headers });
  });
}
