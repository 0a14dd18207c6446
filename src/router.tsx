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

/**
 * On the server: the one URL it renders (memory history), no scroll to restore, and the canonical
 * origin (PUBLIC_URL) the page's head names.
 */
export interface ServerRouting {
  history: RouterHistory;
  isServer: true;
  origin: string;
}

/**
 * The app's router. The pages' heads name the canonical origin: the server's PUBLIC_URL when it
 * renders, and in the browser the page's own origin (the server sends a page asked for under
 * another name of its machine to PUBLIC_URL: server/origin.ts).
 */
export function createAppRouter(app: AppActors, server?: ServerRouting) {
  const { origin = window.location.origin, ...serverRouting } = server ?? {};
  return createRouter({
    routeTree,
    context: { app, origin },
    defaultPreload: false,
    scrollRestoration: !server,
    ...serverRouting,
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
