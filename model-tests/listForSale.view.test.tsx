import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectListForSale } from '../machines/listForSale';
import { ListForSaleDialog } from '../src/views/nft/ListingPanels';
import { flushCoverage } from './coverage-store';
import { clickFirst, typeInto } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { listForSaleModel } from './listForSale.model';
import { renderWithRouter } from './router';

/** List-for-sale paths through the dialog: typing a price, pressing the buttons, reading the dialog. */
async function perform(step: PathStep) {
  const e = step.event as { type: string; value?: string };
  switch (e.type) {
    case 'listing.price.change':
      return typeInto(screen.queryByLabelText<HTMLInputElement>('Price (USD)'), e.value!, 'Price (USD)');
    case 'listing.submit':
      return clickFirst('List for sale');
    case 'listing.retry':
      return clickFirst('Try again');
    case 'listing.close':
      return clickFirst('Cancel', 'Close', 'Done');
    default:
      return false;
  }
}

/** The dialog shows what the view model of the expected snapshot says, and nothing once it is over. */
function check(expected: AnyMachineSnapshot) {
  const view = connectListForSale(expected as never, () => {});
  const dialog = screen.queryByRole('dialog');
  if (view.panel === 'done') return expect(dialog).toBeNull();
  expect(dialog).not.toBeNull();
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(view.title);
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  const field = screen.queryByLabelText<HTMLInputElement>('Price (USD)');
  expect(alerts).toEqual([view.priceError, view.error].filter(Boolean));
  expect(field === null).toBe(view.panel !== 'form');
  if (field) {
    expect(field.value).toBe(view.price);
    expect(field.readOnly).toBe(!view.canChangePrice);
    expect(field.getAttribute('aria-invalid')).toBe(view.priceError ? 'true' : null);
    expect(screen.getByRole('button', { name: 'List for sale' }).getAttribute('aria-busy')).toBe(
      view.busy ? 'true' : null,
    );
  }
  if (view.summary) expect(dialog!.textContent).toContain(`You receive${view.summary.net}`);
  if (view.status) expect(dialog!.textContent).toContain(view.status);
  if (view.panel === 'listed') expect(dialog!.textContent).toContain(view.listedText);
  expect(screen.queryByRole('link', { name: 'Verify identity' }) !== null).toBe(view.panel === 'kycRequired');
}

describe('list-for-sale paths through the dialog', () => {
  for (const path of coveringPaths(listForSaleModel)) {
    it(path.description, () =>
      runPath(listForSaleModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <ListForSaleDialog actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
