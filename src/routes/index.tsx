import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { staticHeads } from '#domain/pageHead';
import { fixedHead } from './-head';

// Home loads on demand like every other screen: in the shell, its content and carousel (about 3 kB)
// were in every first load that starts elsewhere.
export const Route = createFileRoute('/')({
  head: fixedHead(staticHeads['/']),
  component: lazyRouteComponent(() => import('../views/pages/HomePage'), 'HomePage'),
});
