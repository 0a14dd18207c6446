import { formatPrice, formatUsd } from './money';
import type { HomeTrending } from './responses/home';
import type { StorefrontStats } from './responses/stats';

/**
 * What the screens show of sales figures (GET storefronts/{id}/stats, home/trending): labels and
 * texts, money in US dollars. A storefront with nothing for sale has no floor ("—").
 */

export interface StatText {
  label: string;
  value: string;
}

const floorText = (floor: number | null) => (floor === null ? '—' : formatUsd(floor));
const countText = (n: number) => n.toLocaleString('en-US');

/** The storefront page's stats bar: floor, volume over 24 h, 7 d and all time, owners, listed. */
export function storefrontStatsBar(s: StorefrontStats): StatText[] {
  return [
    { label: 'Floor', value: floorText(s.floor) },
    { label: '24h volume', value: formatUsd(s.volume24h) },
    { label: '7d volume', value: formatUsd(s.volume7d) },
    { label: 'All-time volume', value: formatUsd(s.volumeAllTime) },
    { label: 'Owners', value: countText(s.owners) },
    { label: 'Listed', value: countText(s.listed) },
  ];
}

/** A Browse storefronts card's figures: all-time volume and floor. */
export function storefrontCardStats(s: StorefrontStats): StatText[] {
  return [
    { label: 'Volume', value: formatUsd(s.volumeAllTime) },
    { label: 'Floor', value: floorText(s.floor) },
  ];
}

/** Home's "Trending now" and "Top storefronts this week": each shown only when it lists something. */
export function homeTrendingView(lists: HomeTrending | null | undefined) {
  return {
    items: (lists?.items ?? []).map((item) => ({
      id: item.id,
      title: item.title,
      image: item.previewImageUrl,
      storefront: item.storefront?.name ?? '',
      price: formatPrice(item.price),
    })),
    storefronts: (lists?.storefronts ?? []).map(({ storefront, stats }, i) => ({
      id: storefront.id,
      rank: String(i + 1),
      name: storefront.name,
      vanityUrl: storefront.vanityUrl,
      volume: `${formatUsd(stats.volume7d)} this week`,
      floor: `Floor ${floorText(stats.floor)}`,
    })),
  };
}
