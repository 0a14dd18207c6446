import type { PayoutState } from './enums';
import { formatUsd } from './money';
import { payoutMoveBy, payoutMoveLabels, payoutMoves } from './payouts';
import type { AdminList } from './schemas/admin';

/**
 * What the back office shows of each list: its title, its columns (each row's fields as text) and
 * the actions a row offers. The lists are those of the admin API (GET admin/{list}).
 */
export type AdminRow = Record<string, unknown> & { id: string };

type Format = 'text' | 'money' | 'date' | 'change';
export interface AdminColumn {
  key: string;
  label: string;
  format?: Format;
}

/** The routes (domain/contract.ts) whose PATCH performs a back-office action. */
export type AdminActionRoute =
  | '/payout-requests/{id}'
  | '/storefront-reports/{id}'
  | '/admin/storefronts/{id}'
  | '/admin/kyc/{id}'
  | '/admin/users/{id}'
  | '/admin/emails/{id}';

export interface AdminAction {
  label: string;
  /** The route, the id it names and the PATCH body that performs it. */
  route: AdminActionRoute;
  id: string;
  body: Record<string, unknown>;
  /** Ends something for good (deny, block, suspend): shown as a warning. */
  danger?: boolean;
}

export { adminListOrder } from './adminLists';

export const adminTitles: Record<AdminList, string> = {
  'payout-requests': 'Payout requests',
  'storefront-reports': 'Storefront reports',
  users: 'Users',
  kyc: 'KYC',
  blueprints: 'Blueprints',
  sales: 'Sales',
  charges: 'Charges',
  emails: 'Emails',
  audit: 'Audit log',
};

export const adminColumns: Record<AdminList, readonly AdminColumn[]> = {
  'payout-requests': [
    { key: 'storefront', label: 'Storefront' },
    { key: 'owner', label: 'Owner' },
    { key: 'amount', label: 'Amount', format: 'money' },
    { key: 'state', label: 'State' },
    { key: 'createdAt', label: 'Requested', format: 'date' },
  ],
  'storefront-reports': [
    { key: 'storefront', label: 'Storefront' },
    { key: 'reason', label: 'Reason' },
    { key: 'description', label: 'Description' },
    { key: 'reporter', label: 'Reported by' },
    { key: 'status', label: 'Status' },
    { key: 'createdAt', label: 'Reported', format: 'date' },
  ],
  users: [
    { key: 'email', label: 'Email' },
    { key: 'username', label: 'Username' },
    { key: 'role', label: 'Role' },
    { key: 'status', label: 'Status' },
    { key: 'kycStatus', label: 'KYC' },
    { key: 'createdAt', label: 'Joined', format: 'date' },
  ],
  kyc: [
    { key: 'email', label: 'Email' },
    { key: 'firstName', label: 'First name' },
    { key: 'lastName', label: 'Last name' },
    { key: 'status', label: 'Status' },
    { key: 'code', label: 'Code' },
    { key: 'reason', label: 'Reason' },
    { key: 'updatedAt', label: 'Updated', format: 'date' },
  ],
  blueprints: [
    { key: 'title', label: 'Title' },
    { key: 'storefront', label: 'Storefront' },
    { key: 'state', label: 'State' },
    { key: 'price', label: 'Price', format: 'money' },
    { key: 'quantityAvailable', label: 'Available' },
    { key: 'quantity', label: 'Editions' },
  ],
  sales: [
    { key: 'title', label: 'Item' },
    { key: 'storefront', label: 'Storefront' },
    { key: 'buyer', label: 'Buyer' },
    { key: 'method', label: 'Paid with' },
    { key: 'amount', label: 'Amount', format: 'money' },
    { key: 'createdAt', label: 'Date', format: 'date' },
  ],
  charges: [
    { key: 'title', label: 'Item' },
    { key: 'buyer', label: 'Buyer' },
    { key: 'method', label: 'Method' },
    { key: 'status', label: 'Status' },
    { key: 'amount', label: 'Amount', format: 'money' },
    { key: 'failureCode', label: 'Failure' },
    { key: 'createdAt', label: 'Date', format: 'date' },
  ],
  emails: [
    { key: 'to', label: 'Recipient' },
    { key: 'subject', label: 'Subject' },
    { key: 'status', label: 'Status' },
    { key: 'createdAt', label: 'Written', format: 'date' },
    { key: 'attemptedAt', label: 'Last attempt', format: 'date' },
    { key: 'attempts', label: 'Attempts' },
    { key: 'lastError', label: 'Last error' },
  ],
  audit: [
    { key: 'admin', label: 'Admin' },
    { key: 'action', label: 'Action' },
    { key: 'subject', label: 'On' },
    { key: 'change', label: 'Change', format: 'change' },
    { key: 'createdAt', label: 'Date', format: 'date' },
  ],
};

