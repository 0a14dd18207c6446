import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { connectUi } from '../../../machines/ui';
import { useApp } from '../AppContext';
import { Button } from '../components/Button';

/** The cookie notice, until the visitor accepts it (remembered across visits). */
export function CookieBanner() {
  const { ui } = useApp();
  const { cookiesAccepted, acceptCookies } = useSelector(ui, (s) => connectUi(s, ui.send));
  if (cookiesAccepted) return null;
  return (
    <section className="vt-cookie-banner" aria-label="Cookies">
      <p>
        Vitrine uses cookies to keep you signed in and to understand how the site is used. See our{' '}
        <Link to="/privacy">Privacy Policy</Link>.
      </p>
      <Button variant="primary" size="sm" onClick={acceptCookies}>
        Accept
      </Button>
    </section>
  );
}
