import { act, fireEvent, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, createActor, fromPromise } from 'xstate';
import { ApiError, errorMessage } from '#domain/errors';
import { type SubmitReportInput, storefrontReportMachine } from '../machines/storefrontReport';
import { ReportStorefrontDialog } from '../src/views/catalog/ReportStorefrontDialog';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst, typeInto } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';
import { REPORT_STOREFRONT_ID, storefrontReportModel } from './storefrontReport.model';

const reasonLabels: Record<string, string> = {
  offensive: 'Offensive',
  illegal: 'Illegal',
  misleading: 'Misleading',
  other: 'Other',
};
const descriptionField = () => screen.queryByLabelText<HTMLTextAreaElement>('Description (optional)');

/** Report paths through the dialog: a reason radio, typing the description, Send report and Cancel. */
async function perform(step: PathStep) {
  const e = step.event as { type: string; value?: string };
  switch (e.type) {
    case 'report.reason.change':
      return clickControl(
        screen.queryByRole<HTMLInputElement>('radio', { name: reasonLabels[e.value!] }),
        `The reason "${reasonLabels[e.value!]}"`,
      );
    case 'report.description.change':
      return typeInto(descriptionField(), e.value!, 'Description (optional)');
    case 'report.submit':
      return clickFirst('Send report');
    case 'report.close':
      return clickFirst('Cancel');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const state = expected.value as string;
  if (state === 'closed') return expect(screen.queryByRole('dialog')).toBeNull();
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
    state === 'submitted' ? 'Thanks for your report' : 'Report Pixel Garden',
  );
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  if (state === 'submitted') {
    expect(screen.getByRole('dialog').textContent).toContain('team will review');
    expect(screen.getByRole('button', { name: 'Done' })).toBeTruthy();
    expect(alerts).toEqual([]);
    return;
  }
  const { reason, description, error } = expected.context as {
    reason: string;
    description: string;
    error: { code: string; field?: string } | null;
  };
  const group = screen.getByRole('group', { name: 'Reason' });
  const checked = screen.getAllByRole<HTMLInputElement>('radio').filter((r) => r.checked);
  expect(checked.map((r) => r.value)).toEqual(reason ? [reason] : []);
  const textarea = descriptionField()!;
  expect(textarea.value).toBe(description);
  expect(screen.getByText(`${description.length}/200`)).toBeTruthy();
  expect(alerts).toEqual(error ? [errorMessage(error)] : []);
  expect(group.getAttribute('aria-invalid')).toBe(error?.field === 'reason' ? 'true' : null);
  expect(textarea.getAttribute('aria-invalid')).toBe(error?.field === 'description' ? 'true' : null);
  const send = screen.getByRole('button', { name: 'Send report' });
  expect(send.getAttribute('aria-busy')).toBe(state === 'submitting' ? 'true' : null);
}

describe('report paths through the dialog', () => {
  for (const path of coveringPaths(storefrontReportModel)) {
    it(path.description, () => {
      const done: boolean[] = [];
      return runPath(storefrontReportModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => (
            <ReportStorefrontDialog
              actor={actor as never}
              storefrontName="Pixel Garden"
              onDone={(reported) => done.push(reported)}
            />
          )),
        perform,
        check: async (expected) => {
          check(expected);
          if (expected.value === 'closed') {
            await act(() => Promise.resolve());
            expect(done).toEqual([false]);
          }
          if (expected.value === 'submitted') {
            await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Done' })));
            expect(done).toEqual([true]);
          }
        },
        wrap: (fn) => act(fn),
      });
    });
  }
  afterAll(() => flushCoverage('view'));
});

describe('a second report of the same storefront', () => {
  it('shows the server’s ALREADY_REPORTED answer in words and keeps the form', async () => {
    const actor = createActor(
      storefrontReportMachine.provide({
        actors: {
          submitReport: fromPromise<unknown, SubmitReportInput>(async () => {
            throw new ApiError(409, { code: 'ALREADY_REPORTED', message: '' });
          }),
        },
      }),
      { input: { storefrontId: REPORT_STOREFRONT_ID } },
    ).start();
    await renderWithRouter(() => (
      <ReportStorefrontDialog actor={actor} storefrontName="Pixel Garden" onDone={() => {}} />
    ));
    await act(async () => fireEvent.click(screen.getByRole('radio', { name: 'Offensive' })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send report' })));
    expect((await screen.findByRole('alert')).textContent).toBe('You have already reported this storefront.');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Report Pixel Garden');
    expect(actor.getSnapshot().value).toBe('editing');
  });
});
