import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { connectSession } from '../../../machines/session';
import { connectUi } from '../../../machines/ui';
import { useApp } from '../AppContext';
import { Avatar } from '../components/Avatar';

/**
 * The signed-in user's avatar in the header and the user menu it opens. Only a logged-in header
 * shows it, so its code (with the avatar's identicon) loads apart from the first page's: see
 * preloadAccountMenu in Header.tsx.
 */
export function AccountMenu() {
  const { session, ui } = useApp();
  const { user, logout } = useSelector(session, (s) => connectSession(s, session.send));
  const { userMenuOpened, toggleUserMenu } = useSelector(ui, (s) => connectUi(s, ui.send));
  return (
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
  );
}
