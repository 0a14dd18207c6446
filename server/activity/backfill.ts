import { sql } from 'drizzle-orm';
import type { Executor } from '../db';
import { activity } from '../db/schema';

/**
 * Activity for records made before the feed existed (a database upgraded to it, or a world seeded
 * in bulk): with the same keys the recorders use, so nothing is written twice. Mints go to the
 * NFT's first buyer (else its holder now) at the NFT's creation; listings at their listing time,
 * removed ones also as delistings at their end; purchases as sales (offers as offerAccepted) from the
 * listing's seller, or for a new edition from its storefront's owner.
 */
const BACKFILL = sql`
  insert into activity (key, kind, nft_id, blueprint_id, storefront_id, serial_number, price,
    from_address, to_address, from_user_id, to_user_id, transaction_id, occurred_at)
  select 'mint:' || n.id, 'mint'::activity_kind, n.id, b.id, b.storefront_id, n.serial_number, null,
    null::text, coalesce(p.wallet_address, n.owner), null::uuid, tu.id, p.transaction_id, n.created_at
  from nfts n
  left join blueprints b on b.flow_blueprint_id = n.blueprint_id
  left join lateral (select wallet_address, transaction_id from nft_purchases
    where nft_id = n.id and blockchain_listing_id is null order by purchased_on limit 1) p on true
  left join users tu on tu.wallet_address = coalesce(p.wallet_address, n.owner)
  where n.status <> 'minting'
  union all
  select 'listing:' || l.blockchain_listing_id, 'listing'::activity_kind, l.nft_id, b.id, b.storefront_id,
    n.serial_number, l.price, l.seller, null, fu.id, null, null, l.listed_on
  from sale_listings l
  left join nfts n on n.id = l.nft_id
  left join blueprints b on b.flow_blueprint_id = n.blueprint_id
  left join users fu on fu.wallet_address = l.seller
  union all
  select 'delisting:' || l.blockchain_listing_id, 'delisting'::activity_kind, l.nft_id, b.id, b.storefront_id,
    n.serial_number, l.price, l.seller, null, fu.id, null, null, coalesce(l.completed_on, l.updated_at)
  from sale_listings l
  left join nfts n on n.id = l.nft_id
  left join blueprints b on b.flow_blueprint_id = n.blueprint_id
  left join users fu on fu.wallet_address = l.seller
  where l.status = 'cancelled'
  union all
  select 'purchase:' || p.transaction_id,
    case when p.type = 'offer' then 'offerAccepted'::activity_kind else 'sale'::activity_kind end,
    p.nft_id, b.id, b.storefront_id, n.serial_number, p.amount,
    coalesce(l.seller, maker.wallet_address), p.wallet_address,
    coalesce(seller.id, case when p.blockchain_listing_id is null then maker.id end),
    coalesce(p.buyer_id, buyer.id), p.transaction_id, p.purchased_on
  from nft_purchases p
  left join nfts n on n.id = p.nft_id
  left join blueprints b on b.flow_blueprint_id = n.blueprint_id
  left join storefronts s on s.id = b.storefront_id
  left join users maker on maker.id = s.owner_id and p.blockchain_listing_id is null
  left join sale_listings l on l.blockchain_listing_id = p.blockchain_listing_id
  left join users seller on seller.wallet_address = l.seller
  left join users buyer on buyer.wallet_address = p.wallet_address
  on conflict (key) do nothing`;

/** Writes the activity of every record that lacks it (safe to repeat). */
export async function fillActivity(db: Executor): Promise<void> {
  await db.execute(BACKFILL);
}

/** Backfills the feed when it is empty (the first start after the upgrade); answers whether it ran. */
export async function backfillActivity(db: Executor): Promise<boolean> {
  const [any] = await db.select({ id: activity.id }).from(activity).limit(1);
  if (any) return false;
  await fillActivity(db);
  return true;
}
