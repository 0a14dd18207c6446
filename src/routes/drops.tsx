import { createFileRoute } from '@tanstack/react-router';
import { staticHeads } from '#domain/pageHead';
import { ComingSoonPage } from '../views/pages/ComingSoonPage';
import { fixedHead } from './-head';

export const Route = createFileRoute('/drops')({
  head: fixedHead(staticHeads['/drops']),
  component: () => <ComingSoonPage title="Drops" />,
});
