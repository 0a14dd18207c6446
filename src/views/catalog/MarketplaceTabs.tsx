import { Link } from '@tanstack/react-router';

/** The marketplace's tabs: its items and its activity. */
export function MarketplaceTabs({ active }: { active: 'items' | 'activity' }) {
  return (
    <nav className="vt-tabs-nav" aria-label="Marketplace">
      <Link to="/marketplace" className={active === 'items' ? 'is-active' : ''}>
        Items
      </Link>
      <Link to="/marketplace/activity" className={active === 'activity' ? 'is-active' : ''}>
        Activity
      </Link>
    </nav>
  );
}
