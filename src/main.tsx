import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { isLoggedIn } from '../machines/session';
import { nextTask } from './idle';
import { createAppRouter } from './router';
import { createRuntime } from './runtime';
import { firstLoadAnswers } from './services/firstLoad';
import { inspectorWanted, loadInspector } from './services/inspector';
import { browserStorage } from './services/storage';
import { AppContext } from './views/AppContext';
import { preloadAccountMenu } from './views/shell/Header';
// The business timings and limits (0.1 kB compressed) ship with the first load: most screens use
// them (Home's carousel too), and as a file of their own they would cost each of those screens one
// more response.
import '#domain/constants';
import './styles/tokens.css';
import './styles/app.css';

const rootElement = document.getElementById('root')!;

/** The server's markup is inert until React has rendered over it: then it is the live page. */
function Live() {
  useEffect(() => rootElement.removeAttribute('inert'), []);
  return null;
}

/**
 * Starts the app. It awaits inside a function, never at the module's top level: this module shares
 * its chunk with code the screens import, and a module still awaiting at top level would keep every
 * screen's chunk (and so the first route load this awaits) waiting for it.
 */
async function start() {
  // Loading the app's code took one long task already: the browser paints the server's page (and
  // any picture that arrived meanwhile) before the app starts, not after.
  await nextTask();
  // The inspector must attach before the first actor starts, or it misses their registration. A
  // production build made without VITE_INSPECT never offers it (src/services/inspector.ts): there
  // the first test is false at build time, and the inspector's code and chunks drop out of the build.
  const inspect =
    (import.meta.env.DEV || import.meta.env.VITE_INSPECT) && inspectorWanted(window.location.search)
      ? await loadInspector()
      : undefined;
  // The server renders public pages as a visitor with no session and no cookie choice sees them, and
  // hands over the API answers it made them from (src/entry-server.tsx).
  const firstLoad = document.getElementById('vt-first-load');
  const serverRendered = firstLoad !== null && rootElement.hasChildNodes();
  // Only such a visitor's first render is the server's markup: React then takes it over as it is. A
  // browser with a session or a cookie choice renders its own page over the server's.
  const takeOver = serverRendered && !browserStorage.token() && !browserStorage.cookiesAccepted();
  // A stored session shows the account menu in the header: its code, apart from the first page's,
  // loads now beside the page's data.
  if (browserStorage.token()) preloadAccountMenu();
  const app = createRuntime(
    inspect,
    takeOver ? { answered: firstLoadAnswers(JSON.parse(firstLoad.textContent ?? '{}')) } : {},
  );
  const router = createAppRouter(app);
  // Leaving the session (logout, 401, expiry) re-checks the current route's guard. Watched from the
  // session's start, so a 401 that ends it before the first render still counts; a visitor who was
  // never logged in keeps the data the first load fetched.
  let wasLoggedIn = isLoggedIn(app.session.getSnapshot());
  app.session.subscribe((s) => {
    const loggedIn = isLoggedIn(s);
    if (wasLoggedIn && !loggedIn) void router.invalidate();
    wasLoggedIn = loggedIn;
  });

  const page = (
    <StrictMode>
      <AppContext.Provider value={app}>
        <RouterProvider router={router} />
      </AppContext.Provider>
      <Live />
    </StrictMode>
  );
  // Over the server's markup, the page's data first (from the server's answers when taking over),
  // so that the first render is the whole page: the markup stays on screen until then.
  if (serverRendered) await router.load();
  if (takeOver) {
    // Renders the route tree as the server did (no suspense boundary around the root match).
    router.ssr = { manifest: undefined };
    // As a transition, React takes the page over in slices of a few milliseconds and lets the
    // browser paint between them: the server's markup (its largest picture among it) shows as soon
    // as it arrives, not after one long task of a few hundred milliseconds on a slow phone.
    startTransition(() => {
      hydrateRoot(rootElement, page);
    });
  } else createRoot(rootElement).render(page);
}

void start();
