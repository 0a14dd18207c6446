import { and, eq, getTableColumns, inArray, ne, sql } from 'drizzle-orm';
import type {
  BlueprintJson,
  PackJson,
  PackSummary,
  StorefrontJson,
  StorefrontSummary,
} from '#domain/catalog';
import type { Executor } from '../db';
import { isoText } from '../db/rows';
import { blueprintPacks, blueprints, storefronts } from '../db/schema';
import {
  blueprintCard,
  itemImagePath,
  packCard,
  shareImage,
  storefrontCard,
  storefrontImagePath,
} from '../og/card';

/** Rows of the catalog tables as the API answers them (money in cents, times as ISO text). */
export type StorefrontRow = typeof storefronts.$inferSelect;
export type BlueprintRow = typeof blueprints.$inferSelect;
export type PackRow = typeof blueprintPacks.$inferSelect;

/** Some of an object's properties, by name. */
function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, from[key]])) as Pick<T, K>;
}

/** The storefront columns a summary shows: a list selects only these. */
export const storefrontSummaryColumns = pick(getTableColumns(storefronts), [
  'id',
  'name',
  'logoUrl',
  'theme',
  'vanityUrl',
  'category',
]);
export type StorefrontSummaryRow = Pick<StorefrontRow, keyof typeof storefrontSummaryColumns>;

/**
 * The blueprint columns its answer shows (all but its storefront's id, the copies of its
 * storefront's category and state, and the update time), its times as the ISO text it shows: a list
 * selects only these, since reading and mapping columns nobody shows costs CPU on every search.
 */
export const blueprintCardColumns = {
  ...pick(getTableColumns(blueprints), [
    'id',
    'flowBlueprintId',
    'title',
    'description',
    'assetUrl',
    'previewImageUrl',
    'quantity',
    'quantityAvailable',
    'price',
    'royaltyPercent',
    'totalFeePercent',
    'rarityLevel',
    'state',
    'status',
    'visible',
    'drop',
    'type',
    'blueprintPackId',
  ]),
  availableTime: isoText(blueprints.availableTime),
  createdAt: isoText(blueprints.createdAt),
};
type CardTimes = 'availableTime' | 'createdAt';
/** A list's card row: its times as ISO text. */
export type BlueprintCardRow = Pick<BlueprintRow, Exclude<keyof typeof blueprintCardColumns, CardTimes>> & {
  availableTime: string | null;
  createdAt: string;
};
/** What a card is made from: a list's card row, or a whole row with its times as Dates. */
type CardSource = Omit<BlueprintCardRow, CardTimes> & {
  availableTime: Date | string | null;
  createdAt: Date | string;
};
const iso = (time: Date | string) => (typeof time === 'string' ? time : time.toISOString());

/**
 * The pack columns a blueprint of a pack shows of it (its time as ISO text), and the join that finds
 * that pack while visitors may see it (visible, past its draft): a hidden pack is no pack to offer.
 */
export const packSummaryColumns = {
  ...pick(getTableColumns(blueprintPacks), [
    'id',
    'title',
    'price',
    'quantity',
    'quantityAvailable',
    'state',
    'coverImageUrl',
  ]),
  availableTime: isoText(blueprintPacks.availableTime),
};
export type PackSummaryRow = Omit<PackSummary, 'availableTime'> & { availableTime: string | Date | null };
export const publicPackOf = and(
  eq(blueprintPacks.id, blueprints.blueprintPackId),
  eq(blueprintPacks.visible, true),
  ne(blueprintPacks.state, 'created'),
)!;

/** A pack row as its blueprints show it. */
export const packSummary = (p: PackRow): PackSummaryRow => ({
  id: p.id,
  title: p.title,
  price: p.price,
  quantity: p.quantity,
  quantityAvailable: p.quantityAvailable,
  state: p.state,
  coverImageUrl: p.coverImageUrl,
  availableTime: p.availableTime,
});

export const storefrontSummary = (s: StorefrontSummaryRow): StorefrontSummary => ({
  id: s.id,
  name: s.name,
  logoUrl: s.logoUrl,
  theme: s.theme,
  vanityUrl: s.vanityUrl,
  category: s.category,
});

