import { lazyRouteComponent } from '@tanstack/react-router';

// Home, the page most visits start on, ships with the shell: its first load is one script and its
// runtime helpers, not three more round trips for its content and carousel (about 3 kB more for a
// first load that starts elsewhere). Every other screen loads on demand.
export { HomePage } from '../views/pages/HomePage';
export const AuthLayout = lazyRouteComponent(() => import('../views/auth/AuthLayout'), 'AuthLayout');
export const ProfilePage = lazyRouteComponent(() => import('../views/profile/ProfilePage'), 'ProfilePage');
export const SettingsLayout = lazyRouteComponent(
  () => import('../views/settings/SettingsLayout'),
  'SettingsLayout',
);
export const AccountSettings = lazyRouteComponent(
  () => import('../views/settings/AccountSettings'),
  'AccountSettings',
);
export const SecuritySettings = lazyRouteComponent(
  () => import('../views/settings/SecuritySettings'),
  'SecuritySettings',
);
export const WalletSettings = lazyRouteComponent(
  () => import('../views/settings/WalletSettings'),
  'WalletSettings',
);
export const PaymentSettings = lazyRouteComponent(
  () => import('../views/settings/PaymentSettings'),
  'PaymentSettings',
);
export const PrivacyPage = lazyRouteComponent(() => import('../views/pages/PrivacyPage'), 'PrivacyPage');
export const TermsPage = lazyRouteComponent(() => import('../views/pages/TermsPage'), 'TermsPage');
export const CreatorsPage = lazyRouteComponent(() => import('../views/pages/CreatorsPage'), 'CreatorsPage');
export const ConfirmEmailPage = lazyRouteComponent(
  () => import('../views/account/ConfirmEmailPage'),
  'ConfirmEmailPage',
);
export const UnsubscribePage = lazyRouteComponent(
  () => import('../views/account/UnsubscribePage'),
  'UnsubscribePage',
);
export const CreateStorefrontPage = lazyRouteComponent(
  () => import('../views/storefront/CreateStorefrontPage'),
  'CreateStorefrontPage',
);
export const DashboardLayout = lazyRouteComponent(
  () => import('../views/dashboard/DashboardLayout'),
  'DashboardLayout',
);
export const PreviewPanel = lazyRouteComponent(
  () => import('../views/dashboard/PreviewPanel'),
  'PreviewPanel',
);
export const AccountPanel = lazyRouteComponent(
  () => import('../views/dashboard/AccountPanel'),
  'AccountPanel',
);
export const ProductsPanel = lazyRouteComponent(
  () => import('../views/dashboard/ProductsPanel'),
  'ProductsPanel',
);
export const SalesPanel = lazyRouteComponent(() => import('../views/dashboard/SalesPanel'), 'SalesPanel');
export const HelpPanel = lazyRouteComponent(() => import('../views/dashboard/HelpPanel'), 'HelpPanel');
export const NotificationsPanel = lazyRouteComponent(
  () => import('../views/dashboard/NotificationsPanel'),
  'NotificationsPanel',
);
export const PayoutsPage = lazyRouteComponent(() => import('../views/payouts/PayoutsPage'), 'PayoutsPage');
export const AdminPage = lazyRouteComponent(() => import('../views/admin/AdminPage'), 'AdminPage');
export const NftRoute = lazyRouteComponent(() => import('../views/nft/NftRoute'), 'NftRoute');
export const MarketplacePage = lazyRouteComponent(
  () => import('../views/catalog/MarketplacePage'),
  'MarketplacePage',
);
export const BrowseStorefrontsPage = lazyRouteComponent(
  () => import('../views/catalog/BrowseStorefrontsPage'),
  'BrowseStorefrontsPage',
);
export const StorefrontPage = lazyRouteComponent(
  () => import('../views/catalog/StorefrontPage'),
  'StorefrontPage',
);
export const PurchaseCompletePage = lazyRouteComponent(
  () => import('../views/purchase/PurchaseCompletePage'),
  'PurchaseCompletePage',
);
export const CheckoutFailedPage = lazyRouteComponent(
  () => import('../views/purchase/CheckoutFailedPage'),
  'CheckoutFailedPage',
);
export const CryptoCanceledPage = lazyRouteComponent(
  () => import('../views/purchase/CryptoCanceledPage'),
  'CryptoCanceledPage',
);
