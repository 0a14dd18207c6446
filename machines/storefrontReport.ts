import * as v from 'valibot';
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import type { ReportReason } from '#domain/enums';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import { REPORT_DESCRIPTION_MAX, StorefrontReportInput } from '#domain/schemas/catalog';
import { fieldErrors } from '#domain/validation';

/**
 * Report a storefront: a signed-in person picks a reason (required) and may add a description (at
 * most 200 characters), and the product API records the report. The form is checked with the
 * server's own schema, so the messages are the same.
 *
 * The flow ends with its output: `{ reported: true }` once the person closes the thank-you panel,
 * `{ reported: false }` when they close it before.
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
export interface StorefrontReportOutput {
  reported: boolean;
}

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
    output: {} as StorefrontReportOutput,
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
  output: ({ event }) => event.output as StorefrontReportOutput,
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
    /** Sent: the thank-you panel stays until the person closes it. */
    submitted: { on: { 'report.close': 'done' } },
    done: { type: 'final', output: { reported: true } },
    closed: { type: 'final', output: { reported: false } },
  },
});

export type StorefrontReportPanel = 'form' | 'submitted' | 'done';

export interface StorefrontReportView {
  panel: StorefrontReportPanel;
  busy: boolean;
  reason: '' | ReportReason;
  description: string;
  reasonError: string | null;
  descriptionError: string | null;
  /** An error of neither field (the server's, the network's). */
  error: string | null;
  /** The live counter under the description ("12/200"), and whether it is over the limit. */
  counter: string;
  overLimit: boolean;
  status: string | null;
  canClose: boolean;
  canSubmit: boolean;
  changeReason: (value: ReportReason) => void;
  changeDescription: (value: string) => void;
  submit: () => void;
  close: () => void;
}

export function connectStorefrontReport(
  snapshot: SnapshotFrom<typeof storefrontReportMachine>,
  send: (event: StorefrontReportEvent) => void,
): StorefrontReportView {
  const { context } = snapshot;
  const { error } = context;
  const busy = snapshot.hasTag('busy');
  const on = (field: string) => (error?.field === field ? errorMessage(error) : null);
  const length = context.description.length;
  return {
    panel: snapshot.status === 'done' ? 'done' : snapshot.matches('submitted') ? 'submitted' : 'form',
    busy,
    reason: context.reason,
    description: context.description,
    reasonError: on('reason'),
    descriptionError: on('description'),
    error: error && error.field !== 'reason' && error.field !== 'description' ? errorMessage(error) : null,
    counter: `${length}/${REPORT_DESCRIPTION_MAX}`,
    overLimit: length > REPORT_DESCRIPTION_MAX,
    status: busy ? 'Sending your report…' : null,
    canClose: snapshot.can({ type: 'report.close' }),
    canSubmit: snapshot.can({ type: 'report.submit' }),
    changeReason: (value) => send({ type: 'report.reason.change', value }),
    changeDescription: (value) => send({ type: 'report.description.change', value }),
    submit: () => send({ type: 'report.submit' }),
    close: () => send({ type: 'report.close' }),
  };
}
