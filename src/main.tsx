import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isLoggedIn } from '../machines/session';
import { createAppRouter } from './router';
import { createRuntime } from './runtime';
import { inspectorWanted, loadInspector } from './services/inspector';
import { AppContext } from './views/AppContext';
import './styles/tokens.css';
import './styles/app.css';

// The inspector must attach before the first actor starts, or it misses their registration.
const inspect = inspectorWanted(window.location.search) ? await loadInspector() : undefined;
const app = createRuntime(inspect);
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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppContext.Provider value={app}>
      <RouterProvider router={router} />
    </AppContext.Provider>
  </StrictMode>,
);
