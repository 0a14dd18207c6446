import * as v from 'valibot';
import { assign, fromPromise, setup } from 'xstate';
import type { ReportReason } from '#domain/enums';
import { type ApiErrorBody, toErrorBody } from '#domain/errors';
import { StorefrontReportInput } from '#domain/schemas/catalog';
import { fieldErrors } from '#domain/validation';

/**
 * Report a storefront (SPEC "A report modal lets users report a storefront"): a signed-in person picks
 * a reason (required) and may add a description (at most 200 characters), and the product API records
 * the report. The form is checked with the server's own schema, so the messages are the same.
 */
export interface StorefrontReportMachineInput {
  storefrontId: string;
}
export interface StorefrontReportContext extends StorefrontReportMachineInput {
  reason: '' | ReportReason;
  description: string;
  error: ApiErrorBody | null;
}
export type StorefrontReportEvent =
  | { type: 'report.reason.change'; value: ReportReason }
  | { type: 'report.description.change'; value: string }
  | { type: 'report.submit' }
  | { type: 'report.close' };

/** The body of POST storefront-reports. */
export type SubmitReportInput = StorefrontReportInput;

const reportFields = ({ storefrontId, reason, description }: StorefrontReportContext) => ({
  storefrontId,
  reason,
  description,
});
const parseReport = (context: StorefrontReportContext) =>
  v.safeParse(StorefrontReportInput, reportFields(context));

export const storefrontReportMachine = setup({
  types: {
    context: {} as StorefrontReportContext,
    events: {} as StorefrontReportEvent,
    input: {} as StorefrontReportMachineInput,
    tags: {} as 'busy',
  },
  actors: {
    /** POST storefront-reports → 201. */
    submitReport: fromPromise<unknown, SubmitReportInput>(async () => {
      throw new Error('submitReport not provided');
    }),
  },
  guards: {
    reportValid: ({ context }) => parseReport(context).success,
  },
  actions: {
    /** Tells the page the report was sent (toast, analytics). */
    announceReported: () => {},
  },
}).createMachine({
  id: 'storefrontReport',
  context: ({ input }) => ({ ...input, reason: '', description: '', error: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'report.reason.change': { actions: assign({ reason: ({ event }) => event.value, error: null }) },
        'report.description.change': {
          actions: assign({ description: ({ event }) => event.value, error: null }),
        },
        'report.submit': [
          { guard: 'reportValid', target: 'submitting', actions: assign({ error: null }) },
          {
            actions: assign({
              error: ({ context }) => {
                const result = parseReport(context);
                return result.success ? null : (Object.values(fieldErrors(result.issues))[0] ?? null);
              },
            }),
          },
        ],
        'report.close': 'closed',
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'submitReport',
        src: 'submitReport',
        // The parsed body: the description trimmed, as the server stores it.
        input: ({ context }) => v.parse(StorefrontReportInput, reportFields(context)),
        onDone: { target: 'submitted', actions: 'announceReported' },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    submitted: { type: 'final' },
    closed: { type: 'final' },
  },
});
