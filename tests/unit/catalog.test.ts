import { describe, expect, it } from 'vitest';
import { type BlueprintJson, isFree, isPurchasable, stateLabel } from '#domain/catalog';
import { reviveDates, toDate } from '#domain/dates';
import { priceFilter, priceFilterEntry } from '#domain/marketFilterForm';
import { marketFilter, parseMarketSearch } from '#domain/marketSearch';
import { seriesLabel } from '#domain/nft';
import { availableText, itemOffer } from '#domain/offer';
import { parseStorefrontsSearch } from '#domain/storefrontsSearch';
import { timeAgo } from '#domain/time';

describe('marketplace URL (dollars in, cents out)', () => {
  it('keeps valid values and drops malformed ones', () => {
    expect(
      parseMarketSearch({
        q: '  harbor ',
        min: '10',
        max: 12.5,
        categories: 'music,cooking,gaming',
        sort: 'price-desc',
        page: '3',
      }),
    ).toEqual({ q: 'harbor', min: 10, max: 12.5, categories: 'music,gaming', sort: 'price-desc', page: 3 });
    expect(
      parseMarketSearch({ min: 'ten', max: '1.234', sort: 'title', page: '-1', categories: 'cooking' }),
    ).toEqual({});
    // The default sort stays out of the URL.
    expect(parseMarketSearch({ sort: 'price-asc' })).toEqual({});
  });

  it('turns a URL into the API filter: cents, categories, sort column and a 24-item page', () => {
    expect(
      marketFilter({ q: 'dune', min: 10, max: 12.5, categories: 'music', sort: 'edition-desc', page: 2 }),
    ).toEqual({
      search: 'dune',
      min: 1000,
      max: 1250,
      storefrontCategories: ['music'],
      sort: 'quantity',
      direction: 'desc',
      from: 25,
      to: 48,
    });
    expect(marketFilter({})).toMatchObject({
      sort: 'price',
      direction: 'asc',
      from: 1,
      to: 24,
      storefrontCategories: [],
    });
    expect(marketFilter({ min: 0.1 }).min).toBe(10);
    // Trending: most sales in the last 24 hours first.
    expect(parseMarketSearch({ sort: 'trending-desc' })).toEqual({ sort: 'trending-desc' });
    expect(marketFilter({ sort: 'trending-desc' })).toMatchObject({ sort: 'trending', direction: 'desc' });
  });

  it('reads the browse-storefronts URL', () => {
    expect(parseStorefrontsSearch({ q: 'aria', sort: 'oldest', categories: 'music' })).toEqual({
      q: 'aria',
      sort: 'oldest',
      categories: 'music',
    });
    expect(parseStorefrontsSearch({ sort: 'newest', categories: 'x' })).toEqual({});
    expect(parseStorefrontsSearch({ sort: 'volume' })).toEqual({ sort: 'volume' });
  });

  it('checks the sidebar filter as typed: dollars, the maximum not below the minimum, empty = no bound', () => {
    const entry = (min: string, max: string, categories: string[] = []) =>
      priceFilter({ min, max, categories });
    expect(entry('10', '12.50', ['music', 'art'])).toEqual({
      minError: null,
      maxError: null,
      search: { min: 10, max: 12.5, categories: 'music,art' },
    });
    expect(entry(' ', '')).toEqual({
      minError: null,
      maxError: null,
      search: { min: undefined, max: undefined, categories: undefined },
    });
    expect(entry('', '0.5').search).toEqual({ min: undefined, max: 0.5, categories: undefined });
    const bad = 'Enter an amount in dollars, e.g. 25 or 12.50';
    expect(entry('1.234', 'ten')).toEqual({ minError: bad, maxError: bad, search: null });
    expect(entry('20', '15')).toEqual({
      minError: null,
      maxError: 'The maximum is below the minimum',
      search: null,
    });
    expect(entry('20', '20').search).toMatchObject({ min: 20, max: 20 });
    expect(priceFilterEntry({ min: 10, max: 12.5, categories: 'music,x' })).toEqual({
      min: '10',
      max: '12.5',
      categories: ['music'],
    });
  });
});

