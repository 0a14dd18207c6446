import { createRootRouteWithContext } from '@tanstack/react-router';
import { defaultHead, notFoundHead } from '#domain/pageHead';
import type { AppActors } from '../views/AppContext';
import { NotFoundPage } from '../views/pages/NotFoundPage';
import { DocumentHead } from '../views/shell/DocumentHead';
import { RootLayout } from '../views/shell/RootLayout';
import { headTags } from './-head';

/**
 * What every route's guard, loader and head receive: the app's actors, services and flows, and the
 * canonical origin (the server's PUBLIC_URL) that the head's links name.
 */
export interface RouterContext {
  app: AppActors;
  origin: string;
}

/**
 * The shell around every page; an unknown path is the Not Found page. Its head is every page's
 * default (a page's own replaces it): a page that failed to load or is not found is left out of
 * search engines.
 */
export const Route = createRootRouteWithContext<RouterContext>()({
  head: ({ match, matches }) =>
    headTags(
      match.context.origin,
      matches.some((m) => m.status === 'notFound' || m.status === 'error') || match._notFound
        ? notFoundHead
        : defaultHead,
    ),
  component: () => (
    <>
      <DocumentHead />
      <RootLayout />
    </>
  ),
  notFoundComponent: NotFoundPage,
});
