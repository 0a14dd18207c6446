import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import { externalLinks, routePaths } from '#domain/routes';
import { interfaceState } from '../../../machines/ui';
import { useApp } from '../AppContext';
import { Avatar, Button, useEscape, useOutsideClick } from '../components';
import { Logo } from './Logo';

/** Header of SPEC §2: nav toggle, logo, links, Sign In or the avatar with the user menu. */
export function Header() {
  const { session, ui } = useApp();
  const user = useSelector(session, (s) => s.context.user);
  const loggedIn = useSelector(session, (s) => s.matches('loggedIn'));
  const { navMenuOpened, userMenuOpened } = useSelector(ui, interfaceState);
  const navRef = useRef<HTMLDivElement>(null);
  const userRef = useRef<HTMLDivElement>(null);
  const close = () => ui.send({ type: 'ui.menus.close' });
  useEscape(close, navMenuOpened || userMenuOpened);
  useOutsideClick(navRef, close, navMenuOpened);
  useOutsideClick(userRef, close, userMenuOpened);

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
            onClick={() => ui.send({ type: 'ui.nav.toggle' })}
          >
            <span className="vt-burger" aria-hidden="true" />
          </button>
          {navMenuOpened && (
            <nav id="vt-nav-menu" className="vt-popover vt-nav-menu" aria-label="Main menu">
              <Link to={routePaths.Home}>Home</Link>
              <Link to={routePaths.Marketplace}>Marketplace</Link>
              <a href={externalLinks.blog} target="_blank" rel="noreferrer">
                Blog
              </a>
            </nav>
          )}
          <Link to={routePaths.Home} className="vt-header__logo" aria-label="Vitrine home">
            <Logo />
          </Link>
        </div>
        <nav className="vt-header__links" aria-label="Primary">
          <Link to={routePaths.Marketplace} activeProps={{ className: 'is-active' }}>
            Marketplace
          </Link>
          <Link to={routePaths.BrowseStorefronts} activeProps={{ className: 'is-active' }}>
            Storefronts
          </Link>
          <a href={externalLinks.blog} target="_blank" rel="noreferrer">
            Blog
          </a>
        </nav>
        <div className="vt-header__right" ref={userRef}>
          {loggedIn ? (
            <>
              <button
                type="button"
                className="vt-avatar-button"
                aria-label="Account menu"
                aria-haspopup="menu"
                aria-expanded={userMenuOpened}
                onClick={() => ui.send({ type: 'ui.user.toggle' })}
              >
                <Avatar
                  src={user?.avatarUrl ?? undefined}
                  seed={user?.walletAddress ?? user?.id ?? 'vitrine'}
                  alt={user ? `${user.firstName} ${user.lastName}`.trim() : 'Your account'}
                  size={36}
                />
              </button>
              {userMenuOpened && (
                <div className="vt-popover vt-user-menu" role="menu" aria-label="Account">
                  {user && (
                    <div className="vt-user-menu__who">
                      <strong>{`${user.firstName} ${user.lastName}`.trim()}</strong>
                      <span>@{user.username}</span>
                    </div>
                  )}
                  <Link role="menuitem" to={routePaths.PrivateProfile}>
                    Profile
                  </Link>
                  <Link role="menuitem" to={routePaths.UserSettingsPage}>
                    Settings
                  </Link>
                  <Link role="menuitem" to={routePaths.CreateStorefront}>
                    Create Storefront
                  </Link>
                  <button
                    role="menuitem"
                    type="button"
                    onClick={() => session.send({ type: 'session.logout' })}
                  >
                    Logout
                  </button>
                </div>
              )}
            </>
          ) : (
            <Button as={Link} to={routePaths.AuthConnect} variant="primary" size="sm">
              Sign In
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
