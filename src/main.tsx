import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppContext.Provider value={app}>
      <RouterProvider router={router} />
    </AppContext.Provider>
  </StrictMode>,
);
