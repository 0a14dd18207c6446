import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectProductActions } from '../machines/productActions';
import { ProductList } from '../src/views/dashboard/ProductsPanel';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { activeItem, hiddenItem, productActionsModel } from './productActions.model';
import { renderWithRouter } from './router';

/** Opens an item's action menu and picks an entry. */
function pick(title: string, entry: string) {
  clickFirst(`Actions for ${title}`);
  const item = screen.queryByRole('menuitem', { name: entry });
  if (!item) throw new Error(`The actions of “${title}” have no "${entry}" entry`);
  fireEvent.click(item);
  return true;
}

async function perform(step: PathStep) {
  const e = step.event as { type: string; target?: { title: string } };
  if (e.type === 'product.hide') return pick(e.target!.title, 'Hide');
  if (e.type === 'product.show') return pick(e.target!.title, 'Show');
  if (e.type === 'product.cancel') return pick(e.target!.title, 'Cancel sale');
  const names: Record<string, string> = {
    'product.cancel.confirm': 'Cancel sale',
    'product.cancel.dismiss': 'Keep selling',
    'product.error.dismiss': 'Dismiss',
  };
  const name = names[e.type];
  if (!name) return false;
  if (e.type === 'product.error.dismiss') return clickFirst(name);
  const dialog = screen.queryByRole('dialog') ?? screen.queryByRole('alertdialog');
  if (!dialog) throw new Error('No confirmation dialog on screen');
  return clickControl(within(dialog).queryByRole('button', { name }), `The dialog's "${name}" button`);
}

function check(expected: AnyMachineSnapshot) {
  const view = connectProductActions(expected as never, () => {});
  const rows = screen.getAllByRole('listitem').map((li) => li.textContent);
  expect(rows).toHaveLength(2);
  expect(rows[0]).toContain('Active');
  expect(rows[1]).toContain('Sold Out');
  expect(rows[1]).toContain('Hidden');
  const dialog = screen.queryByRole('dialog') ?? screen.queryByRole('alertdialog');
  if (view.confirmCancel) {
    expect(dialog?.textContent).toContain('This cannot be undone');
    expect(dialog?.textContent).toContain(`“${view.confirmCancel.title}”`);
    const confirm = within(dialog!).getByRole('button', { name: 'Cancel sale' });
    expect(confirm.getAttribute('aria-busy')).toBe(view.confirmCancel.busy ? 'true' : null);
  } else {
    expect(dialog).toBeNull();
  }
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  expect(alerts).toEqual(view.error ? [`${view.error}Dismiss`] : []);
}

describe('product action paths through the list', () => {
  for (const path of coveringPaths(productActionsModel)) {
    it(path.description, () =>
      runPath(productActionsModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => (
            <ProductList items={[activeItem, hiddenItem]} actor={actor as never} onAction={() => {}} />
          )),
        perform,
        check: async (expected) => {
          await act(() => Promise.resolve());
          check(expected);
        },
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
