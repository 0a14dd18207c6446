import { Link, useLocation } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { routePaths } from '../../domain/routes';
import { useApp } from '../AppContext';
import { Avatar } from '../components';

/** The private profile: avatar, full name, @username and the collection tabs. */
export function ProfilePage() {
  const { session } = useApp();
  const user = useSelector(session, (s) => s.context.user);
  const pathname = useLocation({ select: (l) => l.pathname });
  if (!user) return <section className="vt-page" aria-busy="true" />;
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  return (
    <section className="vt-page vt-profile">
      <header className="vt-profile__header">
        <Avatar
          src={user.avatarUrl ?? undefined}
          seed={user.walletAddress ?? user.id}
          alt={fullName}
          size={112}
        />
        <div>
          <h1 className="vt-page__title">{fullName}</h1>
          <p className="vt-muted">@{user.username}</p>
        </div>
        <div className="vt-actions">
          <Link className="vt-button vt-button--secondary" to={routePaths.Payouts}>
            Payouts
          </Link>
          <Link className="vt-button vt-button--primary" to={routePaths.CreateStorefront}>
            Create storefront
          </Link>
        </div>
      </header>
      <nav className="vt-tabs-nav" aria-label="Collection">
        <Link to="/profile/collection" className={pathname.endsWith('/collection') ? 'is-active' : ''}>
          Collectibles
        </Link>
        <Link to="/profile/for-sale" className={pathname.endsWith('/for-sale') ? 'is-active' : ''}>
          For sale
        </Link>
      </nav>
      <div className="vt-empty">
        <h2>No collectibles yet</h2>
        <p className="vt-muted">Items you buy or claim are minted to your wallet and show up here.</p>
        <Link className="vt-button vt-button--primary" to={routePaths.Marketplace}>
          Go to the marketplace
        </Link>
      </div>
    </section>
  );
}
