import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { routePaths } from '#domain/routes';
import { interfaceState } from '../../../machines/ui';
import { useApp } from '../AppContext';
import { Button } from '../components';

/** Cookie notice until accepted (interface state cookiesAccepted). */
export function CookieBanner() {
  const { ui } = useApp();
  const accepted = useSelector(ui, (s) => interfaceState(s).cookiesAccepted);
  if (accepted) return null;
  return (
    <section className="vt-cookie-banner" aria-label="Cookies">
      <p>
        Vitrine uses cookies to keep you signed in and to understand how the site is used. See our{' '}
        <Link to={routePaths.PrivacyPolicyPage}>Privacy Policy</Link>.
      </p>
      <Button variant="primary" size="sm" onClick={() => ui.send({ type: 'ui.cookies.accept' })}>
        Accept
      </Button>
    </section>
  );
}
