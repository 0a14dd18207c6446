import { and, desc, eq, inArray, or, type SQL } from 'drizzle-orm';
import type {
  WertChargeJson,
  WertChargeListQuery,
  WertChargeStatus,
  WertItemInfo,
  WertSignedData,
} from '#domain/schemas/wert';
import type { Executor } from '../../db';
import { blueprintPacks, blueprints, orders, storefronts, wertCharges } from '../../db/schema';
import { orderJson } from '../order-json';
import { findOrder, type OrderRow } from '../orders';
import { CANCELLABLE, OPEN, PAID_STATUSES, type WertChargeRow } from './wert';
/** Reading on-ramp charges: the buyer's own, their list, and the JSON the routes answer. */

/** The charge by id, with whose it is (the routes answer 404 for another buyer's, as for none). */
export async function findWertCharge(db: Executor, id: string) {
  const [row] = await db.select().from(wertCharges).where(eq(wertCharges.id, id));
  return row;
}

export async function listWertCharges(db: Executor, buyerId: string, query: WertChargeListQuery) {
  const items: SQL[] = [];
  if (query.blueprintIds?.length)
    items.push(and(eq(orders.itemKind, 'blueprint'), inArray(orders.itemId, query.blueprintIds))!);
  if (query.blueprintPackIds?.length)
    items.push(and(eq(orders.itemKind, 'pack'), inArray(orders.itemId, query.blueprintPackIds))!);
  const rows = await db
    .select({ charge: wertCharges })
    .from(wertCharges)
    .innerJoin(orders, eq(orders.id, wertCharges.orderId))
    .where(
      and(
        eq(wertCharges.buyerId, buyerId),
        query.statuses?.length ? inArray(wertCharges.status, query.statuses) : undefined,
        items.length ? or(...items) : undefined,
      ),
    )
    .orderBy(desc(wertCharges.createdAt))
    .limit(50);
  return rows.map((r) => r.charge);
}

/** A link the widget can load: absolute http(s), or a path of ours made absolute. */
function absolute(url: string | null, publicUrl: string): string | undefined {
  if (!url) return undefined;
  if (/^https?:\/\//.test(url)) return url;
  return url.startsWith('/') ? `${publicUrl.replace(/\/+$/, '')}${url}` : undefined;
}

/** What the widget shows of the item (`extra.item_info`; the name at most 40 characters). */
export async function itemInfoOf(db: Executor, order: OrderRow, publicUrl: string): Promise<WertItemInfo> {
  const [row] =
    order.itemKind === 'pack'
      ? await db
          .select({ image: blueprintPacks.coverImageUrl, shop: storefronts.name })
          .from(blueprintPacks)
          .leftJoin(storefronts, eq(storefronts.id, blueprintPacks.storefrontId))
          .where(eq(blueprintPacks.id, order.itemId))
      : await db
          .select({ image: blueprints.previewImageUrl, shop: storefronts.name })
          .from(blueprints)
          .leftJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
          .where(eq(blueprints.id, order.itemId));
  const image = absolute(row?.image ?? null, publicUrl);
  return {
    name: order.title.slice(0, 40),
    ...(image ? { image_url: image } : {}),
    ...(row?.shop ? { author: row.shop } : {}),
    seller: 'Vitrine',
    category: order.itemKind === 'pack' ? 'Pack' : 'Collectible',
  };
}

export async function wertChargeJson(
  db: Executor,
  row: WertChargeRow,
  ctx: { partnerId: string; origin: string; publicUrl: string; now: Date },
): Promise<WertChargeJson> {
  const order = (await findOrder(db, row.orderId))!;
  const open = order.status === 'created' && order.expiresAt > ctx.now;
  return {
    id: row.id,
    clickId: row.id,
    status: row.status as WertChargeStatus,
    partnerId: ctx.partnerId,
    origin: ctx.origin,
    signedData: row.signedData as unknown as WertSignedData,
    itemInfo: await itemInfoOf(db, order, ctx.publicUrl),
    amount: row.amount,
    walletAddress: row.walletAddress,
    providerOrderId: row.providerOrderId,
    txId: row.txId,
    unresolved: open && OPEN.has(row.status),
    success:
      PAID_STATUSES.has(row.status) &&
      !['refunded', 'expired', 'canceled', 'declined'].includes(order.status),
    cancellable: open && CANCELLABLE.has(row.status),
    fusdTransactionId: row.fusdTransactionId,
    expiresAt: order.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    order: await orderJson(db, order),
  };
}
