import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '../src/domain/errors';
import { ProductList } from '../src/views/dashboard/ProductsPanel';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { generatePaths, type PathStep, runPath } from './harness';
import { activeItem, hiddenItem, productActionsModel } from './productActions.model';
import { renderWithRouter } from './router';

/** Opens an item's action menu and picks an entry; false when the menu or entry is not there. */
function pick(title: string, entry: string) {
  const trigger = screen.queryByRole('button', { name: `Actions for ${title}` });
  if (!trigger) return false;
  fireEvent.click(trigger);
  const item = screen.queryByRole('menuitem', { name: entry });
  if (!item) {
    fireEvent.click(trigger);
    return false;
  }
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
  if (!names[e.type]) return false;
  const dialog = screen.queryByRole('dialog') ?? screen.queryByRole('alertdialog');
  if (e.type !== 'product.error.dismiss' && !dialog) return false;
  return e.type === 'product.error.dismiss'
    ? clickFirst(names[e.type]!)
    : clickButtonIn(dialog!, names[e.type]!);
}
function clickButtonIn(container: HTMLElement, name: string) {
  const button = within(container).queryByRole('button', { name });
  if (!button) return false;
  fireEvent.click(button);
  return true;
}

function check(expected: AnyMachineSnapshot) {
  const state = expected.value as string;
  const rows = screen.getAllByRole('listitem').map((li) => li.textContent);
  expect(rows).toHaveLength(2);
  expect(rows[0]).toContain('Active');
  expect(rows[1]).toContain('Sold Out');
  expect(rows[1]).toContain('Hidden');
  const dialog = screen.queryByRole('dialog') ?? screen.queryByRole('alertdialog');
  const cancelling = expected.context.change && 'state' in expected.context.change;
  if (state === 'confirmingCancel' || (state === 'updating' && cancelling)) {
    expect(dialog?.textContent).toContain('This cannot be undone');
    expect(dialog?.textContent).toContain(`“${expected.context.target.title}”`);
  } else {
    expect(dialog).toBeNull();
  }
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  expect(alerts.some((t) => t?.includes(errorMessage(expected.context.error)))).toBe(state === 'failed');
}

describe('product action paths through the list', () => {
  for (const path of generatePaths(productActionsModel)) {
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
