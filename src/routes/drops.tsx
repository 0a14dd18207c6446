import { createFileRoute } from '@tanstack/react-router';
import { ComingSoonPage } from '../views/pages/ComingSoonPage';

export const Route = createFileRoute('/drops')({ component: () => <ComingSoonPage title="Drops" /> });
