import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectAdminList } from '../machines/adminList';
import { AdminListView } from '../src/views/admin/AdminPage';
import { adminListModel } from './adminList.model';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';

/**
 * Back-office list paths through the view: the search form, the pager, a row's action buttons and
 * "Try again". A step whose control is missing or disabled fails.
 */
async function perform(step: PathStep) {
  const e = step.event as { type: string; text?: string; page?: number; action?: { label: string } };
  switch (e.type) {
    case 'admin.search': {
      const box = screen.queryByRole<HTMLInputElement>('searchbox');
      if (!box) throw new Error('The search box is not on screen');
      box.value = e.text!;
      fireEvent.submit(box.form!);
      return true;
    }
    case 'admin.page':
      return clickFirst(e.page === 1 ? 'Previous' : 'Next');
    case 'admin.act':
      return clickControl(
        screen.queryAllByRole('button', { name: e.action!.label })[0],
        `The row's "${e.action!.label}" button`,
      );
    case 'admin.retry':
      return clickFirst('Try again');
    case 'admin.status': {
      const select = screen.queryByLabelText<HTMLSelectElement>('Status');
      if (!select || select.disabled) throw new Error('The status filter is not usable');
      fireEvent.change(select, { target: { value: (e as { status?: string }).status } });
      return true;
    }
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const view = connectAdminList(expected as never, () => {});
  if (view.failed) {
    expect(screen.getByRole('alert').textContent).toContain(view.error!);
    expect(screen.queryByRole('table')).toBeNull();
    return;
  }
  const table = screen.getByRole('table', { name: view.title });
  const rows = within(table).getAllByRole('row').slice(1);
  expect(
    rows.map((r) =>
      within(r)
        .getAllByRole('cell')
        .slice(0, -1)
        .map((c) => c.textContent),
    ),
  ).toEqual(view.rows.map((r) => r.cells));
  for (const [i, row] of view.rows.entries())
    expect(
      within(rows[i]!)
        .queryAllByRole('button')
        .map((b) => [b.textContent, (b as HTMLButtonElement).disabled]),
    ).toEqual(row.actions.map((a) => [a.label, !view.canAct]));
  expect(
    screen.getByText(`Page ${view.page} of ${view.pages} · ${view.total.toLocaleString('en-US')} in all`),
  ).toBeTruthy();
  expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe(view.status);
  expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(!view.canNext);
  expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(
    !view.canPrevious,
  );
  expect(screen.queryAllByRole('alert').map((a) => a.textContent)).toEqual(view.error ? [view.error] : []);
}

describe('admin list paths through the view', () => {
  for (const path of coveringPaths(adminListModel)) {
    it(path.description, () =>
      runPath(adminListModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <AdminListView actor={actor as never} />),
        perform,
        viewless: [
          {
            event: 'admin.status',
            reason:
              'the status filter is narrowed through the API query only; the list view offers no control for it yet',
          },
        ],
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
