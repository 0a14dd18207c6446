import { createHash } from 'node:crypto';
import { formatPrice } from '#domain/money';
import { seriesLabel } from '#domain/nft';
import type { BlueprintJson, PackJson, ShareImage } from '#domain/responses/catalog';

/**
 * What a share image (a link preview of an item or a storefront, server/og/) shows: exactly the text
 * it draws and the media it places. Its version is a hash of these and of the template's revision,
 * so any change to what it shows (title, price, editions left, artwork, storefront name or logo)
 * names a new image, and an unchanged item keeps its image and its URL.
 */
export interface ShareCard {
  title: string;
  /** The price as shown: "$25", "$12.50", "Free", or "Sold out" when no edition is left. */
  price: string | null;
  /** A line under the title: a storefront's description, an owned NFT's edition. */
  note: string | null;
  /** The artwork: a /media/ URL of the media store. */
  artwork: string | null;
  /** The storefront that sells it (none on a storefront's own image). */
  storefront: { name: string; logoUrl: string | null } | null;
}

export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;

/** Bumped whenever the template (server/og/render.tsx) draws differently: every image is made anew. */
const TEMPLATE_REVISION = 1;

/** A storefront's description on its image: at most this many characters. */
const NOTE_MAX = 160;

/** The version of a card: 16 hex digits of the SHA-256 of what it shows and the template's revision. */
export function cardVersion(card: ShareCard): string {
  return createHash('sha256')
    .update(JSON.stringify([TEMPLATE_REVISION, card]))
    .digest('hex')
    .slice(0, 16);
}

/** A version as the `v` query parameter carries it. */
export const VERSION_PATTERN = /^[0-9a-f]{16}$/;

/** Where the image of an item page /nft/{id} is served. */
export const itemImagePath = (id: string) => `/og/nft/${encodeURIComponent(id)}.png`;
/** Where the image of a storefront page /s/{vanityUrl} is served. */
export const storefrontImagePath = (vanityUrl: string) => `/og/s/${encodeURIComponent(vanityUrl)}.png`;

/** The versioned URL of a card's image, as the API answers carry it (`shareImage`). */
export const shareImage = (path: string, card: ShareCard): ShareImage => ({
  url: `${path}?v=${cardVersion(card)}`,
  width: SHARE_IMAGE_WIDTH,
  height: SHARE_IMAGE_HEIGHT,
});

const storefrontOf = (s: { name: string; logoUrl: string | null } | null) =>
  s && { name: s.name, logoUrl: s.logoUrl };

/**
 * A blueprint's card. A blueprint sold in a pack is bought at its pack's price, and has editions
 * left while its pack does.
 */
export function blueprintCard(b: Omit<BlueprintJson, 'shareImage'>): ShareCard {
  const soldOut = b.pack ? b.pack.quantityAvailable === 0 : b.isSoldOut;
  return {
    title: b.title,
    price: soldOut ? 'Sold out' : formatPrice(b.pack ? b.pack.price : b.price),
    note: null,
    artwork: b.previewImageUrl,
    storefront: storefrontOf(b.storefront),
  };
}

export function packCard(p: Omit<PackJson, 'shareImage' | 'blueprints'>): ShareCard {
  const soldOut = p.state === 'soldOut' || p.quantityAvailable === 0;
  return {
    title: p.title,
    price: soldOut ? 'Sold out' : formatPrice(p.price),
    note: null,
    artwork: p.coverImageUrl,
    storefront: storefrontOf(p.storefront),
  };
}

/**
 * An NFT's card: its blueprint's title and artwork (or the chain metadata's name when no blueprint
 * of ours describes it), its edition, and its resale price while it is listed.
 */
export function nftCard(n: {
  id: string;
  blueprint: Pick<BlueprintJson, 'title' | 'previewImageUrl' | 'storefront'> | null;
  serialNumber: number;
  metadata: Record<string, string>;
  activeSaleListing: { price: number } | null;
}): ShareCard {
  return {
    title: n.blueprint?.title ?? n.metadata.name ?? `NFT ${n.id}`,
    price: n.activeSaleListing ? formatPrice(n.activeSaleListing.price) : null,
    note: `Edition ${seriesLabel(n.serialNumber)}`,
    artwork: n.blueprint?.previewImageUrl ?? null,
    storefront: storefrontOf(n.blueprint?.storefront ?? null),
  };
}

/** A storefront's card: its name, logo (or banner) and the start of its description. */
export function storefrontCard(s: {
  name: string;
  logoUrl: string | null;
  bannerUrl: string | null;
  description: string;
}): ShareCard {
  const text = s.description.replace(/\s+/g, ' ').trim();
  return {
    title: s.name,
    price: null,
    note: text.length > NOTE_MAX ? `${text.slice(0, NOTE_MAX - 1).trimEnd()}…` : text || null,
    artwork: s.logoUrl ?? s.bannerUrl,
    storefront: null,
  };
}
