import { createFileRoute } from '@tanstack/react-router';
import { staticHeads } from '#domain/pageHead';
// Home, the page most visits start on, ships with the shell: its first load is one script and its
// runtime helpers, not three more round trips for its content and carousel (about 3 kB more for a
// first load that starts elsewhere). Every other screen loads on demand (lazyRouteComponent).
import { HomePage } from '../views/pages/HomePage';
import { fixedHead } from './-head';

/**
 * Home, with its trending lists (GET home/trending, made at most once a minute on the server):
 * without them Home still stands.
 */
export const Route = createFileRoute('/')({
  head: fixedHead(staticHeads['/']),
  loader: async ({ context }) => ({ trending: await context.app.catalog.homeTrending().catch(() => null) }),
  component: HomePage,
});
