import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { filterToggle } from '#domain/marketFilterForm';
import { FilterDisclosure, PriceCategoryFilter } from '../../../src/views/catalog/CatalogFilters';

/**
 * The marketplace's filter on narrow screens: a Filters button discloses it (aria-expanded, the
 * panel it controls folded until then; catalog.css hides a folded panel below 900 px), names how
 * many filters apply, and applying folds it again.
 */
function renderFilter(search: Parameters<typeof filterToggle>[0] = {}) {
  const onApply = vi.fn();
  render(
    <FilterDisclosure toggle={filterToggle(search)}>
      {(close) => (
        <PriceCategoryFilter
          search={search}
          onApply={(next) => {
            close();
            onApply(next);
          }}
        />
      )}
    </FilterDisclosure>,
  );
  const toggle = screen.getByRole('button', { name: /^Filters/ });
  const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
  return { toggle, panel, onApply };
}

describe('the marketplace filter behind a Filters button', () => {
  it('is folded until the button opens it, and folds again once applied', () => {
    const { toggle, panel, onApply } = renderFilter();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(panel.dataset.open).toBe('false');
    expect(panel.contains(screen.getByRole('form', { name: 'Filter' }))).toBe(true);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(panel.dataset.open).toBe('true');
    fireEvent.change(screen.getByLabelText('Min'), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onApply).toHaveBeenCalledWith({ min: 10, max: undefined, categories: undefined });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(panel.dataset.open).toBe('false');
  });

  it('names the number of filters applied: a price range once, each category once', () => {
    expect(filterToggle({})).toEqual({ applied: 0, label: 'Filters' });
    expect(filterToggle({ min: 10, max: 100 })).toEqual({ applied: 1, label: 'Filters, 1 applied' });
    expect(filterToggle({ max: 5, categories: 'music,gaming' })).toEqual({
      applied: 3,
      label: 'Filters, 3 applied',
    });
    const { toggle } = renderFilter({ min: 10, categories: 'music' });
    expect(toggle.textContent).toBe('Filters2');
    expect(screen.getByRole('button', { name: 'Filters, 2 applied' })).toBe(toggle);
  });

  it('reads plain "Filters" when none applies', () => {
    const { toggle } = renderFilter();
    expect(toggle.textContent).toBe('Filters');
  });
});
