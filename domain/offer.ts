import type { BlueprintJson, PackJson, Page } from './catalog';
import { formatUsd } from './money';

/**
 * Where an item is on offer and at what: a blueprint of a pack is had only with its pack, so it
 * shows the pack's price and the pack's editions left (a pack sold mints one of each of its cards);
 * any other item its own. `price` is null for a blueprint of a pack visitors cannot see (nothing to
 * offer). Only a free item (price 0, not in a pack) reads "free".
 */
export interface ItemOffer {
  /** The price as cards show it: "free", "$15"; "—" when there is none to show. */
  cardPrice: string;
  /** Cents; null when the item is not on offer at any price. */
  price: number | null;
  quantity: number;
  quantityAvailable: number;
  /** None left to have (its pack's, for a card of a pack). */
  soldOut: boolean;
  /** The pack the item comes in, when it comes only in one. */
  pack: { id: string; title: string } | null;
  /** Sold only in a pack (whether or not visitors can see that pack). */
  inPack: boolean;
}
type OfferSource =
  | Pick<
      BlueprintJson,
      'price' | 'quantity' | 'quantityAvailable' | 'state' | 'blueprintPackId' | 'pack' | 'isPack'
    >
  | Pick<PackJson, 'price' | 'quantity' | 'quantityAvailable' | 'state' | 'isPack'>;

export function itemOffer(item: OfferSource): ItemOffer {
  if (!item.isPack && item.blueprintPackId) {
    const { pack } = item;
    return {
      cardPrice: pack ? formatUsd(pack.price) : '—',
      price: pack?.price ?? null,
      quantity: pack?.quantity ?? item.quantity,
      quantityAvailable: pack?.quantityAvailable ?? 0,
      soldOut: !pack || pack.quantityAvailable === 0 || pack.state === 'soldOut',
      pack: pack && { id: pack.id, title: pack.title },
      inPack: true,
    };
  }
  // A pack at no price is not on offer: packs are bought, never claimed.
  const unpriced = item.isPack && item.price === 0;
  return {
    cardPrice: unpriced ? '—' : item.price === 0 ? 'free' : formatUsd(item.price),
    price: unpriced ? null : item.price,
    quantity: item.quantity,
    quantityAvailable: item.quantityAvailable,
    soldOut: item.quantityAvailable === 0 || item.state === 'soldOut',
    pack: null,
    inPack: false,
  };
}

/** "12 items available": the items of a list that can be bought or claimed now. */
export function availableText(page: Pick<Page<unknown>, 'available' | 'availableCapped'>): string {
  const n = page.available ?? 0;
  const more = page.availableCapped ? '+' : '';
  return `${n.toLocaleString('en-US')}${more} ${n === 1 && !more ? 'item' : 'items'} available`;
}
