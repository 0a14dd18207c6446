import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorTexts } from '#domain/errors';
import { SalesView } from '../src/views/dashboard/SalesPanel';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { ledgerExportModel, SALES_PAGE } from './ledgerExport.model';
import { renderWithRouter } from './router';

const exportButton = () => screen.getByRole('button', { name: 'Export CSV' });

/** Export paths through the Sales panel: "Export CSV" and "Dismiss". */
async function perform(step: PathStep) {
  if (step.event.type === 'ledger.export') return clickFirst('Export CSV');
  if (step.event.type === 'ledger.dismiss') return clickFirst('Dismiss');
  return false;
}

function check(expected: AnyMachineSnapshot) {
  const state = expected.value as string;
  expect(exportButton().getAttribute('aria-busy')).toBe(state === 'exporting' ? 'true' : null);
  const alerts = screen.queryAllByRole('alert').map((a) => a.textContent);
  const error = expected.context.error as { message: string } | null;
  expect(alerts).toEqual(
    state === 'failed' ? [`${error!.message || errorTexts['errors.default']}Dismiss`] : [],
  );
  // The table stays as it is.
  expect(screen.getAllByTestId('sale-row')).toHaveLength(2);
}

describe('ledger export paths through the Sales panel', () => {
  for (const path of coveringPaths(ledgerExportModel)) {
    it(path.description, () =>
      runPath(ledgerExportModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => (
            <SalesView sales={SALES_PAGE} exporter={actor as never} onPage={() => {}} />
          )),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
