import { type SQL, sql } from 'drizzle-orm';
import { onSaleNow } from '../blueprints/queries';
import type { Database, Executor } from '../db';
import {
  blueprints,
  MARKET_WHERE,
  nftPurchases,
  nfts,
  orderItems,
  orders,
  saleListings,
  storefrontStats,
  storefronts,
} from '../db/schema';

/**
 * The stats refresh: the summaries that storefront stats, the Trending sort and Home read, counted
 * from the sales at `now`. The job worker runs it every minute (STATS_REFRESH_MS), so a sale shows
 * within a minute and no page view aggregates sales.
 *
 * A sale is a recorded purchase with a price (nft_purchases: new editions once minted, resales,
 * accepted offers), at its purchase time, or an edition of a paid order not minted yet (captured,
 * minting: a pack's price split over its editions as splitCents does), at the order's time. Free
 * claims (0 cents) are not sales. Windows: the last 24 hours and 7 days up to `now`, and all time.
 */
export const STATS_REFRESH_MS = 60_000;

const DAY_MS = 24 * 3600_000;
/** The Trending key's sales unit: volume (cents) is capped below it, so it only breaks ties. */
const TREND_UNIT = 1_000_000_000_000;

/** Every sale since `since` up to `now` (flow blueprint id, cents, time); of one storefront when given. */
function salesOf(now: Date, since: Date | null, storefrontId: string | undefined): SQL {
  const after = (at: SQL) => (since ? sql`and ${at} > ${since.toISOString()}::timestamptz` : sql``);
  const ofStore = (flowId: SQL) =>
    storefrontId
      ? sql`and ${flowId} in (select ${blueprints.flowBlueprintId} from ${blueprints} where ${blueprints.storefrontId} = ${storefrontId})`
      : sql``;
  const at = sql`${now.toISOString()}::timestamptz`;
  return sql`
    select ${nfts.blueprintId} as flow_id, ${nftPurchases.amount} as amount, ${nftPurchases.purchasedOn} as at
    from ${nftPurchases} join ${nfts} on ${nfts.id} = ${nftPurchases.nftId}
    where ${nftPurchases.amount} > 0 and ${nftPurchases.purchasedOn} <= ${at} ${after(sql`${nftPurchases.purchasedOn}`)}
      ${ofStore(sql`${nfts.blueprintId}`)}
    union all
    select ${orderItems.flowBlueprintId},
      ${orders.amount} / count(*) over per_order
        + case when row_number() over (per_order order by ${orderItems.flowBlueprintId})
          <= ${orders.amount} % count(*) over per_order then 1 else 0 end,
      ${orders.createdAt}
    from ${orders} join ${orderItems} on ${orderItems.orderId} = ${orders.id}
    where ${orders.status} in ('captured', 'minting') and ${orders.amount} > 0 and ${orders.createdAt} <= ${at}
      ${after(sql`${orders.createdAt}`)} ${ofStore(sql`${orderItems.flowBlueprintId}`)}
    window per_order as (partition by ${orders.id})`;
}

