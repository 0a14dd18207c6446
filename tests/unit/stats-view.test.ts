import { describe, expect, it } from 'vitest';
import type { HomeTrending } from '#domain/responses/home';
import type { StorefrontStats } from '#domain/responses/stats';
import { homeTrendingView, storefrontCardStats, storefrontStatsBar } from '#domain/statsView';

/** What the storefront page, Browse storefronts and Home show of sales figures. */
const stats: StorefrontStats = {
  storefrontId: 's1',
  floor: 1250,
  volume24h: 2000,
  volume7d: 123_456,
  volumeAllTime: 10_000_000,
  sales24h: 2,
  sales7d: 9,
  salesAllTime: 400,
  owners: 1234,
  listed: 7,
  updatedAt: '2026-11-28T20:00:00.000Z',
};

describe('sales figures as shown', () => {
  it('the storefront page’s bar: floor, volumes in dollars, owners and listed', () => {
    expect(storefrontStatsBar(stats)).toEqual([
      { label: 'Floor', value: '$12.50' },
      { label: '24h volume', value: '$20' },
      { label: '7d volume', value: '$1,234.56' },
      { label: 'All-time volume', value: '$100,000' },
      { label: 'Owners', value: '1,234' },
      { label: 'Listed', value: '7' },
    ]);
    expect(storefrontStatsBar({ ...stats, floor: null })[0]).toEqual({ label: 'Floor', value: '—' });
  });

  it('a Browse storefronts card: all-time volume and floor', () => {
    expect(storefrontCardStats({ ...stats, floor: null })).toEqual([
      { label: 'Volume', value: '$100,000' },
      { label: 'Floor', value: '—' },
    ]);
  });

  it('Home’s lists: items with price and storefront, storefronts ranked with the week’s volume', () => {
    const lists = {
      items: [
        {
          id: 'b1',
          title: 'Dune',
          previewImageUrl: '/media/a.png',
          price: 2500,
          storefront: { name: 'Aria' },
        },
        { id: 'b2', title: 'Free one', previewImageUrl: null, price: 0, storefront: null },
      ],
      storefronts: [
        { storefront: { id: 's1', name: 'Aria', vanityUrl: 'aria', logoUrl: null }, stats },
        {
          storefront: { id: 's2', name: 'Bo', vanityUrl: 'bo', logoUrl: '/l.png' },
          stats: { ...stats, floor: null },
        },
      ],
      updatedAt: '2026-11-28T20:00:00.000Z',
    } as unknown as HomeTrending;
    expect(homeTrendingView(lists)).toEqual({
      items: [
        { id: 'b1', title: 'Dune', image: '/media/a.png', storefront: 'Aria', price: '$25' },
        { id: 'b2', title: 'Free one', image: null, storefront: '', price: 'Free' },
      ],
      storefronts: [
        {
          id: 's1',
          rank: '1',
          name: 'Aria',
          vanityUrl: 'aria',
          volume: '$1,234.56 this week',
          floor: 'Floor $12.50',
        },
        {
          id: 's2',
          rank: '2',
          name: 'Bo',
          vanityUrl: 'bo',
          volume: '$1,234.56 this week',
          floor: 'Floor —',
        },
      ],
    });
    expect(homeTrendingView(null)).toEqual({ items: [], storefronts: [] });
  });
});
