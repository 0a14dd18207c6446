import type { BlueprintState, BlueprintStatus, PackState, RarityLevel, StorefrontCategory } from './enums';
import { seriesLabel } from './nft';
import type { BlueprintJson } from './responses/catalog';
import type { HistoryEntry } from './schemas/history';

/** Catalog entities as the product API answers them: their schemas are in domain/responses/catalog.ts. */
export type {
  BlueprintJson,
  PackJson,
  PackSummary,
  StorefrontJson,
  StorefrontSummary,
} from './responses/catalog';
/** A history entry (domain/schemas/history.ts). */
export type HistoryItem = HistoryEntry;
/** What a history entry says happened: "created this item", "created edition #02", "bought edition #02". */
export function historyAction(h: Pick<HistoryItem, 'type' | 'seriesNumber'>): string {
  const edition = h.seriesNumber === null ? null : `edition ${seriesLabel(h.seriesNumber)}`;
  if (h.type === 'creation') return edition ? `created ${edition}` : 'created this item';
  return `bought ${edition ?? 'an edition'}`;
}
export interface Page<T> {
  results: T[];
  total: number;
  /** The total reached the API's cap (10,000): there are at least that many. */
  totalCapped?: boolean;
  /** Of the total, how many can be bought or claimed now (a blueprint list asked to count them). */
  available?: number;
  /** `available` reached the API's cap (10,000). */
  availableCapped?: boolean;
}

/** "Active" means active or printed. */
export const isActiveState = (state: BlueprintState) => state === 'active' || state === 'printed';

/**
 * Whether a blueprint can be bought: a standalone or sticker one while active (or printed); any other
 * type while active, printed or sold out, and only with a price above 0.
 */
export function isPurchasable(b: Pick<BlueprintJson, 'type' | 'state' | 'price'>): boolean {
  if (b.type === 'standalone' || b.type === 'sticker') return isActiveState(b.state);
  return (isActiveState(b.state) || b.state === 'soldOut') && b.price > 0;
}

/** A blueprint with price 0 and not in a pack is free and is claimed instead of bought. */
export const isFree = (b: Pick<BlueprintJson, 'price' | 'blueprintPackId'>) =>
  b.price === 0 && !b.blueprintPackId;

/**
 * The dashboard's label of a state: created is Draft (Pending once it has a status, i.e. on its way
 * to the chain); available, active and printed are Active; printing is Pending; canceled is Canceled;
 * soldOut is Sold Out.
 */
export function stateLabel(state: BlueprintState | PackState, status?: BlueprintStatus | null): string {
  if (state === 'created' && status) return 'Pending';
  switch (state) {
    case 'created':
      return 'Draft';
    case 'available':
    case 'active':
    case 'printed':
      return 'Active';
    case 'printing':
      return 'Pending';
    case 'canceled':
      return 'Canceled';
    case 'soldOut':
      return 'Sold Out';
    default:
      return 'Unknown';
  }
}

export const categoryLabels: Record<StorefrontCategory, string> = {
  collectibles: 'Collectibles',
  digitalArt: 'Digital art',
  fashion: 'Fashion',
  filmTv: 'Film & TV',
  gaming: 'Gaming',
  music: 'Music',
  photography: 'Photography',
  sports: 'Sports',
  tradingCards: 'Trading cards',
  virtualRealEstate: 'Virtual real estate',
};

export const rarityLabels: Record<RarityLevel, string> = {
  common: 'Common',
  uncommon: 'Uncommon',
  rare: 'Rare',
  ultraRare: 'Ultra rare',
  legendary: 'Legendary',
  unknown: 'Unknown',
};

/** The preview asset is a video when its URL names an mp4. */
export const isVideo = (url: string | null | undefined) => !!url && /\.mp4(\?|$)/i.test(url);
