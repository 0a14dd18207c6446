import { useSelector } from '@xstate/react';
import { useApp } from '../AppContext';
import { RouteActivityTab } from './RouteActivityTab';

/** The signed-in user's activity, on either side of each entry. */
export function ProfileActivity() {
  const { session } = useApp();
  const userId = useSelector(session, (s) => s.context.user?.id ?? null);
  return userId ? <RouteActivityTab filters={{ userId }} /> : null;
}
