import { getRouteApi, Link, Outlet, useLocation } from '@tanstack/react-router';
import { Avatar } from '../components';
import './dashboard.css';

const route = getRouteApi('/_authenticated/dashboard');

const menu = [
  { label: 'Preview', to: '/dashboard/preview' },
  { label: 'Account', to: '/dashboard/account' },
  { label: 'Products', to: '/dashboard/products' },
  { label: 'Sales', to: '/dashboard/sales' },
  { label: 'Notifications', to: '/dashboard/notifications' },
  { label: 'Help', to: '/dashboard/help' },
] as const;

/**
 * The creator dashboard: a menu of preview, account, products, sales, notifications, help and the
 * way back home; the shell's header and footer are hidden on these paths.
 */
export function DashboardLayout() {
  const { storefront } = route.useLoaderData();
  const pathname = useLocation({ select: (l) => l.pathname });
  return (
    <div className="vt-dashboard">
      <aside className="vt-dashboard__side">
        <div className="vt-dashboard__brand">
          {storefront ? (
            <>
              <Avatar
                src={storefront.logoUrl ?? undefined}
                seed={storefront.id}
                alt={`${storefront.name} logo`}
                size={40}
              />
              <div>
                <strong>{storefront.name}</strong>
                <span className="vt-muted">{storefront.enabled ? 'Live' : 'Disabled'}</span>
              </div>
            </>
          ) : (
            <strong>Dashboard</strong>
          )}
        </div>
        <nav aria-label="Dashboard" className="vt-dashboard__menu">
          {menu.map((item) => (
            <Link
              key={item.to}
              to={item.to}
              className={pathname.startsWith(item.to) ? 'is-active' : ''}
              aria-current={pathname.startsWith(item.to) ? 'page' : undefined}
            >
              {item.label}
            </Link>
          ))}
          <Link to="/payouts">Payouts</Link>
          <Link to="/" className="vt-dashboard__exit">
            Exit to home
          </Link>
        </nav>
      </aside>
      {/* Inside the shell's one `main` landmark: a page has exactly one. */}
      <div className="vt-dashboard__main">
        <Outlet />
      </div>
    </div>
  );
}
