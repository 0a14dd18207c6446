import { getRouteApi, useLocation, useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { afterLoginTarget } from '#domain/routes';
import type { AuthInput } from '../../../machines/auth';
import { authEntryFrom, connectAuth } from '../../../machines/authView';
import { connectSession } from '../../../machines/session';
import { useApp } from '../AppContext';
import { AvatarEditor } from '../profile/AvatarEditor';
import { AuthScreen } from './AuthScreen';

const authRoute = getRouteApi('/auth');

/** /auth/*: one auth actor for the whole flow; the URL follows the panel of the view model. */
export function AuthLayout() {
  const { inspect, session } = useApp();
  const { machine, avatarUpload, walletAvailable } = authRoute.useLoaderData();
  const user = useSelector(session, (s) => connectSession(s, session.send).user);
  const signedOutReason = useSelector(session, (s) => connectSession(s, session.send).signedOutReason);
  const location = useLocation();
  const navigate = useNavigate();
  const [input] = useState<AuthInput>(() => ({
    ...authEntryFrom(location.pathname, location.search as Record<string, unknown>),
    walletAvailable,
  }));
  const actor = useActorRef(machine, { input, inspect });
  const path = useSelector(actor, (s) => connectAuth(s, actor.send).path);

  useEffect(() => {
    if (path === null) {
      const target = afterLoginTarget(session.getSnapshot().context.loginRedirect);
      session.send({ type: 'session.redirect.clear' });
      navigate({ href: target, replace: true });
      return;
    }
    if (path !== window.location.pathname) navigate({ to: path, replace: true });
  }, [path, navigate, session]);

  // The reset token stays in the machine only: the address bar and the history forget it.
  useEffect(() => {
    if (input.resetToken) navigate({ to: '/auth/reset-password', replace: true });
  }, [input.resetToken, navigate]);

  return (
    <AuthScreen
      actor={actor}
      notice={signedOutReason}
      avatarEditor={user ? <AvatarEditor machine={avatarUpload} user={user} size={96} /> : undefined}
    />
  );
}
