import { expect } from 'vitest';
import { connectStorefrontReport, storefrontReportMachine } from '../machines/storefrontReport';
import { after, expectOutput, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof storefrontReportMachine>;
const view = (o: O) => connectStorefrontReport(o.snapshot, () => {});

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
  expect: {
    // A reason is required and a description of at most 200 characters.
    editing: (o) => {
      const v = view(o);
      expect(v).toMatchObject({ panel: 'form', busy: false, canClose: true });
      expect(v.counter).toBe(`${o.snapshot.context.description.length}/200`);
      if (o.event.type === 'report.reason.change')
        expect(v).toMatchObject({ reason: o.event.value, error: null });
      if (o.event.type === 'report.submit') {
        const c = o.snapshot.context;
        expect(c.reason === '' || c.description.length > 200).toBe(true);
        expect(v.reasonError ?? v.descriptionError).toBeTruthy();
      }
      if (after(o, 'error', 'submitReport')) expect(v.error).toBeTruthy();
    },
    submitting: (o) => {
      expect(o.event.type).toBe('report.submit');
      const c = o.snapshot.context;
      expectWorking(o, 'submitReport');
      expect(o.calls.at(-1)!.input).toMatchObject({ storefrontId: REPORT_STOREFRONT_ID, reason: c.reason });
      expect(view(o).status).toBe('Sending your report…');
    },
    submitted: (o) => {
      expect(o.event.type).toBe('xstate.done.actor.submitReport');
      expect(view(o).panel).toBe('submitted');
    },
    done: (o) => {
      expect(o.before.value).toBe('submitted');
      expectOutput(o, { reported: true });
    },
    closed: (o) => {
      expect(o.before.value).toBe('editing');
      expectOutput(o, { reported: false });
    },
  },
};
