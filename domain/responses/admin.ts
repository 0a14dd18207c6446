import * as v from 'valibot';
import { emailStatuses, kycStatuses, reportStatuses, userStatuses } from '../enums';
import { Count } from './common';

/** The back office's answers. */

/** One page of a back-office list: rows of the list's own columns, each with its id. */
export const AdminPage = v.object({
  results: v.array(v.looseObject({ id: v.string() })),
  total: Count,
  page: Count,
  pageSize: Count,
});
export type AdminPage = v.InferOutput<typeof AdminPage>;

export const AdminUserAnswer = v.object({ id: v.string(), status: v.picklist(userStatuses) });
export const AdminStorefrontAnswer = v.object({
  id: v.string(),
  enabled: v.boolean(),
  suspended: v.boolean(),
});
export const AdminKycAnswer = v.object({ id: v.string(), status: v.picklist(kycStatuses) });
export const AdminEmailAnswer = v.object({ id: v.string(), status: v.picklist(emailStatuses) });
export const ReportAnswer = v.object({ id: v.string(), status: v.picklist(reportStatuses) });
