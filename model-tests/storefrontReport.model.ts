import { storefrontReportMachine } from '../machines/storefrontReport';
import type { MachineModel } from './harness';

export const REPORT_STOREFRONT_ID = '6f1c2a4e-8d0b-4c3a-9e57-2b1d0f9a7c11';
export const LONG_DESCRIPTION = 'x'.repeat(201);

export const storefrontReportModel: MachineModel<typeof storefrontReportMachine> = {
  machine: storefrontReportMachine,
  fakes: ['submitReport'],
  scenarios: [{ name: 'a signed-in collector', input: { storefrontId: REPORT_STOREFRONT_ID } }],
  events: () => [
    { type: 'report.reason.change', value: 'offensive' },
    { type: 'report.reason.change', value: 'other' },
    { type: 'report.description.change', value: 'Sells copies of my artwork' },
    { type: 'report.description.change', value: LONG_DESCRIPTION },
    { type: 'report.submit' },
    { type: 'report.close' },
    { type: 'xstate.done.actor.submitReport', output: {} },
    {
      type: 'xstate.error.actor.submitReport',
      error: { status: 404, body: { code: 'not_found', message: 'Storefront not found' } },
    },
    // A second report of the same storefront by the same person.
    {
      type: 'xstate.error.actor.submitReport',
      error: { status: 409, body: { code: 'ALREADY_REPORTED', message: '' } },
    },
  ],
  // The thank-you panel and the final states end the flow: what led there does not make them
  // different states.
  serializeState: (s) =>
    JSON.stringify(
      s.status === 'done' || s.matches('submitted')
        ? [s.value]
        : [
            s.value,
            s.context.reason,
            s.context.description,
            s.context.error?.code ?? null,
            s.context.error?.field ?? null,
          ],
    ),
};
