import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BlueprintJson } from '#domain/catalog';
import { makeBlueprint } from '../../../model-tests/fixtures';
import { renderWithRouter } from '../../../model-tests/router';
import { ItemGrid } from '../../../src/views/catalog/ItemCard';

/** A public blueprint of storefront `s<n % 3>`, with an uploaded logo. */
const item = (n: number): BlueprintJson => {
  const base = makeBlueprint();
  return makeBlueprint({
    id: `b${n}`,
    blueprintId: `b${n}`,
    previewImageUrl: `/media/preview-${n}.jpg`,
    state: 'active',
    storefront: { ...base.storefront!, id: `s${n % 3}`, logoUrl: `/media/logo-${n % 3}.jpg` },
  });
};

async function renderGrid(count: number) {
  const items = Array.from({ length: count }, (_, i) => item(i + 1));
  await renderWithRouter(() => <ItemGrid items={items} label="Items" />);
  return within(screen.getByRole('list', { name: 'Items' })).getAllByRole('listitem');
}

describe('ItemGrid', () => {
  it('fetches the first row’s previews and logos at once, the rest as they near the viewport', async () => {
    const cards = await renderGrid(6);
    const images = (card: HTMLElement) => [...card.querySelectorAll('img')];
    for (const [i, card] of cards.entries()) {
      const [preview, logo] = images(card);
      expect(preview!.getAttribute('src')).toBe(`/media/preview-${i + 1}.jpg`);
      expect(logo!.getAttribute('src')).toBe(`/media/logo-${(i + 1) % 3}.jpg`);
      const firstRow = i < 4;
      expect(preview!.getAttribute('loading')).toBe(firstRow ? 'eager' : 'lazy');
      expect(preview!.getAttribute('fetchpriority')).toBe(firstRow ? 'high' : null);
      expect(logo!.getAttribute('loading')).toBe(firstRow ? 'eager' : 'lazy');
    }
  });
});

describe('ItemCard', () => {
  it('shows a card of a pack at its pack’s price with the pack’s editions left, and only a free item as free', async () => {
    const pack = {
      id: 'p1',
      title: 'Booster Pack: Series 1',
      price: 1500,
      quantity: 500,
      quantityAvailable: 430,
      state: 'available' as const,
      availableTime: null,
      coverImageUrl: null,
    };
    const items = [
      makeBlueprint({ id: 'free', title: 'Free Sampler', price: 0, quantity: 10, quantityAvailable: 7 }),
      makeBlueprint({
        id: 'card',
        title: 'Card A',
        price: 0,
        quantity: 500,
        quantityAvailable: 500,
        blueprintPackId: 'p1',
        pack,
      }),
    ];
    await renderWithRouter(() => <ItemGrid items={items} label="Items" />);
    const [free, card] = within(screen.getByRole('list', { name: 'Items' })).getAllByRole('listitem');
    expect(free!.textContent).toContain('free07/10');
    expect(card!.textContent).toContain('$15 · in pack430/500');
    expect(card!.textContent).not.toMatch(/free/i);
  });
});
