import { formatDistance } from 'date-fns';
import { toDate } from '#domain/dates';
import { formatUsd } from '#domain/money';
import { seriesLabel } from '#domain/nft';
import type { OfferJson } from '#domain/responses/offers';
import type { OfferStatus } from '#domain/schemas/offers';

/**
 * The view model of a list of offers (an NFT's Offers section, the profile's Offers tab): one row
 * per offer with its amount, buyer, expiry text and status, and what the viewer may do with it.
 * An offer still open or unfunded past its expiry (the server marks it expired within minutes)
 * already reads "Expired" and takes no action. The NFT's owner may accept an open offer (not an
 * unfunded one: the chain would refuse it); its buyer may cancel it while it stands.
 */
export interface OfferViewer {
  id: string;
  walletAddress: string | null;
}

export interface OfferRow {
  offer: OfferJson;
  amount: string;
  /** "@mina_kato", or the buyer's wallet address when they have no username. */
  buyer: string;
  buyerSeed: string;
  buyerAvatarUrl: string | null;
  /** The NFT: its title and edition ("Night Market #03"). */
  item: string;
  status: string;
  /** "expires in 3 days" while it stands, else null. */
  expires: string | null;
  canAccept: boolean;
  canCancel: boolean;
}

const statusLabels: Record<OfferStatus, string> = {
  open: 'Open',
  unfunded: 'No longer funded',
  accepted: 'Accepted',
  canceled: 'Canceled',
  expired: 'Expired',
};

const isParty = (party: OfferJson['buyer'], viewer: OfferViewer | null) =>
  !!viewer &&
  (party.id === viewer.id || (!!viewer.walletAddress && party.walletAddress === viewer.walletAddress));

/**
 * The rows of `offers` for `viewer` at `now`; `ownsNft` says whether the viewer owns the NFT now
 * (an NFT's page knows it), else each offer's owner is taken as the NFT's.
 */
export function offerRows(
  offers: readonly OfferJson[],
  viewer: OfferViewer | null,
  now: Date,
  ownsNft?: boolean,
): OfferRow[] {
  return offers.map((offer) => {
    const expiresAt = toDate(offer.expiresAt);
    const standing = (offer.status === 'open' || offer.status === 'unfunded') && expiresAt > now;
    const status: OfferStatus =
      !standing && offer.status !== 'accepted' && offer.status !== 'canceled' ? 'expired' : offer.status;
    const buyer = isParty(offer.buyer, viewer);
    const owner = ownsNft ?? isParty(offer.owner, viewer);
    return {
      offer,
      amount: formatUsd(offer.amount),
      buyer: offer.buyer.username ? `@${offer.buyer.username}` : offer.buyer.walletAddress,
      buyerSeed: offer.buyer.walletAddress,
      buyerAvatarUrl: offer.buyer.avatarUrl,
      item: `${offer.nft.title} ${seriesLabel(offer.nft.seriesNumber)}`,
      status: statusLabels[status],
      expires: standing ? `expires in ${formatDistance(expiresAt, now).replace(/^about /, '')}` : null,
      canAccept: standing && status === 'open' && owner && !buyer,
      canCancel: standing && buyer,
    };
  });
}
