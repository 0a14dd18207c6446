import { type BlueprintJson, isFree, isPurchasable, type PackJson } from './catalog';
import { priceLabel } from './countdown';
import { formatUsd } from './money';
import { claimedEdition, type NftJson } from './nft';
import { itemOffer } from './offer';
import type { FreeClaimJson } from './schemas/checkout';

/**
 * The item page's view model (/nft/{id} of a blueprint or pack): its price line, the editions left,
 * the way to get it (the checkout; a blueprint sold only in a pack, its pack; a free item the user
 * claimed, nothing more) and the note under it.
 */
export interface ItemPageInput {
  item: BlueprintJson | PackJson;
  /** Resale listings of the blueprint, cheapest first. */
  listings: NftJson[];
  /** The signed-in user's claim of this item, if they made one. */
  claim: FreeClaimJson | null;
  /** A drop's countdown has ended (or it has none). */
  live: boolean;
  loggedIn: boolean;
}
export interface ItemPageView {
  /** "from Free", "price $40", or for a blueprint of a pack "Only in" its pack at the pack's price. */
  price: { label: string; value: string; pack: { id: string; title: string } | null };
  /** "430/500": the editions left of the item, or of its pack. */
  available: string;
  /** The pack a blueprint comes only in: a link to it, "Get Booster Pack: Series 1 · $15". */
  packLink: { id: string; label: string } | null;
  /** The button that opens the checkout (disabled when nothing can be had); null for none. */
  action: { label: string; enabled: boolean } | null;
  /** The user claimed this free item; its edition once minted ("Your edition #03"; null while minted). */
  claimed: { edition: { nftId: string; label: string } | null } | null;
  note: string;
  /** A new edition can be bought or claimed now. */
  onSale: boolean;
  /** Claimed, not bought: price 0 and not in a pack. */
  free: boolean;
  /**
   * The action asks the visitor to sign up instead of opening the checkout: a visitor is never
   * checked out (the checkout's first rule), so the checkout's code is not fetched for one.
   */
  asksToSignUp: boolean;
}

const count = (left: number, of: number) => `${left.toLocaleString('en-US')}/${of.toLocaleString('en-US')}`;

export function itemPageView(input: ItemPageInput): ItemPageView {
  return { ...offerView(input), asksToSignUp: !input.loggedIn };
}

/** The view but whether the action asks to sign up. */
function offerView({
  item,
  listings,
  claim,
  live,
  loggedIn,
}: ItemPageInput): Omit<ItemPageView, 'asksToSignUp'> {
  const offer = itemOffer(item);
  const cheapest = listings[0]?.activeSaleListing ?? null;
  const resold = `${listings.length} ${listings.length === 1 ? 'edition is' : 'editions are'}`;
  // What the server sells: a pack with a price and blueprints; a blueprint not in a pack.
  const purchasable = item.isPack
    ? (item.state === 'available' || item.state === 'printed') && item.price > 0 && item.blueprints.length > 0
    : isPurchasable(item) && !item.blueprintPackId;
  const onSale = purchasable && live && item.quantityAvailable > 0;
  const free = !item.isPack && isFree(item);
  const available = count(offer.quantityAvailable, offer.quantity);
  // The resale listings stay on offer whatever the new editions do.
  const resale = cheapest && { label: `Buy now · ${formatUsd(cheapest.price)}`, enabled: true };

  if (offer.inPack) {
    const { pack } = offer;
    return {
      price: { label: 'Only in', value: pack ? offer.cardPrice : 'a pack', pack },
      available,
      packLink: pack && { id: pack.id, label: `Get ${pack.title} · ${offer.cardPrice}` },
      action: resale,
      claimed: null,
      note: pack
        ? `Sold only in ${pack.title}: buying the pack mints this card and the pack's other cards to your wallet.`
        : 'Sold only in a pack that is not on sale.',
      onSale: false,
      free: false,
    };
  }
  const price = {
    label: priceLabel({ drop: item.drop, live }),
    value: item.price === 0 ? 'Free' : formatUsd(item.price),
    pack: null,
  };
  if (free && claim) {
    const minted = claimedEdition(claim);
    const edition = minted && { nftId: minted.nftId, label: `Your ${minted.label.toLowerCase()}` };
    return {
      price,
      available,
      packLink: null,
      action: { label: 'Claimed', enabled: false },
      claimed: { edition },
      note: edition
        ? 'You claimed this item; it is in your collection.'
        : 'You claimed this item: your edition is being minted to your wallet.',
      onSale: false,
      free,
    };
  }
  const action =
    onSale || resale
      ? {
          label: onSale ? (free ? 'Claim for free' : `Buy now · ${formatUsd(item.price)}`) : resale!.label,
          enabled: true,
        }
      : { label: item.quantityAvailable === 0 ? 'Sold out' : 'Buy now', enabled: false };
  const note =
    item.quantityAvailable === 0
      ? cheapest
        ? `Sold out. ${resold} for sale by collectors.`
        : 'Sold out. Editions come back on sale when their owners list them.'
      : !live
        ? 'This drop opens when the countdown ends.'
        : !loggedIn
          ? 'Sign in to buy. Bought editions are minted to your wallet.'
          : cheapest
            ? `${resold} also for sale by collectors.`
            : free
              ? 'Free to claim: the edition is minted to your wallet.'
              : 'Pay by card or with crypto; the edition is minted to your wallet.';
  return { price, available, packLink: null, action, claimed: null, note, onSale, free };
}