const dateTime = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** A value as a person reads it: the payout state the API names `payed` is "paid". */
export const readable = (value: unknown) => String(value).replace(/\bpayed\b/g, 'paid');

/**
 * A cell's text: money in dollars, dates in UTC, an audited change as `field: before → after` for
 * each field the action changed, nothing as an em dash; "paid", never "payed".
 */
export function adminCell(row: AdminRow, column: AdminColumn): string {
  if (column.format === 'change') {
    const before = (row.before ?? {}) as Record<string, unknown>;
    const after = (row.after ?? {}) as Record<string, unknown>;
    const changed = Object.keys(after).filter((key) => before[key] !== after[key]);
    return (
      changed.map((key) => `${key}: ${readable(before[key] ?? '—')} → ${readable(after[key])}`).join(', ') ||
      '—'
    );
  }
  const value = row[column.key];
  if (value === null || value === undefined || value === '') return '—';
  if (column.format === 'money' && typeof value === 'number') return formatUsd(value);
  if (column.format === 'date') return `${dateTime.format(new Date(value as string))} UTC`;
  return readable(value);
}

/**
 * The actions a row offers: payout moves, report outcomes and storefront suspension, blocking,
 * reopening a declined identity verification or one stuck in review, sending a failed email again.
 */
export function adminActions(list: AdminList, row: AdminRow): AdminAction[] {
  switch (list) {
    case 'payout-requests': {
      const state = row.state as PayoutState;
      return payoutMoves[state]
        .filter((to) => payoutMoveBy(to) === 'admin')
        .map((to) => ({
          label: payoutMoveLabels[to]!,
          route: '/payout-requests/{id}',
          id: row.id,
          body: { state: to },
          danger: to === 'denied' || to === 'failed',
        }));
    }
    case 'storefront-reports': {
      const actions: AdminAction[] =
        row.status === 'created'
          ? [
              {
                label: 'Resolve',
                route: '/storefront-reports/{id}',
                id: row.id,
                body: { status: 'resolved' },
              },
              {
                label: 'Dismiss',
                route: '/storefront-reports/{id}',
                id: row.id,
                body: { status: 'cancelled' },
              },
            ]
          : [];
      actions.push(
        row.storefrontSuspended
          ? {
              label: 'Lift suspension',
              route: '/admin/storefronts/{id}',
              id: String(row.storefrontId),
              body: { suspended: false },
            }
          : {
              label: 'Suspend storefront',
              route: '/admin/storefronts/{id}',
              id: String(row.storefrontId),
              body: { suspended: true },
              danger: true,
            },
      );
      return actions;
    }
    case 'kyc':
      return row.status === 'declined' || row.status === 'review'
        ? [{ label: 'Reopen', route: '/admin/kyc/{id}', id: row.id, body: { reopen: true } }]
        : [];
    case 'users':
      return row.status === 'blocked'
        ? [{ label: 'Unblock', route: '/admin/users/{id}', id: row.id, body: { status: 'active' } }]
        : row.status === 'active'
          ? [
              {
                label: 'Block',
                route: '/admin/users/{id}',
                id: row.id,
                body: { status: 'blocked' },
                danger: true,
              },
            ]
          : [];
    case 'emails':
      return row.status === 'failed'
        ? [{ label: 'Resend', route: '/admin/emails/{id}', id: row.id, body: { resend: true } }]
        : [];
    default:
      return [];
  }
}
