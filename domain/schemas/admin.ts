import * as v from 'valibot';
import {
  blueprintStates,
  emailStatuses,
  kycStatuses,
  payoutStates,
  reportStatuses,
  userStatuses,
} from '../enums';
import { fieldObject, lengthKey, queryInteger } from '../validation';
import { orderStatuses } from './checkout';

/**
 * Inputs of the back office (admins only). Every list takes page (≥ 1, default 1), pageSize (25,
 * 50 or 100, default 50), searchText (at most 100 characters) and, where the rows have one, a
 * status to show only.
 */
const pageSizes = ['25', '50', '100'] as const;
const paging = {
  page: v.optional(queryInteger('page', 1), '1'),
  pageSize: v.optional(v.pipe(v.picklist(pageSizes, 'INVALID_VALUE.pageSize'), v.transform(Number)), '50'),
  searchText: v.optional(
    v.pipe(
      v.string('INVALID_VALUE.searchText'),
      v.trim(),
      v.maxLength(100, lengthKey('searchText', { max: 100 })),
      v.transform((s) => s || undefined),
    ),
  ),
};

const listOf = <const S extends readonly string[]>(statuses: S) =>
  v.object({ ...paging, status: v.optional(v.picklist(statuses, 'INVALID_VALUE.status')) });

/** The statuses each admin list may be narrowed to (none for sales: every row is a sale). */
export const adminStatuses = {
  users: userStatuses,
  kyc: kycStatuses,
  blueprints: blueprintStates,
  sales: [],
  charges: orderStatuses,
  'storefront-reports': reportStatuses,
  'payout-requests': payoutStates,
  emails: emailStatuses,
  audit: [],
} as const satisfies Record<string, readonly string[]>;

/** The admin lists' queries. */
export const adminLists = {
  users: listOf(userStatuses),
  kyc: listOf(kycStatuses),
  blueprints: listOf(blueprintStates),
  sales: v.object(paging),
  charges: listOf(orderStatuses),
  'storefront-reports': listOf(reportStatuses),
  'payout-requests': listOf(payoutStates),
  emails: listOf(emailStatuses),
  audit: v.object(paging),
} as const;
export type AdminList = keyof typeof adminLists;
export interface AdminListQuery {
  page: number;
  pageSize: number;
  searchText?: string;
  status?: string;
}

export const AdminIdParams = v.object({ id: v.pipe(v.string(), v.uuid()) });

/** PATCH admin/users/{id}: block (the account cannot log in; its sessions end) or unblock. */
export const AdminUserPatch = fieldObject({
  status: v.picklist(['active', 'blocked'], 'INVALID_VALUE.status'),
});

/** PATCH admin/storefronts/{id}: suspend (disabled, and its owner cannot enable it) or lift it. */
export const AdminStorefrontPatch = fieldObject({
  suspended: v.boolean('INVALID_VALUE.suspended'),
});

/** PATCH storefront-reports/{id}: an admin resolves or dismisses a report. */
export const ReportPatch = fieldObject({
  status: v.picklist(['resolved', 'cancelled'], 'INVALID_VALUE.status'),
});

/**
 * PATCH admin/kyc/{id}: reopens a declined verification, or one in review, that the person disputes
 * through support; they may then verify again.
 */
export const AdminKycPatch = fieldObject({
  reopen: v.literal(true, 'INVALID_VALUE.reopen'),
});

/**
 * PATCH admin/emails/{id}: sends a failed email again: the same message (same Message-ID), tried
 * anew for 24 hours.
 */
export const AdminEmailPatch = fieldObject({
  resend: v.literal(true, 'INVALID_VALUE.resend'),
});