describe('rules of blueprints: purchasable, free, state labels', () => {
  const b = (over: object) => ({
    type: 'standalone' as const,
    state: 'active' as const,
    price: 100,
    blueprintPackId: null,
    ...over,
  });
  it('purchasable: standalone or sticker when active or printed; others when active or sold out and priced', () => {
    expect(isPurchasable(b({}))).toBe(true);
    expect(isPurchasable(b({ state: 'printed' }))).toBe(true);
    expect(isPurchasable(b({ state: 'soldOut' }))).toBe(false);
    expect(isPurchasable(b({ type: 'sticker', state: 'available' }))).toBe(false);
    expect(isPurchasable(b({ type: 'standaloneInPack', state: 'soldOut' }))).toBe(true);
    expect(isPurchasable(b({ type: 'standaloneInPack', price: 0 }))).toBe(false);
  });
  it('free: price 0 and not in a pack', () => {
    expect(isFree(b({ price: 0 }))).toBe(true);
    expect(isFree(b({ price: 0, blueprintPackId: 'p' }))).toBe(false);
  });
  it('labels states as the dashboard does', () => {
    expect(stateLabel('created')).toBe('Draft');
    expect(stateLabel('created', 'readyToSell')).toBe('Pending');
    expect(['available', 'active', 'printed'].map((s) => stateLabel(s as 'active'))).toEqual([
      'Active',
      'Active',
      'Active',
    ]);
    expect(stateLabel('printing')).toBe('Pending');
    expect(stateLabel('canceled')).toBe('Canceled');
    expect(stateLabel('soldOut')).toBe('Sold Out');
  });
});

describe('texts', () => {
  it('pads the series to two digits', () => {
    expect(seriesLabel(3)).toBe('#03');
    expect(seriesLabel(123)).toBe('#123');
  });
  it('writes history times without "about", with " ago"', () => {
    expect(timeAgo(new Date(Date.now() - 3 * 3_600_000))).toBe('3 hours ago');
    expect(timeAgo(new Date(Date.now() - 26 * 86_400_000))).toBe('26 days ago');
  });
  it('turns ISO date strings of answers into dates and leaves other strings', () => {
    const parsed = JSON.parse(
      '{"createdAt":"2026-11-22T10:00:00.000Z","at":"2026-11-22T10:00:00+01:00","day":"2026-11-22","name":"2026"}',
      reviveDates,
    );
    expect(parsed.createdAt).toEqual(new Date(Date.UTC(2026, 10, 22, 10)));
    expect(parsed.at).toBeInstanceOf(Date);
    expect(parsed.day).toBe('2026-11-22');
    expect(parsed.name).toBe('2026');
    expect(toDate('2026-01-01T00:00:00Z')).toEqual(new Date(Date.UTC(2026, 0, 1)));
  });
});

describe('what an item is offered at', () => {
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
  const b = (over: Partial<BlueprintJson>) => ({
    price: 2500,
    quantity: 10,
    quantityAvailable: 4,
    state: 'active' as const,
    blueprintPackId: null,
    pack: null,
    isPack: false as const,
    ...over,
  });
  it('a card of a pack: its pack, the pack’s price and editions left; never free', () => {
    expect(
      itemOffer(b({ price: 0, quantity: 500, quantityAvailable: 500, blueprintPackId: 'p1', pack })),
    ).toEqual({
      cardPrice: '$15',
      price: 1500,
      quantity: 500,
      quantityAvailable: 430,
      soldOut: false,
      pack: { id: 'p1', title: 'Booster Pack: Series 1' },
      inPack: true,
    });
    const soldOut = itemOffer(b({ blueprintPackId: 'p1', pack: { ...pack, quantityAvailable: 0 } }));
    expect(soldOut).toMatchObject({ soldOut: true, quantityAvailable: 0 });
    // A pack visitors cannot see offers nothing, and is not free either.
    expect(itemOffer(b({ price: 0, blueprintPackId: 'p1' }))).toMatchObject({
      cardPrice: '—',
      price: null,
      pack: null,
      soldOut: true,
      inPack: true,
    });
  });
  it('any other item: its own price ("free" only when claimed for free) and editions left', () => {
    expect(itemOffer(b({}))).toMatchObject({
      cardPrice: '$25',
      price: 2500,
      quantityAvailable: 4,
      inPack: false,
    });
    expect(itemOffer(b({ price: 0 })).cardPrice).toBe('free');
    expect(itemOffer(b({ state: 'soldOut' })).soldOut).toBe(true);
    expect(
      itemOffer({ price: 0, quantity: 1, quantityAvailable: 1, state: 'available', isPack: true }),
    ).toMatchObject({ cardPrice: '—', price: null });
  });
  it('counts the items that can be had now', () => {
    expect(availableText({ available: 12 })).toBe('12 items available');
    expect(availableText({ available: 1 })).toBe('1 item available');
    expect(availableText({ available: 0 })).toBe('0 items available');
    expect(availableText({ available: 10_000, availableCapped: true })).toBe('10,000+ items available');
  });
});
