import type { BlueprintJson, PackJson, StorefrontJson } from './catalog';
import { formatUsd } from './money';
import { type NftJson, nftTitle, seriesLabel } from './nft';
import { itemOffer } from './offer';

/**
 * What a page tells search engines and link previews about itself (its `<head>`): a title, a short
 * description, its canonical path (on the canonical origin), the share image and, for items and
 * storefronts, structured data (schema.org JSON-LD). Signed-in and sign-in pages are `noindex`.
 */
export interface PageHead {
  title: string;
  description: string;
  /** The canonical path ("/nft/{id}"): og:url and `<link rel="canonical">` on the canonical origin. */
  path?: string;
  /** The 1200 × 630 share image's path. */
  image?: string;
  /** og:type. */
  type?: 'website' | 'product' | 'profile';
  /** Search engines leave the page out (signed-in and sign-in pages). */
  noindex?: boolean;
  /** schema.org data, without its @context. */
  jsonLd?: Record<string, unknown>;
}

const SITE = 'Vitrine';
/** Every share image is this size (og:image:width and og:image:height). */
export const SHARE_IMAGE = { width: 1200, height: 630 } as const;
/** The share image of a page without one of its own. */
export const DEFAULT_SHARE_IMAGE = '/og.png';
/** A description is cut to this many characters (search engines show about 155). */
const DESCRIPTION_MAX = 155;

/** "Harbor Lights · Vitrine". */
const titled = (name: string) => `${name} · ${SITE}`;

/** The text cut at a word to DESCRIPTION_MAX characters, with an ellipsis when cut; blank lines become spaces. */
export function shortText(text: string, max = DESCRIPTION_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > max / 2 ? cut.lastIndexOf(' ') : cut.length)}…`;
}

/**
 * The default head: the home page's, and every page's without its own. index.html carries the same
 * title and description, so a page the browser renders itself adopts them instead of adding its own.
 */
export const defaultHead: PageHead = {
  title: `${SITE} — digital collectibles marketplace`,
  description:
    'Vitrine: collect, sell and showcase digital collectibles on Flow. Creators run their own storefronts.',
};

/** The public pages without data of their own. */
export const staticHeads = {
  '/': { ...defaultHead, path: '/' },
  '/marketplace': {
    title: titled('Marketplace'),
    description: 'Every digital collectible on sale on Vitrine: filter by price, category and rarity.',
    path: '/marketplace',
  },
  '/storefronts': {
    title: titled('Storefronts'),
    description: 'Browse the creators’ storefronts on Vitrine by name and category.',
    path: '/storefronts',
  },
  '/creators': {
    title: titled('For creators'),
    description:
      'Open your own storefront on Vitrine and sell digital collectibles on Flow, by card or crypto.',
    path: '/creators',
  },
  '/drops': {
    title: titled('Drops'),
    description: 'Timed releases of new digital collectibles on Vitrine: coming soon.',
    path: '/drops',
  },
  '/terms': {
    title: titled('Terms of service'),
    description: 'The terms of using Vitrine, the digital collectibles marketplace on Flow.',
    path: '/terms',
  },
  '/privacy': {
    title: titled('Privacy policy'),
    description: 'What Vitrine collects about you, why, and how to have it changed or deleted.',
    path: '/privacy',
  },
} satisfies Record<string, PageHead>;

/** The head of a page for a signed-in user or of signing in: the default, left out of search engines. */
export const privateHead = (title: string): PageHead => ({
  ...defaultHead,
  title: titled(title),
  noindex: true,
});

/** The Not Found page's head. */
export const notFoundHead = privateHead('Page not found');

/**
 * An item's head (/nft/{id} of a blueprint or pack): its title and price, its storefront as brand
 * and a schema.org Product (its URLs on `origin`, the canonical origin) with one Offer: the price in USD (from cents), InStock while editions
 * are left, else SoldOut. An item with no price on offer (a card of a pack visitors cannot see, a
 * pack without a price) has no Offer.
 */
export function itemHead(item: BlueprintJson | PackJson, origin: string): PageHead {
  const offer = itemOffer(item);
  const storefront = item.storefront;
  const price = offer.price === null ? null : offer.price === 0 ? 'Free' : formatUsd(offer.price);
  const by = storefront ? ` by ${storefront.name}` : '';
  const left = offer.soldOut
    ? 'Sold out'
    : `${offer.quantityAvailable.toLocaleString('en-US')} of ${offer.quantity.toLocaleString('en-US')} left`;
  const summary = [price, left].filter(Boolean).join(' · ');
  const path = `/nft/${item.id}`;
  // The versioned image of the answer (a new URL when what it shows changes); a card listed without
  // its storefront has none, and its page's unversioned image stands.
  const itemImage = item.shareImage?.url ?? `/og/nft/${item.id}.png`;
  return {
    title: titled(price ? `${item.title} · ${price}` : item.title),
    description: shortText(
      `${summary}. ${item.title}${by} on Vitrine.${item.description ? ` ${item.description}` : ''}`,
    ),
    path,
    image: itemImage,
    type: 'product',
    jsonLd: {
      '@type': 'Product',
      name: item.title,
      ...(item.description && { description: shortText(item.description, 500) }),
      url: `${origin}${path}`,
      image: `${origin}${itemImage}`,
      ...(storefront && { brand: { '@type': 'Brand', name: storefront.name } }),
      ...(offer.price !== null && {
        offers: {
          '@type': 'Offer',
          price: (offer.price / 100).toFixed(2),
          priceCurrency: 'USD',
          availability: `https://schema.org/${offer.soldOut ? 'SoldOut' : 'InStock'}`,
          url: `${origin}${path}`,
        },
      }),
    },
  };
}

/** An owned NFT's head (/nft/{token id}): its title and edition, and its resale price when listed. */
export function nftHead(nft: NftJson): PageHead {
  const title = `${nftTitle(nft)} ${seriesLabel(nft.seriesNumber)}`;
  const listing = nft.activeSaleListing;
  const price = listing ? `For sale at ${formatUsd(listing.price)}` : 'Not for sale';
  return {
    title: titled(listing ? `${title} · ${formatUsd(listing.price)}` : title),
    description: shortText(
      `${price}. Edition ${seriesLabel(nft.seriesNumber)} of ${nftTitle(nft)}, a digital collectible on Flow, on Vitrine.`,
    ),
    path: `/nft/${nft.id}`,
    image: nft.shareImage.url,
    type: 'product',
  };
}

/** A storefront's head (/s/{vanityUrl}): its name and description, and a schema.org CollectionPage. */
export function storefrontHead(storefront: StorefrontJson, itemCount: number, origin: string): PageHead {
  const path = `/s/${storefront.vanityUrl}`;
  const items = `${itemCount.toLocaleString('en-US')} ${itemCount === 1 ? 'item' : 'items'}`;
  return {
    title: titled(storefront.name),
    description: shortText(
      storefront.description ||
        `${storefront.name}: a creator’s storefront of digital collectibles on Vitrine, ${items}.`,
    ),
    path,
    image: storefront.shareImage.url,
    type: 'profile',
    jsonLd: {
      '@type': 'CollectionPage',
      name: storefront.name,
      ...(storefront.description && { description: shortText(storefront.description, 500) }),
      url: `${origin}${path}`,
      image: `${origin}${storefront.shareImage.url}`,
      numberOfItems: itemCount,
    },
  };
}
