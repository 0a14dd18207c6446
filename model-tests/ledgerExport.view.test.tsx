import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectLedgerExport } from '../machines/ledgerExport';
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
  const view = connectLedgerExport(expected as never, () => {});
  expect(exportButton().getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  const alerts = screen.queryAllByRole('alert').map((a) => a.textContent);
  expect(alerts).toEqual(view.error ? [`${view.error}Dismiss`] : []);
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
