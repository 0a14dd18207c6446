import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { SalesPage } from '#domain/sales';
import { ledgerExportMachine } from '../../../machines/ledgerExport';
import { SALES_PAGE } from '../../../model-tests/ledgerExport.model';
import { formatSaleDay, formatSaleTime, SalesView } from '../../../src/views/dashboard/SalesPanel';

/**
 * The dashboard's Sales table: columns purchased date, blueprint, status, amount; rows expand to the
 * fees and total; page size 50 by default (25, 50 or 100); pager; empty state.
 */
async function renderSales(sales: SalesPage) {
  const onPage = vi.fn();
  const exporter = createActor(
    ledgerExportMachine.provide({
      actors: { exportLedger: fromPromise<unknown, { storefrontId: string }>(async () => undefined) },
    }),
    { input: { storefrontId: 's' } },
  ).start();
  const root = createRootRoute({
    component: () => <SalesView sales={sales} exporter={exporter} onPage={onPage} />,
  });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ['/'] }) });
  await act(async () => {
    render(<RouterProvider router={router as never} />);
    await router.load();
  });
  return { onPage };
}

/** The expanded details of a sale: the cell under its (visually hidden) heading. */
const details = (name: string) => screen.getByRole('heading', { name: `Details of ${name}` }).parentElement!;
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('Sales panel', () => {
  it('shows purchased date, blueprint, status and amount, newest first', async () => {
    await renderSales(SALES_PAGE);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Details',
      'Purchased',
      'Blueprint',
      'Status',
      'Amount',
    ]);
    expect(screen.getAllByTestId('sale-row').map(cells)).toEqual([
      ['+', formatSaleDay('2026-03-05T15:30:00.000Z'), 'Harbor Lights #02', 'Completed', '$25'],
      ['+', formatSaleDay('2026-03-01T09:00:00.000Z'), 'Quiet Dunes #11', 'Completed', '$10.50'],
    ]);
  });

  it('expands a row to the purchase details and the payout status', async () => {
    await renderSales(SALES_PAGE);
    const toggle = screen.getByRole('button', { name: 'Details of Harbor Lights #02' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const first = details('Harbor Lights #02');
    const pairs = [...first.querySelectorAll('dt')].map((dt) => [
      dt.textContent,
      dt.nextElementSibling?.textContent,
    ]);
    expect(pairs).toEqual([
      ['Purchased', formatSaleTime('2026-03-05T15:30:00.000Z')],
      ['Blueprint', 'Harbor Lights (#02)'],
      ['Buyer', '@collector_jo'],
      // A primary sale: the creator sells and owes no royalty to themselves.
      ['Platform fee', '$1.88'],
      ['Total amount', '$25'],
      ['Net', '$23.12'],
      ['Payout', 'Unpaid'],
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Details of Quiet Dunes #11' }));
    const second = details('Quiet Dunes #11');
    expect(second.textContent).toContain('In payout request');
    expect(second.textContent).toContain('$4 in a payout request (paid)');
    expect(second.textContent).toContain('$6 in a payout request (requested)');
    expect(second.textContent).not.toContain('Buyer');
    fireEvent.click(toggle);
    expect(screen.queryByRole('heading', { name: 'Details of Harbor Lights #02' })).toBeNull();
  });

  it('changes the page size (from page 1) and pages', async () => {
    const { onPage } = await renderSales({ ...SALES_PAGE, total: 120, page: 2, pageSize: 50 });
    const select = screen.getByLabelText<HTMLSelectElement>('Rows per page');
    expect(select.value).toBe('50');
    expect([...select.options].map((o) => o.value)).toEqual(['25', '50', '100']);
    fireEvent.change(select, { target: { value: '25' } });
    expect(onPage).toHaveBeenLastCalledWith(1, 25);
    expect(screen.getByRole('navigation', { name: 'Pages' }).textContent).toContain(
      'Page 2 of 3 · 120 sales',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPage).toHaveBeenLastCalledWith(3, 50);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onPage).toHaveBeenLastCalledWith(1, 50);
  });

  it('has no pages to turn on a single page', async () => {
    await renderSales(SALES_PAGE);
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says so when there are no sales, and has nothing to export', async () => {
    await renderSales({ results: [], total: 0, page: 1, pageSize: 50 });
    expect(screen.getByRole('heading', { name: 'No sales yet' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect((screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
