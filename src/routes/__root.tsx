import { createRootRouteWithContext } from '@tanstack/react-router';
import type { AppActors } from '../views/AppContext';
import { NotFoundPage } from '../views/pages/NotFoundPage';
import { RootLayout } from '../views/shell/RootLayout';

/** What every route's guard and loader receive: the app's actors, services and flows. */
export interface RouterContext {
  app: AppActors;
}

/** The shell around every page; an unknown path is the Not Found page. */
export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});