/** A blueprint's answer; `pack` is the pack it is sold in, when visitors may see that pack. */
export function blueprintJson(
  b: CardSource,
  storefront: StorefrontSummaryRow | null,
  pack: PackSummaryRow | null = null,
): BlueprintJson {
  const isSticker = b.type === 'sticker' || b.type === 'stickerInPack';
  const json: Omit<BlueprintJson, 'shareImage'> = {
    id: b.id,
    blueprintId: b.id,
    flowBlueprintId: String(b.flowBlueprintId),
    title: b.title,
    description: b.description,
    assetUrl: b.assetUrl,
    previewImageUrl: b.previewImageUrl,
    quantity: b.quantity,
    quantityAvailable: b.quantityAvailable,
    price: b.price,
    royaltyPercent: b.royaltyPercent,
    totalFeePercent: b.totalFeePercent,
    rarityLevel: b.rarityLevel,
    state: b.state,
    status: b.status,
    visible: b.visible,
    availableTime: b.availableTime === null ? null : iso(b.availableTime),
    createdAt: iso(b.createdAt),
    drop: b.drop,
    type: b.type,
    blueprintPackId: b.blueprintPackId,
    pack:
      pack && b.blueprintPackId === pack.id
        ? { ...pack, availableTime: pack.availableTime && iso(pack.availableTime) }
        : null,
    storefront: storefront ? storefrontSummary(storefront) : null,
    isSticker,
    isPack: false,
    isNft: !isSticker,
    isDrop: b.drop,
    isPrinted: b.state === 'printed',
    isSoldOut: b.state === 'soldOut' || b.quantityAvailable === 0,
    isInPack: !!b.blueprintPackId,
  };
  // Its image shows its storefront: an answer without the storefront cannot name that image.
  return { ...json, shareImage: storefront && shareImage(itemImagePath(b.id), blueprintCard(json)) };
}

export function packJson(p: PackRow, storefront: StorefrontRow | null, items: BlueprintJson[]): PackJson {
  const json: Omit<PackJson, 'shareImage'> = {
    id: p.id,
    title: p.title,
    description: p.description,
    coverImageUrl: p.coverImageUrl,
    blueprints: items,
    price: p.price,
    quantity: p.quantity,
    quantityAvailable: p.quantityAvailable,
    royaltyPercent: p.royaltyPercent,
    totalFeePercent: p.totalFeePercent,
    rarityLevel: p.rarityLevel,
    state: p.state,
    type: p.type,
    availableTime: p.availableTime?.toISOString() ?? null,
    drop: p.drop,
    isPack: true,
    storefront: storefront ? storefrontSummary(storefront) : null,
  };
  return { ...json, shareImage: shareImage(itemImagePath(p.id), packCard(json)) };
}

/** Storefront rows by id, for joining onto blueprints and packs. */
export async function storefrontsById(db: Executor, ids: string[]): Promise<Map<string, StorefrontRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select().from(storefronts).where(inArray(storefronts.id, unique));
  return new Map(rows.map((r) => [r.id, r]));
}

/** A storefront with its card extras: up to five visible item previews and its blueprint count. */
export async function storefrontJson(db: Executor, s: StorefrontRow): Promise<StorefrontJson> {
  const previews = await db
    .select({ id: blueprints.id, title: blueprints.title, previewImageUrl: blueprints.previewImageUrl })
    .from(blueprints)
    .where(and(eq(blueprints.storefrontId, s.id), eq(blueprints.visible, true)))
    .orderBy(sql`${blueprints.createdAt} desc`)
    .limit(5);
  const [{ n }] = (await db
    .select({ n: sql<number>`count(*)::int` })
    .from(blueprints)
    .where(and(eq(blueprints.storefrontId, s.id), eq(blueprints.visible, true)))) as [{ n: number }];
  return {
    ...storefrontSummary(s),
    description: s.description,
    font: s.font,
    bannerUrl: s.bannerUrl,
    contactEmail: s.contactEmail,
    enabled: s.enabled,
    ownerId: s.ownerId,
    createdAt: s.createdAt.toISOString(),
    previews,
    blueprintCount: Number(n),
    shareImage: shareImage(storefrontImagePath(s.vanityUrl), storefrontCard(s)),
  };
}
