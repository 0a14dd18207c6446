import * as v from 'valibot';
import {
  blueprintStates,
  blueprintStatuses,
  blueprintTypes,
  packStates,
  packTypes,
  rarityLevels,
  reportReasons,
  reportStatuses,
  storefrontCategories,
  storefrontThemes,
} from '../enums';
import { Count, DateTime, Num, pageOf } from './common';
import { StorefrontStats } from './stats';

/** Catalog entities as the product API answers them (money in cents). */

/**
 * A page's link preview image (GET /og/...): its URL carries the version of what it shows, so it may
 * be cached for good; 1200 × 630 pixels.
 */
export const ShareImage = v.object({ url: v.string(), width: Count, height: Count });
export type ShareImage = v.InferOutput<typeof ShareImage>;

export const StorefrontSummary = v.object({
  id: v.string(),
  name: v.string(),
  logoUrl: v.nullable(v.string()),
  theme: v.picklist(storefrontThemes),
  vanityUrl: v.string(),
  category: v.nullable(v.picklist(storefrontCategories)),
});
export type StorefrontSummary = v.InferOutput<typeof StorefrontSummary>;

export const StorefrontJson = v.object({
  ...StorefrontSummary.entries,
  description: v.string(),
  font: v.nullable(v.string()),
  bannerUrl: v.nullable(v.string()),
  contactEmail: v.nullable(v.string()),
  enabled: v.boolean(),
  ownerId: v.string(),
  createdAt: DateTime,
  /** Item previews for cards (browse storefronts), at most 5. */
  previews: v.pipe(
    v.array(v.object({ id: v.string(), title: v.string(), previewImageUrl: v.nullable(v.string()) })),
    v.maxLength(5),
  ),
  blueprintCount: Count,
  /** The storefront page's link preview image. */
  shareImage: ShareImage,
});
export type StorefrontJson = v.InferOutput<typeof StorefrontJson>;

/** What a blueprint of a pack tells of its pack: the one way to get it, at the pack's price. */
export const PackSummary = v.object({
  id: v.string(),
  title: v.string(),
  price: Count,
  quantity: Count,
  quantityAvailable: Count,
  state: v.picklist(packStates),
  availableTime: v.nullable(DateTime),
  coverImageUrl: v.nullable(v.string()),
});
export type PackSummary = v.InferOutput<typeof PackSummary>;

export const BlueprintJson = v.object({
  id: v.string(),
  blueprintId: v.string(),
  flowBlueprintId: v.string(),
  title: v.string(),
  description: v.string(),
  assetUrl: v.nullable(v.string()),
  previewImageUrl: v.nullable(v.string()),
  quantity: Count,
  quantityAvailable: Count,
  price: Count,
  royaltyPercent: Num,
  totalFeePercent: Num,
  rarityLevel: v.picklist(rarityLevels),
  state: v.picklist(blueprintStates),
  status: v.nullable(v.picklist(blueprintStatuses)),
  visible: v.boolean(),
  availableTime: v.nullable(DateTime),
  createdAt: DateTime,
  drop: v.boolean(),
  type: v.picklist(blueprintTypes),
  blueprintPackId: v.nullable(v.string()),
  /**
   * The pack the blueprint is sold in (only with it), while visitors may see that pack; null for a
   * blueprint sold on its own, or whose pack is hidden.
   */
  pack: v.nullable(PackSummary),
  storefront: v.nullable(StorefrontSummary),
  isSticker: v.boolean(),
  isPack: v.literal(false),
  isNft: v.boolean(),
  isDrop: v.boolean(),
  isPrinted: v.boolean(),
  isSoldOut: v.boolean(),
  isInPack: v.boolean(),
  /** The item page's link preview image; null in an answer without the storefront. */
  shareImage: v.nullable(ShareImage),
});
export type BlueprintJson = v.InferOutput<typeof BlueprintJson>;

export const PackJson = v.object({
  id: v.string(),
  title: v.string(),
  description: v.string(),
  coverImageUrl: v.nullable(v.string()),
  blueprints: v.array(BlueprintJson),
  price: Count,
  quantity: Count,
  quantityAvailable: Count,
  royaltyPercent: Num,
  totalFeePercent: Num,
  rarityLevel: v.picklist(rarityLevels),
  state: v.picklist(packStates),
  type: v.picklist(packTypes),
  availableTime: v.nullable(DateTime),
  drop: v.boolean(),
  isPack: v.literal(true),
  storefront: v.nullable(StorefrontSummary),
  /** The item page's link preview image. */
  shareImage: ShareImage,
});
export type PackJson = v.InferOutput<typeof PackJson>;

/** GET /blueprints: the total (and `available`) are exact up to the API's cap (10,000). */
export const BlueprintPage = v.object({
  ...pageOf(BlueprintJson).entries,
  /** The total reached the cap: there are at least that many. */
  totalCapped: v.boolean(),
  /** Of the total, how many can be bought or claimed now (asked with countAvailable=true). */
  available: v.optional(Count),
  /** `available` reached the cap. */
  availableCapped: v.optional(v.boolean()),
});
export type BlueprintPage = v.InferOutput<typeof BlueprintPage>;

/** GET storefronts: each storefront with its stats (domain/responses/stats.ts). */
export const StorefrontPage = pageOf(v.object({ ...StorefrontJson.entries, stats: StorefrontStats }));
export type StorefrontPage = v.InferOutput<typeof StorefrontPage>;
export const PackPage = pageOf(PackJson);

export const StorefrontReport = v.object({
  id: v.string(),
  storefrontId: v.string(),
  reason: v.picklist(reportReasons),
  description: v.string(),
  status: v.picklist(reportStatuses),
  createdAt: DateTime,
});

/** A storefront's public link and share links for social networks. */
export const ShareLinks = v.object({
  url: v.string(),
  text: v.string(),
  links: v.object({
    twitter: v.string(),
    facebook: v.string(),
    telegram: v.string(),
    linkedin: v.string(),
    email: v.string(),
  }),
});
export type ShareLinks = v.InferOutput<typeof ShareLinks>;
