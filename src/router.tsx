import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { publicRoutes } from './routes/public';
import { root } from './routes/root';
import { signedInRoutes } from './routes/signedIn';
import type { AppActors } from './views/AppContext';
import { LoadErrorPage } from './views/pages/LoadErrorPage';
import { PagePending } from './views/pages/PagePending';

export type { RouterContext } from './routes/root';

/**
 * The route tree: the pages anyone can open (src/routes/public.tsx) and the signed-in user's pages
 * under one authenticated layout (src/routes/signedIn.tsx); the guards and the loaders' helpers are
 * in src/routes/guards.ts, the screens (loaded on demand) in src/routes/screens.ts. A login-required
 * page remembers where the visitor was headed, to go there after login.
 */
export const routeTree = root.addChildren([...publicRoutes, ...signedInRoutes]);

/** On the server: the one URL it renders (memory history), and no scroll to restore. */
export interface ServerRouting {
  history: RouterHistory;
  isServer: true;
}

export function createAppRouter(app: AppActors, server?: ServerRouting) {
  return createRouter({
    routeTree,
    context: { app },
    defaultPreload: false,
    scrollRestoration: !server,
    ...server,
    defaultErrorComponent: LoadErrorPage,
    // A page still loading after a second shows the shell (and its account banner) with a spinner.
    defaultPendingComponent: PagePending,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