/** Writes the storefronts' rows (one storefront's when given) as of `now`. */
async function refreshStorefronts(db: Executor, now: Date, storefrontId?: string) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const day = sql`${new Date(now.getTime() - DAY_MS).toISOString()}::timestamptz`;
  const week = sql`${new Date(now.getTime() - 7 * DAY_MS).toISOString()}::timestamptz`;
  const ofStore = storefrontId ? sql`and ${blueprints.storefrontId} = ${storefrontId}` : sql``;
  await db.execute(sql`
    with sales as (${salesOf(now, null, storefrontId)}),
    sold as (
      select ${blueprints.storefrontId} as id,
        count(*) filter (where s.at > ${day}) as sales_24h,
        coalesce(sum(s.amount) filter (where s.at > ${day}), 0) as volume_24h,
        count(*) filter (where s.at > ${week}) as sales_7d,
        coalesce(sum(s.amount) filter (where s.at > ${week}), 0) as volume_7d,
        count(*) as sales_all, sum(s.amount) as volume_all
      from sales s join ${blueprints} on ${blueprints.flowBlueprintId} = s.flow_id
      group by ${blueprints.storefrontId}),
    held as (
      select ${blueprints.storefrontId} as id, count(distinct ${nfts.owner}) as owners
      from ${nfts} join ${blueprints} on ${blueprints.flowBlueprintId} = ${nfts.blueprintId}
      where true ${ofStore}
      group by ${blueprints.storefrontId}),
    listed as (
      select ${blueprints.storefrontId} as id, count(distinct ${saleListings.nftId}) as listed,
        min(${saleListings.price}) filter (where ${sql.raw(MARKET_WHERE)}) as floor
      from ${saleListings} join ${nfts} on ${nfts.id} = ${saleListings.nftId}
        join ${blueprints} on ${blueprints.flowBlueprintId} = ${nfts.blueprintId}
      where ${saleListings.status} = 'active' ${ofStore}
      group by ${blueprints.storefrontId}),
    fresh as (
      select ${blueprints.storefrontId} as id, min(${blueprints.price}) as floor
      from ${blueprints}
      where ${blueprints.blueprintPackId} is null and ${blueprints.price} > 0 and ${onSaleNow(at)} ${ofStore}
      group by ${blueprints.storefrontId})
    insert into ${storefrontStats} (storefront_id, floor, volume_24h, sales_24h, volume_7d, sales_7d,
      volume_all, sales_all, owners, listed, refreshed_at)
    select ${storefronts.id}, least(listed.floor, fresh.floor),
      coalesce(sold.volume_24h, 0), coalesce(sold.sales_24h, 0), coalesce(sold.volume_7d, 0),
      coalesce(sold.sales_7d, 0), coalesce(sold.volume_all, 0), coalesce(sold.sales_all, 0),
      coalesce(held.owners, 0), coalesce(listed.listed, 0), ${at}
    from ${storefronts}
      left join sold on sold.id = ${storefronts.id} left join held on held.id = ${storefronts.id}
      left join listed on listed.id = ${storefronts.id} left join fresh on fresh.id = ${storefronts.id}
    ${storefrontId ? sql`where ${storefronts.id} = ${storefrontId}` : sql``}
    on conflict (storefront_id) do update set floor = excluded.floor,
      volume_24h = excluded.volume_24h, sales_24h = excluded.sales_24h,
      volume_7d = excluded.volume_7d, sales_7d = excluded.sales_7d,
      volume_all = excluded.volume_all, sales_all = excluded.sales_all,
      owners = excluded.owners, listed = excluded.listed, refreshed_at = excluded.refreshed_at`);
}

/**
 * Sets each blueprint's Trending key (blueprints.trending) from its sales of the last 24 hours,
 * writing only the rows whose key changes (those with recent sales, and those that had a key).
 */
async function refreshTrending(db: Executor, now: Date) {
  const since = new Date(now.getTime() - DAY_MS);
  await db.execute(sql`
    with recent as (
      select s.flow_id, count(*) as n, sum(s.amount) as volume
      from (${salesOf(now, since, undefined)}) s group by s.flow_id),
    keys as (
      select ${blueprints.id} as id,
        coalesce(recent.n * ${TREND_UNIT}::bigint + least(recent.volume, ${TREND_UNIT - 1}::bigint), 0) as key
      from ${blueprints} left join recent on recent.flow_id = ${blueprints.flowBlueprintId}
      where recent.flow_id is not null or ${blueprints.trending} <> 0)
    update ${blueprints} set trending = keys.key
    from keys where ${blueprints.id} = keys.id and ${blueprints.trending} <> keys.key`);
}

/** Refreshes every summary as of `now`, in one transaction (readers see one refresh or the next). */
export async function refreshStats(db: Database, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await refreshStorefronts(tx, now);
    await refreshTrending(tx, now);
  });
}

/** Counts one storefront's row now (a storefront newer than the last refresh has none yet). */
export async function refreshStorefrontStats(db: Executor, storefrontId: string, now: Date): Promise<void> {
  await refreshStorefronts(db, now, storefrontId);
}
