import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultHead, itemHead, shortText } from '#domain/pageHead';
import { makeBlueprint } from '../../model-tests/fixtures';

const origin = 'https://vitrine.example';

/** The head of a page as domain/pageHead.ts makes it (the server's HTML is tested in tests/api/pages.test.ts). */
describe('a page head', () => {
  it('cuts a description at a word to 155 characters, with an ellipsis, on one line', () => {
    const long = `${'harbour lights at dusk '.repeat(10)}\n\nend`;
    const cut = shortText(long);
    expect(cut.length).toBeLessThanOrEqual(155);
    expect(cut).toMatch(/^harbour lights .* (harbour|lights|at|dusk)…$/);
    expect(shortText('  two\n\nlines  ')).toBe('two lines');
  });

  it('offers a card of a pack at its pack’s price and editions left', () => {
    const pack = {
      id: 'p1',
      title: 'Starter Pack',
      price: 1500,
      quantity: 50,
      quantityAvailable: 0,
      state: 'soldOut',
    };
    const card = makeBlueprint({ price: 0, blueprintPackId: 'p1', pack } as never);
    const head = itemHead(card, origin);
    expect(head.title).toBe('Night Loop · $15 · Vitrine');
    expect(head.jsonLd?.offers).toMatchObject({ price: '15.00', availability: 'https://schema.org/SoldOut' });
  });

  it('offers a free item at 0 and names no price for an item on offer at none', () => {
    const free = itemHead(makeBlueprint({ price: 0 }), origin);
    expect(free.title).toBe('Night Loop · Free · Vitrine');
    expect(free.jsonLd?.offers).toMatchObject({ price: '0.00', availability: 'https://schema.org/InStock' });
    const hiddenPack = itemHead(makeBlueprint({ price: 0, blueprintPackId: 'p2', pack: null }), origin);
    expect(hiddenPack.title).toBe('Night Loop · Vitrine');
    expect(hiddenPack.jsonLd?.offers).toBeUndefined();
  });

  it('is index.html’s title and description by default, which the app replaces once it runs', () => {
    const html = readFileSync('index.html', 'utf8');
    expect(html).toContain(`<title data-head>${defaultHead.title}</title>`);
    expect(html).toContain(`<meta name="description" data-head content="${defaultHead.description}" />`);
  });
});
