import * as v from 'valibot';
import { payoutStates } from '../enums';
import { PAYOUT_MINIMUM, SALES_PAGE_SIZE_DEFAULT, salesPageSizes } from '../sales';
import type { ChartPeriod } from '../salesChart';
import { fieldObject, queryInteger } from '../validation';

/**
 * Inputs of the payout-requests API and of the sales dashboard (GET sales, the ledger CSV). Amounts
 * are integer cents; a payout request is at least PAYOUT_MINIMUM (PAYOUT_MINIMUM.amount) and at
 * most the available funds (INSUFFICIENT_FUNDS.amount, checked by the server against the ledger and
 * by the form against the funds it was shown).
 */

const uuid = (field: string) => v.pipe(v.string(`INVALID_VALUE.${field}`), v.uuid(`INVALID_VALUE.${field}`));
const pageSize = v.pipe(
  v.picklist(
    salesPageSizes.map((n) => String(n) as `${(typeof salesPageSizes)[number]}`),
    'INVALID_VALUE.pageSize',
  ),
  v.transform((s) => Number(s) as (typeof salesPageSizes)[number]),
);
const paging = {
  page: v.optional(queryInteger('page', 1), '1'),
  pageSize: v.optional(pageSize, String(SALES_PAGE_SIZE_DEFAULT) as '50'),
};

/** GET sales: a storefront's sales, newest first; page ≥ 1, pageSize 25, 50 or 100 (default 50). */
export const SalesListQuery = v.object({
  storefrontId: uuid('storefrontId'),
  /** Only the sales of this blueprint (the products list's "Sales" action). */
  blueprintId: v.optional(uuid('blueprintId')),
  ...paging,
});
export type SalesListQuery = v.InferOutput<typeof SalesListQuery>;

/** GET sales/chart: the storefront's sales and funds over the last 7, 30, 90 or 365 days, by day or week. */
export const SalesChartQuery = v.object({
  storefrontId: uuid('storefrontId'),
  days: v.optional(
    v.pipe(
      v.picklist(['7', '30', '90', '365'], 'INVALID_VALUE.days'),
      v.transform((d) => Number(d) as ChartPeriod),
    ),
    '30',
  ),
  bucket: v.optional(v.picklist(['day', 'week'], 'INVALID_VALUE.bucket'), 'day'),
});
export type SalesChartQuery = v.InferOutput<typeof SalesChartQuery>;

/** GET sales/ledger.csv: every sale of a storefront with its payout ledger. */
export const LedgerQuery = v.object({ storefrontId: uuid('storefrontId') });

/** GET payout-requests: the caller's storefront's requests, newest first (userId: only one's own). */
export const PayoutListQuery = v.object({ userId: v.optional(uuid('userId')), ...paging });
export type PayoutListQuery = v.InferOutput<typeof PayoutListQuery>;

export const PayoutIdParams = v.object({ id: uuid('id') });

/** An amount of cents to pay out: a whole number of cents, at least the minimum payout. */
const amountAtLeastMinimum = v.pipe(
  v.number('INVALID_VALUE.amount'),
  v.safeInteger('INVALID_VALUE.amount'),
  v.minValue(PAYOUT_MINIMUM, 'PAYOUT_MINIMUM.amount'),
);

/** POST payout-requests. */
export const PayoutCreateInput = fieldObject({ amount: amountAtLeastMinimum });
export type PayoutCreateInput = v.InferOutput<typeof PayoutCreateInput>;

/** The payout form: the same rule, and at most the funds available. */
export const payoutFormInput = (available: number) =>
  fieldObject({
    amount: v.pipe(amountAtLeastMinimum, v.maxValue(available, 'INSUFFICIENT_FUNDS.amount')),
  });

/**
 * PATCH payout-requests/{id}: the state to move to. The owner may only cancel; the other moves are
 * an admin's (domain/payouts.ts).
 */
export const PayoutPatchInput = fieldObject({
  state: v.picklist(payoutStates, 'INVALID_VALUE.state'),
});
export type PayoutPatchInput = v.InferOutput<typeof PayoutPatchInput>;
