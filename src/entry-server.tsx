import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createAppRouter } from './router';
import { createRuntime } from './runtime';
import { type FirstLoadAnswers, recordingFetch } from './services/firstLoad';
import { AppContext } from './views/AppContext';

/**
 * A page as the server renders it for a visitor, with the API answers it was made from, and its
 * HTTP status: 404 for the Not Found page of a path no route knows, else 200.
 */
export interface RenderedPage {
  html: string;
  answers: FirstLoadAnswers;
  status: 200 | 404;
}

/**
 * Renders the page at `url` (path and query) as a visitor with no session sees it, running the
 * same route loaders the browser runs; `api` answers the loaders' calls (the server's own API,
 * in-process). A path no route knows is the Not Found page, with status 404. Null when the page
 * cannot be rendered here: a redirect, a page that needs a session, an item or storefront a visitor
 * cannot see (its owner may: a draft, a disabled storefront) or a failed loader. The browser then
 * renders it itself, as before.
 */
export async function renderPage(url: string, api: typeof fetch): Promise<RenderedPage | null> {
  const { fetch, answers } = recordingFetch(api);
  const app = createRuntime(undefined, { baseUrl: 'http://vitrine.internal/api', fetch });
  try {
    const router = createAppRouter(app, {
      history: createMemoryHistory({ initialEntries: [url] }),
      isServer: true,
    });
    await router.load();
    // The server load's outcome (the router keeps it for a server's render): a redirect, a loader's
    // not-found or a 500 page is left to the browser; a 404 with every loader done is an unknown path.
    const result = router._serverResult;
    if (result?.type !== 'render' || (result.status !== 200 && result.status !== 404)) return null;
    if (result.matches.some((m) => m.status !== 'success')) return null;
    const html = renderToString(
      <StrictMode>
        <AppContext.Provider value={app}>
          <RouterProvider router={router} />
        </AppContext.Provider>
      </StrictMode>,
    );
    return { html, answers, status: result.status };
  } finally {
    app.session.stop();
    app.ui.stop();
  }
}
