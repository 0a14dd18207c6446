import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { authMachine } from '../../../machines/auth';
import { type AuthView, connectAuth } from '../../../machines/authView';
import { ConnectStep, WalletEmailStep } from './steps/ConnectSteps';
import {
  ForgotSentStep,
  ForgotStep,
  LoginStep,
  ResetDoneStep,
  ResetInvalidStep,
  ResetStep,
} from './steps/PasswordSteps';
import { NameStep, SignupStep, WelcomeStep } from './steps/SignupSteps';

type AuthActor = ActorRefFrom<typeof authMachine>;

/**
 * Renders the auth panel of the machine's view model; every form sends its values and the machine
 * checks them. `avatarEditor` takes the welcome step's avatar (the upload has its own machine);
 * `notice` says why the user is asked to sign in again (their session ended).
 */
export function AuthScreen({
  actor,
  avatarEditor,
  notice,
}: {
  actor: AuthActor;
  avatarEditor?: ReactNode;
  notice?: string | null;
}) {
  const view = useSelector(actor, (s) => connectAuth(s, actor.send));
  return (
    <div className="vt-auth" data-panel={view.panel}>
      <div
        key={view.path ?? 'finished'}
        className={`vt-auth__card${view.swipe ? ` vt-swipe-${view.swipe}` : ''}`}
      >
        {notice && (
          <p className="vt-auth__notice" role="status">
            {notice}
          </p>
        )}
        <Panel view={view} avatarEditor={avatarEditor} />
      </div>
    </div>
  );
}

function Panel({ view, avatarEditor }: { view: AuthView; avatarEditor: ReactNode }) {
  switch (view.panel) {
    case 'connect':
      return <ConnectStep view={view} />;
    case 'walletEmail':
      return <WalletEmailStep view={view} />;
    case 'signup':
      return <SignupStep view={view} />;
    case 'name':
      return <NameStep view={view} />;
    case 'welcome':
      return <WelcomeStep view={view} avatarEditor={avatarEditor} />;
    case 'login':
      return <LoginStep view={view} />;
    case 'forgot':
      return <ForgotStep view={view} />;
    case 'forgotSent':
      return <ForgotSentStep view={view} />;
    case 'reset':
      return <ResetStep view={view} />;
    case 'resetDone':
      return <ResetDoneStep view={view} />;
    case 'resetInvalid':
      return <ResetInvalidStep view={view} />;
    case 'finished':
      return <p className="vt-muted">Signing you in…</p>;
  }
}
