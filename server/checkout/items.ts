import { asc, eq } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import type { CheckoutItem } from '#domain/schemas/checkout';
import type { Executor } from '../db';
import { blueprintPacks, blueprints, storefronts } from '../db/schema';
import { apiError, notFound } from '../http';
/** What a checkout sells (a blueprint or a pack) and whether it can be bought or claimed now. */

export interface CheckoutItemRecord {
  kind: CheckoutItem['kind'];
  id: string;
  title: string;
  price: number;
  storefrontId: string;
  quantityAvailable: number;
  /** On sale now (state, type, visibility, storefront, available time); free items too. */
  onSale: boolean;
  /** Listed for sale as it would be on sale, but its state is soldOut: no edition is left. */
  soldOut: boolean;
  /** Price 0 and not in a pack: claimed, never bought. */
  free: boolean;
  /**
   * Its editions were printed ahead of the sale: the FUSD balance pays only an active resale listing
   * of it, never a new edition.
   */
  printed: boolean;
  /** The blueprints whose next edition the order mints, in chain id order. */
  blueprints: { id: string; flowBlueprintId: number; title: string }[];
}

const live = (availableTime: Date | null, now: Date) => availableTime === null || availableTime <= now;

/** The item with what decides whether it can be bought or claimed; undefined when unknown. */
export async function findCheckoutItem(
  db: Executor,
  item: CheckoutItem,
  now: Date,
): Promise<CheckoutItemRecord | undefined> {
  if (item.kind === 'blueprint') {
    const [row] = await db
      .select({ b: blueprints, enabled: storefronts.enabled })
      .from(blueprints)
      .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
      .where(eq(blueprints.id, item.id));
    if (!row) return undefined;
    const { b } = row;
    // A blueprint of a pack is sold only with its pack.
    const listed =
      b.blueprintPackId === null &&
      (b.type === 'standalone' || b.type === 'sticker') &&
      b.visible &&
      row.enabled &&
      live(b.availableTime, now);
    const onSale = listed && (b.state === 'active' || b.state === 'printed');
    return {
      kind: 'blueprint',
      id: b.id,
      title: b.title,
      price: b.price,
      storefrontId: b.storefrontId,
      quantityAvailable: b.quantityAvailable,
      onSale,
      soldOut: listed && b.state === 'soldOut',
      free: b.price === 0 && b.blueprintPackId === null,
      printed: b.state === 'printed',
      blueprints: [{ id: b.id, flowBlueprintId: b.flowBlueprintId, title: b.title }],
    };
  }
  const [row] = await db
    .select({ p: blueprintPacks, enabled: storefronts.enabled })
    .from(blueprintPacks)
    .innerJoin(storefronts, eq(storefronts.id, blueprintPacks.storefrontId))
    .where(eq(blueprintPacks.id, item.id));
  if (!row) return undefined;
  const { p } = row;
  const members = await db
    .select({ id: blueprints.id, flowBlueprintId: blueprints.flowBlueprintId, title: blueprints.title })
    .from(blueprints)
    .where(eq(blueprints.blueprintPackId, p.id))
    .orderBy(asc(blueprints.flowBlueprintId));
  const listed = p.price > 0 && p.visible && row.enabled && live(p.availableTime, now) && members.length > 0;
  return {
    kind: 'pack',
    id: p.id,
    title: p.title,
    price: p.price,
    storefrontId: p.storefrontId,
    quantityAvailable: p.quantityAvailable,
    onSale: listed && (p.state === 'available' || p.state === 'printed'),
    soldOut: listed && p.state === 'soldOut',
    free: false,
    printed: p.state === 'printed',
    blueprints: members,
  };
}

/** Can be bought by card: on sale and not free. */
export const purchasable = (item: CheckoutItemRecord) => item.onSale && !item.free;
/**
 * Refuses an item that cannot be bought now: 409 SOLD_OUT when its state says no edition is left,
 * else 400 NOT_PURCHASABLE when it is not on sale (or free: claimed, not bought).
 */
export function assertPurchasable(item: CheckoutItemRecord): void {
  if (item.soldOut && !item.free) throw apiError(409, ErrorCode.SOLD_OUT);
  if (!purchasable(item)) throw apiError(400, ErrorCode.NOT_PURCHASABLE);
}

/** Can be claimed for free: on sale and free. */
export const claimable = (item: CheckoutItemRecord) => item.onSale && item.free;

/** What a purchase of a new edition names (domain/schemas/newEdition.ts): exactly one of the ids. */
interface NewEditionRequest {
  blueprintId?: string;
  blueprintPackId?: string;
  expectedPrice: number;
}

/** The blueprint or pack a purchase of a new edition names: 404 when there is none. */
export async function itemOfPurchase(db: Executor, body: NewEditionRequest, now: Date) {
  const ref = body.blueprintPackId
    ? { kind: 'pack' as const, id: body.blueprintPackId }
    : { kind: 'blueprint' as const, id: body.blueprintId! };
  const item = await findCheckoutItem(db, ref, now);
  if (!item) throw notFound();
  return item;
}

/**
 * The check of a new edition's purchase: the item exists (404), can be bought now (SOLD_OUT,
 * NOT_PURCHASABLE) at the price the buyer saw (409 PRICE_CHANGED).
 */
export async function checkNewEdition(db: Executor, body: NewEditionRequest, now: Date) {
  const item = await itemOfPurchase(db, body, now);
  assertPurchasable(item);
  if (item.price !== body.expectedPrice) throw apiError(409, ErrorCode.PRICE_CHANGED);
  return item;
}
