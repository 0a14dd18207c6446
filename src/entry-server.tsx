import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createAppRouter } from './router';
import { createRuntime } from './runtime';
import { type FirstLoadAnswers, recordingFetch } from './services/firstLoad';
import { AppContext } from './views/AppContext';

/** A page as the server renders it for a visitor, with the API answers it was made from. */
export interface RenderedPage {
  html: string;
  answers: FirstLoadAnswers;
}

/**
 * Renders the page at `url` (path and query) as a visitor with no session sees it, running the
 * same route loaders the browser runs; `api` answers the loaders' calls (the server's own API,
 * in-process). Null when the page cannot be rendered here: a redirect, a page that needs a
 * session, a missing page or a failed loader. The browser then renders it itself, as before.
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
    // The server load's outcome (the router keeps it for a server's render): a redirect or a 404
    // or 500 page is left to the browser.
    const result = router._serverResult;
    if (result?.type !== 'render' || result.status !== 200) return null;
    if (result.matches.some((m) => m.status !== 'success')) return null;
    const html = renderToString(
      <StrictMode>
        <AppContext.Provider value={app}>
          <RouterProvider router={router} />
        </AppContext.Provider>
      </StrictMode>,
    );
    return { html, answers };
  } finally {
    app.session.stop();
    app.ui.stop();
  }
}
