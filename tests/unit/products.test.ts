import { describe, expect, it } from 'vitest';
import { isPrinting, productActions, productFilter } from '#domain/products';

/** The dashboard's product actions per state (domain/products.ts) and the products status filter. */
describe('product actions', () => {
  const b = (state: string, status: string | null = null, visible = true) =>
    ({ state, status, visible }) as Parameters<typeof productActions>[0];

  it('offers edit and publish on drafts, nothing while printing', () => {
    expect(productActions(b('created'))).toEqual(['edit', 'publish']);
    expect(productActions(b('available'))).toEqual(['edit', 'publish']);
    expect(productActions(b('created', 'readyToSell'))).toEqual([]);
    expect(productActions(b('created', 'readyToPrint'))).toEqual([]);
    expect(isPrinting(b('created', 'readyToSell'))).toBe(true);
    expect(isPrinting(b('active'))).toBe(false);
  });

  it('offers view, sales, hide or show and cancel on active items', () => {
    expect(productActions(b('active'))).toEqual(['view', 'sales', 'hide', 'cancel']);
    expect(productActions(b('printed', null, false))).toEqual(['view', 'sales', 'show', 'cancel']);
  });

  it('offers view, sales and hide or show on sold-out and canceled items; view only otherwise', () => {
    expect(productActions(b('soldOut'))).toEqual(['view', 'sales', 'hide']);
    expect(productActions(b('canceled', null, false))).toEqual(['view', 'sales', 'show']);
    expect(productActions(b('printing'))).toEqual(['view']);
    expect(productActions(b('unknown'))).toEqual(['view']);
  });
});

describe('product status filter', () => {
  it('maps each status to states or visibility, newest first', () => {
    expect(productFilter('s1', '  loop ', 'all')).toEqual({
      storefrontId: 's1',
      search: 'loop',
      sort: 'createdAt',
      direction: 'desc',
      from: 1,
      to: 50,
    });
    expect(productFilter('s1', '', 'draft')).toMatchObject({ states: ['created'], search: undefined });
    expect(productFilter('s1', undefined, 'active').states).toEqual(['available', 'active', 'printed']);
    expect(productFilter('s1', undefined, 'hidden')).toMatchObject({ visible: false });
    expect(productFilter('s1', undefined, 'canceled').states).toEqual(['canceled']);
    expect(productFilter('s1', undefined, 'all', 3)).toMatchObject({ from: 101, to: 150 });
  });
});

describe('products search params', () => {
  it('keeps a search text, a known status and an edit target; drops the rest', async () => {
    const { parseProductsSearch } = await import('#domain/products');
    expect(parseProductsSearch({ q: 'loop', status: 'hidden', edit: 'new' })).toEqual({
      q: 'loop',
      status: 'hidden',
      edit: 'new',
    });
    expect(parseProductsSearch({ q: '  ', status: 'sold', edit: '../x' })).toEqual({});
    expect(parseProductsSearch({ page: '2' })).toEqual({ page: 2 });
    expect(parseProductsSearch({ page: 1 })).toEqual({});
    expect(parseProductsSearch({ edit: '0b6f1d2e-58a4-4f0e-9c41-1b2c3d4e5f60' }).edit).toHaveLength(36);
  });
});
