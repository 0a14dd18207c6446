import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { lazy, Suspense, useRef } from 'react';
import { externalLinks } from '#domain/chrome';
import { connectSession } from '../../../machines/session';
import { connectUi } from '../../../machines/ui';
import { once } from '../../lazy';
import { useApp } from '../AppContext';
import { Button } from '../components/Button';
import { useEscape } from '../components/useEscape';
import { useOutsideClick } from '../components/useOutsideClick';
import { Logo } from './Logo';

const loadAccountMenu = once(() => import('./AccountMenu'));
const AccountMenu = lazy(() => loadAccountMenu().then((m) => ({ default: m.AccountMenu })));

/**
 * Fetches the account menu's code before the header needs it: main.tsx calls this at start when a
 * session token is stored, so the code arrives beside the first page's data and the avatar shows
 * with the first render.
 */
export const preloadAccountMenu = () => void loadAccountMenu().catch(() => {});

/** The header: menu toggle, logo, links, then Sign In, or the avatar with the user menu when logged in. */
export function Header() {
  const { session, ui } = useApp();
  const { loggedIn } = useSelector(session, (s) => connectSession(s, session.send));
  const { navMenuOpened, userMenuOpened, toggleNav, closeMenus } = useSelector(ui, (s) =>
    connectUi(s, ui.send),
  );
  const navRef = useRef<HTMLDivElement>(null);
  const userRef = useRef<HTMLDivElement>(null);
  useEscape(closeMenus, navMenuOpened || userMenuOpened);
  useOutsideClick(navRef, closeMenus, navMenuOpened);
  useOutsideClick(userRef, closeMenus, userMenuOpened);

  return (
    <header className="vt-header">
      <div className="vt-header__inner">
        <div className="vt-header__left" ref={navRef}>
          <button
            type="button"
            className="vt-icon-button"
            aria-label="Menu"
            aria-expanded={navMenuOpened}
            aria-controls="vt-nav-menu"
            onClick={toggleNav}
          >
            <span className="vt-burger" aria-hidden="true" />
          </button>
          {navMenuOpened && (
            <nav id="vt-nav-menu" className="vt-popover vt-nav-menu" aria-label="Main menu">
              <Link to="/">Home</Link>
              <Link to="/marketplace">Marketplace</Link>
              <a href={externalLinks.blog} target="_blank" rel="noreferrer">
                Blog
              </a>
            </nav>
          )}
          <Link to="/" className="vt-header__logo" aria-label="Vitrine home">
            <Logo />
          </Link>
        </div>
        <nav className="vt-header__links" aria-label="Primary">
          <Link to="/marketplace" activeProps={{ className: 'is-active' }}>
            Marketplace
          </Link>
          <Link to="/storefronts" activeProps={{ className: 'is-active' }}>
            Storefronts
          </Link>
          <a href={externalLinks.blog} target="_blank" rel="noreferrer">
            Blog
          </a>
        </nav>
        <div className="vt-header__right" ref={userRef}>
          {loggedIn ? (
            // The same size as the avatar button, so nothing moves when it comes in.
            <Suspense fallback={<span className="vt-avatar-button vt-avatar-button--pending" />}>
              <AccountMenu />
            </Suspense>
          ) : (
            <Button as={Link} to="/auth/connect" variant="primary" size="sm">
              Sign In
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
