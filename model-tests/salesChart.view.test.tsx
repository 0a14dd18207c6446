import { act, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectSalesChart } from '../machines/salesChart';
import { SalesChartView } from '../src/views/dashboard/SalesChart';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';
import { salesChartModel } from './salesChart.model';

/** Chart paths through the view: the period and grouping buttons, and "Try again". */
async function perform(step: PathStep) {
  const e = step.event as { type: string; days?: number; bucket?: string };
  switch (e.type) {
    case 'chart.period':
      return clickFirst(e.days === 365 ? '1 year' : `${e.days} days`);
    case 'chart.bucket':
      return clickFirst(e.bucket === 'day' ? 'By day' : 'By week');
    case 'chart.retry':
      return clickFirst('Try again');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const view = connectSalesChart(expected as never, () => {});
  const region = screen.getByRole('region', { name: view.title });
  for (const p of view.periods)
    expect(within(region).getByRole('button', { name: p.label }).getAttribute('aria-pressed')).toBe(
      String(p.selected),
    );
  expect(!!within(region).queryByRole('button', { name: 'By week' })).toBe(view.showBucket);
  if (view.failed) {
    expect(within(region).getByRole('alert').textContent).toContain(view.error!);
    return;
  }
  expect(region.querySelector('.vt-chart__summary')!.textContent).toBe(view.summary);
  const rows = within(region)
    .queryAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );
  expect(rows).toEqual(view.table.rows);
}

describe('chart paths through the view', () => {
  for (const path of coveringPaths(salesChartModel)) {
    it(path.description, () =>
      runPath(salesChartModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <SalesChartView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
