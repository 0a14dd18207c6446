import { getRouteApi, useLocation, useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { afterLoginTarget } from '#domain/routes';
import type { AuthInput } from '../../../machines/auth';
import { useApp } from '../AppContext';
import { AvatarEditor } from '../profile/AvatarEditor';
import { AuthScreen } from './AuthScreen';
import { authPathFor } from './paths';

const authRoute = getRouteApi('/auth');

/** /auth/*: one auth actor for the whole flow; the URL follows the machine's step. */
export function AuthLayout() {
  const { inspect, session } = useApp();
  const { machine, avatarUpload, walletAvailable } = authRoute.useLoaderData();
  const user = useSelector(session, (s) => s.context.user);
  const location = useLocation();
  const navigate = useNavigate();
  const [input] = useState<AuthInput>(() => ({
    ...entryFrom(location.pathname, location.search as Record<string, unknown>),
    walletAvailable,
  }));
  const actor = useActorRef(machine, { input, inspect });
  const step = useSelector(actor, (s) => s.value as string);

  useEffect(() => {
    if (step === 'finished') {
      const target = afterLoginTarget(session.getSnapshot().context.loginRedirect);
      session.send({ type: 'session.redirect.clear' });
      navigate({ href: target, replace: true });
      return;
    }
    const path = authPathFor(step);
    if (path !== window.location.pathname) navigate({ href: path, replace: true });
  }, [step, navigate, session]);

  // The reset token stays in the machine only: the address bar and the history forget it.
  useEffect(() => {
    if (input.resetToken) navigate({ href: '/auth/reset-password', replace: true });
  }, [input.resetToken, navigate]);

  return (
    <AuthScreen
      actor={actor}
      avatarEditor={user ? <AvatarEditor machine={avatarUpload} user={user} size={96} /> : undefined}
    />
  );
}

function entryFrom(pathname: string, search: Record<string, unknown>): AuthInput {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  if (pathname.startsWith('/auth/reset-password'))
    return { entry: 'reset', resetToken: str(search.t) ?? null };
  if (pathname.startsWith('/auth/forgot-password')) return { entry: 'forgot', email: str(search.email) };
  return { entry: 'connect' };
}
