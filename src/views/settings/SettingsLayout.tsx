import { Link, Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { SETTINGS_BREAKPOINT_PX, timings } from '#domain/constants';
import { useDebouncedResize } from '../components';

const tabs = [
  { label: 'Account', to: '/settings/account' },
  { label: 'Security', to: '/settings/security' },
  { label: 'Wallet', to: '/settings/wallet' },
  { label: 'Payment', to: '/settings/payment' },
] as const;

const narrow = () => typeof window !== 'undefined' && window.innerWidth <= SETTINGS_BREAKPOINT_PX;

/** Settings: tabs Account, Security, Wallet, Payment; at 680 px or less the tabs are buttons. */
export function SettingsLayout() {
  const pathname = useLocation({ select: (l) => l.pathname });
  const navigate = useNavigate();
  const [isNarrow, setNarrow] = useState(narrow);
  useDebouncedResize(() => setNarrow(narrow()), timings.resizeDebounceMs);

  return (
    <section className="vt-page vt-settings">
      <h1 className="vt-page__title">Settings</h1>
      <nav
        className={`vt-settings__tabs${isNarrow ? ' vt-settings__tabs--buttons' : ''}`}
        aria-label="Settings"
      >
        {tabs.map((t) =>
          isNarrow ? (
            <button
              key={t.to}
              type="button"
              className={`vt-button vt-button--${pathname === t.to ? 'primary' : 'secondary'} vt-button--sm`}
              aria-current={pathname === t.to ? 'page' : undefined}
              onClick={() => navigate({ to: t.to })}
            >
              {t.label}
            </button>
          ) : (
            <Link key={t.to} to={t.to} className={pathname === t.to ? 'is-active' : ''}>
              {t.label}
            </Link>
          ),
        )}
      </nav>
      <div className="vt-settings__panel">
        <Outlet />
      </div>
    </section>
  );
}
