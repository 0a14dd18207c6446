import {
  createMemoryHistory,
  HeadContent,
  RouterContextProvider,
  RouterProvider,
} from '@tanstack/react-router';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createAppRouter } from './router';
import { createRuntime } from './runtime';
import { type FirstLoadAnswers, recordingFetch } from './services/firstLoad';
import { AppContext } from './views/AppContext';
import { HEAD_MARK } from './views/shell/DocumentHead';

/**
 * A page as the server renders it for a visitor, with the API answers it was made from, its head
 * (title, description, canonical link, Open Graph: the route's `head`) and its HTTP status: 404 for
 * the Not Found page (a path no route knows, an item or storefront a visitor cannot see), else 200.
 */
export interface RenderedPage {
  html: string;
  head: string;
  answers: FirstLoadAnswers;
  status: 200 | 404;
}

/**
 * Marks each element of a rendered head (title, meta, link, script) with HEAD_MARK, for the app to
 * replace it once it runs. React escapes `<` in text and attributes, and the JSON-LD's text is
 * escaped too, so every `<title`, `<meta`, `<link` and `<script` in it opens an element.
 */
const marked = (head: string) => head.replace(/<(title|meta|link|script)(?=[\s>])/g, `<$1 ${HEAD_MARK}=""`);

/**
 * Renders the page at `url` (path and query) as a visitor with no session sees it, running the
 * same route loaders the browser runs; `api` answers the loaders' calls (the server's own API,
 * in-process); the head's links name `origin`, the canonical origin (PUBLIC_URL). A path no route
 * knows, and an item or storefront the API does not show a visitor (unknown, hidden, a draft, a
 * disabled or suspended storefront), is the Not Found page with status 404: its owner, signed in,
 * sees it in the browser, which renders a signed-in user's page itself (src/main.tsx). Null when
 * the page cannot be rendered here: a redirect, a page that needs a session or a failed loader.
 * The browser then renders it itself, as before.
 */
export async function renderPage(
  url: string,
  api: typeof fetch,
  origin: string,
): Promise<RenderedPage | null> {
  const { fetch, answers } = recordingFetch(api);
  const app = createRuntime(undefined, { baseUrl: 'http://vitrine.internal/api', fetch });
  try {
    const router = createAppRouter(app, {
      history: createMemoryHistory({ initialEntries: [url] }),
      isServer: true,
      origin,
    });
    await router.load();
    // The server load's outcome (the router keeps it for a server's render): a redirect or a 500
    // page is left to the browser; a 404 is an unknown path or a loader's not-found.
    const result = router._serverResult;
    if (result?.type !== 'render' || (result.status !== 200 && result.status !== 404)) return null;
    if (result.matches.some((m) => m.status !== 'success' && m.status !== 'notFound')) return null;
    const page = renderToString(
      <StrictMode>
        <AppContext.Provider value={app}>
          <RouterProvider router={router} />
        </AppContext.Provider>
      </StrictMode>,
    );
    // The head is a render of its own: in the browser it renders into the document's head after
    // the page has hydrated (src/views/shell/DocumentHead.tsx), so the page's markup holds none.
    const head = renderToString(
      <RouterContextProvider router={router}>
        <HeadContent />
      </RouterContextProvider>,
    );
    return { html: page, head: marked(head), answers, status: result.status };
  } finally {
    app.session.stop();
    app.ui.stop();
  }
}
