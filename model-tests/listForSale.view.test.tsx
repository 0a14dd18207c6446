import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '#domain/errors';
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
      return clickFirst('Cancel', 'Close');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const state = expected.value as string;
  const dialog = screen.queryByRole('dialog');
  if (state === 'closed') return expect(dialog).toBeNull();
  expect(dialog).not.toBeNull();
  const heading = screen.getByRole('heading', { level: 2 }).textContent;
  expect(heading).toBe(state === 'listed' ? 'Listed for sale' : 'List for sale');
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  const field = screen.queryByLabelText('Price (USD)');
  if (expected.context.error) {
    const text = errorMessage(expected.context.error);
    if (expected.context.error.field === 'price') expect(field?.getAttribute('aria-invalid')).toBe('true');
    else expect(alerts).toContain(text);
  } else expect(alerts).toEqual([]);
  if (state === 'editing') expect((field as HTMLInputElement).value).toBe(expected.context.price);
  if (state === 'kycRequired') expect(screen.getByRole('link', { name: 'Verify identity' })).toBeTruthy();
  if (expected.hasTag('busy'))
    expect(screen.getByRole('button', { name: 'List for sale' }).getAttribute('aria-busy')).toBe('true');
}

describe('list-for-sale paths through the dialog', () => {
  for (const path of coveringPaths(listForSaleModel)) {
    it(path.description, () =>
      runPath(listForSaleModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => <ListForSaleDialog actor={actor as never} onDone={() => {}} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
