import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen';
import type { AppActors } from './views/AppContext';
import { LoadErrorPage } from './views/pages/LoadErrorPage';
import { PagePending } from './views/pages/PagePending';

/**
 * The route tree is made from the files of src/routes, one per URL (TanStack Router's file-based
 * routing: `routeTree.gen.ts` is written by its Vite plugin on every build and dev start, and kept in
 * git so that `tsc` and the tests need no build first). The signed-in user's pages are under the
 * pathless `_authenticated` layout, whose guard sends a visitor to sign in and remembers where they
 * were headed; the guards and the loaders' helpers are in src/routes/-guards.ts.
 */

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
