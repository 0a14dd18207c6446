import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import { externalLinks } from '#domain/routes';
import { connectSession } from '../../../machines/session';
import { connectUi } from '../../../machines/ui';
import { useApp } from '../AppContext';
import { Avatar } from '../components/Avatar';
import { Button } from '../components/Button';
import { useEscape } from '../components/useEscape';
import { useOutsideClick } from '../components/useOutsideClick';
import { Logo } from './Logo';

/** The header: menu toggle, logo, links, then Sign In, or the avatar with the user menu when logged in. */
export function Header() {
  const { session, ui } = useApp();
  const { user, loggedIn, logout } = useSelector(session, (s) => connectSession(s, session.send));
  const { navMenuOpened, userMenuOpened, toggleNav, toggleUserMenu, closeMenus } = useSelector(ui, (s) =>
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
            <>
              <button
                type="button"
                className="vt-avatar-button"
                aria-label="Account menu"
                aria-haspopup="menu"
                aria-expanded={userMenuOpened}
                onClick={toggleUserMenu}
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
                  <Link role="menuitem" to="/profile/collection">
                    Profile
                  </Link>
                  <Link role="menuitem" to="/settings">
                    Settings
                  </Link>
                  <Link role="menuitem" to="/create-storefront">
                    Create Storefront
                  </Link>
                  <button role="menuitem" type="button" onClick={logout}>
                    Logout
                  </button>
                </div>
              )}
            </>
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
