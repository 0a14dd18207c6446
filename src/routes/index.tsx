import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { staticHeads } from '#domain/pageHead';
import { fixedHead } from './-head';

/**
 * Home, with its trending lists (GET home/trending, made at most once a minute on the server):
 * without them Home still stands. Home's view loads on demand like every other screen: in the
 * shell, its content and carousel (about 3 kB) were in every first load that starts elsewhere.
 */
export const Route = createFileRoute('/')({
  head: fixedHead(staticHeads['/']),
  loader: async ({ context }) => ({ trending: await context.app.catalog.homeTrending().catch(() => null) }),
  component: lazyRouteComponent(() => import('../views/pages/HomePage'), 'HomePage'),
});
