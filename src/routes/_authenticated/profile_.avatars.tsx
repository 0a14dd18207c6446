import { createFileRoute } from '@tanstack/react-router';
import { ComingSoonPage } from '../../views/pages/ComingSoonPage';

/** A page of its own, not a tab of the profile (no profile loader runs for it). */
export const Route = createFileRoute('/_authenticated/profile_/avatars')({
  component: () => <ComingSoonPage title="Avatars" />,
});
