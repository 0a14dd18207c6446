import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, createActor, fromPromise } from 'xstate';
import { ApiError } from '#domain/errors';
import {
  connectStorefrontReport,
  type StorefrontReportOutput,
  type SubmitReportInput,
  storefrontReportMachine,
} from '../machines/storefrontReport';
import { type AppActors, AppContext } from '../src/views/AppContext';
import { ReportStorefrontDialog } from '../src/views/catalog/ReportStorefrontDialog';
import { useFlowActor } from '../src/views/useFlowActor';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst, typeInto } from './dom';
import { coveringPaths, type PathStep, runPath, unusedViewless, type ViewlessEvent } from './harness';
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
      return clickFirst('Cancel', 'Done');
    default:
      return false;
  }
}

/** User events this dialog has no control for (the harness sends them; see docs/testing.md). */
const viewless: ViewlessEvent[] = [
  {
    event: 'report.reason.change',
    when: (e, before) => e.value === before.context.reason,
    reason:
      'a radio already checked raises no change when clicked again; the machine takes the same reason ' +
      '(clearing the error) and the graph explores it',
  },
];

/** The dialog shows what the view model of the expected snapshot says, and nothing once it is over. */
function check(expected: AnyMachineSnapshot) {
  const view = connectStorefrontReport(expected as never, () => {});
  if (view.panel === 'done') return expect(screen.queryByRole('dialog')).toBeNull();
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  if (view.panel === 'submitted') {
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Thanks for your report');
    expect(screen.getByRole('dialog').textContent).toContain('team will review');
    expect(screen.getByRole('button', { name: 'Done' })).toBeTruthy();
    expect(alerts).toEqual([]);
    return;
  }
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Report Pixel Garden');
  const group = screen.getByRole('group', { name: 'Reason' });
  const checked = screen.getAllByRole<HTMLInputElement>('radio').filter((r) => r.checked);
  expect(checked.map((r) => r.value)).toEqual(view.reason ? [view.reason] : []);
  const textarea = descriptionField()!;
  expect(textarea.value).toBe(view.description);
  expect(screen.getByText(view.counter)).toBeTruthy();
  expect(alerts).toEqual([view.reasonError, view.descriptionError, view.error].filter(Boolean));
  expect(group.getAttribute('aria-invalid')).toBe(view.reasonError ? 'true' : null);
  expect(textarea.getAttribute('aria-invalid')).toBe(view.descriptionError ? 'true' : null);
  const send = screen.getByRole('button', { name: 'Send report' });
  expect(send.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
}

describe('report paths through the dialog', () => {
  for (const path of coveringPaths(storefrontReportModel)) {
    it(path.description, () =>
      runPath(storefrontReportModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => (
            <ReportStorefrontDialog actor={actor as never} storefrontName="Pixel Garden" />
          )),
        perform,
        viewless,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  it('has no unused viewless events', () => expect(unusedViewless(viewless)).toEqual([]));
  afterAll(() => flushCoverage('view'));
});

/** The storefront page's report dialog: the flow's actor, and what its output tells the page. */
const reportFlow = storefrontReportMachine.provide({
  actors: { submitReport: fromPromise<unknown, SubmitReportInput>(async () => ({})) },
});
function ReportFlow({ onEnd }: { onEnd: (output: StorefrontReportOutput) => void }) {
  const actor = useFlowActor(reportFlow, { storefrontId: REPORT_STOREFRONT_ID }, onEnd);
  return <ReportStorefrontDialog actor={actor} storefrontName="Pixel Garden" />;
}

describe('how a report flow ends, as the page hears it', () => {
  const mount = (ended: StorefrontReportOutput[]) =>
    render(
      <AppContext.Provider value={{} as AppActors}>
        <ReportFlow onEnd={(output) => ended.push(output)} />
      </AppContext.Provider>,
    );

  it('is { reported: true } once the thank-you panel is closed', async () => {
    const ended: StorefrontReportOutput[] = [];
    await mount(ended);
    await act(async () => fireEvent.click(screen.getByRole('radio', { name: 'Illegal' })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send report' })));
    await screen.findByRole('heading', { name: 'Thanks for your report' });
    expect(ended).toEqual([]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Done' })));
    expect(ended).toEqual([{ reported: true }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is { reported: false } when canceled, and nothing more when the page goes', async () => {
    const ended: StorefrontReportOutput[] = [];
    const { unmount } = await mount(ended);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Cancel' })));
    expect(ended).toEqual([{ reported: false }]);
    unmount();
    expect(ended).toEqual([{ reported: false }]);
  });

  it('says nothing when the page goes while the dialog is open', async () => {
    const ended: StorefrontReportOutput[] = [];
    const { unmount } = await mount(ended);
    unmount();
    expect(ended).toEqual([]);
  });
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
    await renderWithRouter(() => <ReportStorefrontDialog actor={actor} storefrontName="Pixel Garden" />);
    await act(async () => fireEvent.click(screen.getByRole('radio', { name: 'Offensive' })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send report' })));
    expect((await screen.findByRole('alert')).textContent).toBe('You have already reported this storefront.');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Report Pixel Garden');
    expect(connectStorefrontReport(actor.getSnapshot(), () => {}).panel).toBe('form');
  });
});
