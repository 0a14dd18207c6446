import type { AdminList } from './schemas/admin';

/**
 * The back office's lists in the order it shows them (the first is where /admin goes). Apart from
 * the rest of domain/admin.ts: the router needs this list on every page, the columns and actions
 * only the back office does.
 */
export const adminListOrder: readonly AdminList[] = [
  'payout-requests',
  'storefront-reports',
  'users',
  'kyc',
  'blueprints',
  'sales',
  'charges',
  'emails',
  'audit',
];
