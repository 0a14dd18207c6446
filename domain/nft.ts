import type { NftJson } from './responses/nfts';
import type { FreeClaimJson } from './schemas/checkout';

/** An NFT as the product API answers it: its schema is in domain/responses/nfts.ts. */
export type { NftJson, NftOwner } from './responses/nfts';

/**
 * An edition (series number) wherever a person reads it, on every page, notice and email: `#`
 * and the number padded to two digits at least (#03, #12, #140).
 */
export function seriesLabel(seriesNumber: number): string {
  return `#${String(seriesNumber).padStart(2, '0')}`;
}

/**
 * The edition a free claim minted, once minted: its NFT (its page) and its label. Null while the
 * claim is being minted.
 */
export function claimedEdition(claim: FreeClaimJson): { nftId: string; label: string } | null {
  const edition = claim.order.editions[0];
  if (!edition?.nftId || edition.serialNumber === null) return null;
  return { nftId: edition.nftId, label: `Edition ${seriesLabel(edition.serialNumber)}` };
}

/** A collectible can be sent on: it is neither listed for sale nor still minting. */
export const transferable = (nft: Pick<NftJson, 'activeSaleListing' | 'status'>) =>
  !nft.activeSaleListing && nft.status !== 'minting';

/** The NFT's title: its metadata's, else its blueprint number. */
export function nftTitle(nft: Pick<NftJson, 'metadata' | 'blueprintId' | 'blueprint'>): string {
  return nft.blueprint?.title || nft.metadata.title || nft.metadata.name || `Blueprint ${nft.blueprintId}`;
}

/** Its preview image URL: the blueprint's, else the one its metadata names. */
export function nftImage(nft: Pick<NftJson, 'metadata' | 'blueprint'>): string | null {
  return nft.blueprint?.previewImageUrl || nft.metadata.previewImageUrl || nft.metadata.image || null;
}

/** The resale terms: the blueprint's royalty and platform-fee rates (else what the NFT's metadata says). */
export function saleRates(nft: Pick<NftJson, 'metadata' | 'blueprint'>) {
  return {
    royaltyPercent: nft.blueprint?.royaltyPercent ?? Number(nft.metadata.royaltyPercent ?? 0),
    platformFeePercent: nft.blueprint?.totalFeePercent ?? Number(nft.metadata.totalFeePercent ?? 0),
  };
}

/** What the seller receives for a resale at `priceCents` after the royalty and platform-fee shares, in cents. */
export function sellerNetCents(
  priceCents: number,
  rates: { royaltyPercent: number; platformFeePercent: number },
): number {
  return Math.round(priceCents * (1 - (rates.royaltyPercent + rates.platformFeePercent) / 100));
}
