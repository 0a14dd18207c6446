import { Outlet, useLocation } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { Suspense, useEffect } from 'react';
import { isChromelessPath } from '#domain/chrome';
import { connectSession } from '../../../machines/session';
import { connectUi } from '../../../machines/ui';
import { useApp } from '../AppContext';
// The shell (in every page's first load) imports each component's own file, never the components
// barrel, which would bring every component along; the components' styles load with the shell.
import '../components/components.css';
import { Button } from '../components/Button';
import { ToastList } from '../components/ToastList';
import { CookieBanner } from './CookieBanner';
import { Footer } from './Footer';
import { Header } from './Header';
// The sign-in modal's code loads the first time it opens, or before (./signInModal.ts).
import { SignInModal } from './signInModal';

/**
 * The shell: header, menus, footer, sign-in modal, toasts, the account problem banner; the header and
 * footer are hidden on the dashboard and the storefront wizard.
 */
export function RootLayout() {
  const { session, ui } = useApp();
  const pathname = useLocation({ select: (l) => l.pathname });
  const { toasts, showSignup, dismissToast } = useSelector(ui, (s) => connectUi(s, ui.send));
  const { profileProblem, retryProfile } = useSelector(session, (s) => connectSession(s, session.send));
  const chromeless = isChromelessPath(pathname);

  // A route change closes the menus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not an input.
  useEffect(() => {
    ui.send({ type: 'ui.menus.close' });
  }, [pathname, ui]);

  return (
    <div className="vt-app">
      <a className="vt-skip-link" href="#main">
        Skip to content
      </a>
      {!chromeless && <Header />}
      {profileProblem && (
        <div className="vt-shell-alert" role="alert">
          <p>{profileProblem.text}</p>
          {profileProblem.canRetry && (
            <Button size="sm" variant="secondary" onClick={retryProfile}>
              Retry
            </Button>
          )}
        </div>
      )}
      <main id="main" className="vt-main">
        <Outlet />
      </main>
      {!chromeless && <Footer />}
      {showSignup && (
        <Suspense fallback={null}>
          <SignInModal />
        </Suspense>
      )}
      <CookieBanner />
      {/* At the top, below the header: away from the cookie bar and dialogs' buttons at the bottom. */}
      <ToastList toasts={toasts} onDismiss={dismissToast} position="top-right" />
    </div>
  );
}
