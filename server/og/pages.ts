import { and, eq } from 'drizzle-orm';
import { PUBLIC_STATES } from '#domain/products';
import {
  blueprintJson,
  packJson,
  packSummaryColumns,
  publicPackOf,
  storefrontSummary,
} from '../catalog/json';
import type { Executor } from '../db';
import { blueprintPacks, blueprints, nfts, saleListings, storefronts } from '../db/schema';
import { storefrontByIdOrVanityUrl } from '../storefronts/queries';
import { blueprintCard, nftCard, packCard, type ShareCard, storefrontCard } from './card';

/**
 * What the share image of a public page shows, or null when visitors may not see the page (the
 * image is then a 404 too). `page` names the folder its images are stored under.
 */
export interface SharedPage {
  page: string;
  card: ShareCard;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN_ID = /^\d{1,20}$/;

/** A storefront visitors may see: enabled (an admin's suspension disables it too). */
const shown = (s: { enabled: boolean; suspended: boolean }) => s.enabled && !s.suspended;

/**
 * The item page /nft/{id}: an NFT by its chain token id, shown while its storefront is (an NFT
 * Vitrine knows no blueprint of is shown by its chain metadata); else a blueprint by uuid, shown
 * while visible, in a public state, of a shown storefront; else a pack by uuid, shown while visible,
 * past its draft, of a shown storefront. Each card is made from the same answer the page reads
 * (server/catalog/json.ts), so its version is the one that answer's `shareImage` names.
 */
export async function itemPage(db: Executor, id: string): Promise<SharedPage | null> {
  if (TOKEN_ID.test(id)) return nftPage(db, id);
  if (!UUID.test(id)) return null;
  const [row] = await db
    .select({ blueprint: blueprints, storefront: storefronts, pack: packSummaryColumns })
    .from(blueprints)
    .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
    .leftJoin(blueprintPacks, publicPackOf)
    .where(eq(blueprints.id, id));
  if (row) {
    const { blueprint: b, storefront } = row;
    if (!b.visible || !PUBLIC_STATES.includes(b.state) || !shown(storefront)) return null;
    return { page: `nft/${b.id}`, card: blueprintCard(blueprintJson(b, storefront, row.pack)) };
  }
  const [pack] = await db
    .select({ pack: blueprintPacks, storefront: storefronts })
    .from(blueprintPacks)
    .innerJoin(storefronts, eq(storefronts.id, blueprintPacks.storefrontId))
    .where(eq(blueprintPacks.id, id));
  if (!pack?.pack.visible || pack.pack.state === 'created' || !shown(pack.storefront)) return null;
  return { page: `nft/${pack.pack.id}`, card: packCard(packJson(pack.pack, pack.storefront, [])) };
}

/** An NFT with its blueprint and storefront (when known) and its owner's active listing (server/nfts/json.ts). */
async function nftPage(db: Executor, id: string): Promise<SharedPage | null> {
  const [row] = await db
    .select({ nft: nfts, blueprint: blueprints, storefront: storefronts, listingPrice: saleListings.price })
    .from(nfts)
    .leftJoin(blueprints, eq(blueprints.flowBlueprintId, nfts.blueprintId))
    .leftJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
    .leftJoin(
      saleListings,
      and(
        eq(saleListings.nftId, nfts.id),
        eq(saleListings.status, 'active'),
        eq(saleListings.seller, nfts.owner),
      ),
    )
    .where(eq(nfts.id, id))
    .limit(1);
  if (!row) return null;
  const { nft, blueprint, storefront, listingPrice } = row;
  if (storefront && !shown(storefront)) return null;
  const card = nftCard({
    id: nft.id,
    serialNumber: nft.serialNumber,
    metadata: nft.metadata,
    blueprint:
      blueprint && storefront
        ? {
            title: blueprint.title,
            previewImageUrl: blueprint.previewImageUrl,
            storefront: storefrontSummary(storefront),
          }
        : null,
    activeSaleListing: listingPrice === null ? null : { price: listingPrice },
  });
  return { page: `nft/${nft.id}`, card };
}

/** The storefront page /s/{vanityUrl} (or by id), while the storefront is shown. */
export async function storefrontPage(db: Executor, key: string): Promise<SharedPage | null> {
  const row = await storefrontByIdOrVanityUrl(db, key);
  if (!row || !shown(row)) return null;
  return { page: `s/${row.id}`, card: storefrontCard(row) };
}
