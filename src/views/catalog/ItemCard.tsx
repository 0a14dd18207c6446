import { Link } from '@tanstack/react-router';
import type { BlueprintJson, PackJson } from '#domain/catalog';
import { itemOffer } from '#domain/offer';
import { Avatar } from '../components/Avatar';
import { ImageLoader } from '../components/ImageLoader';
import './catalog.css';
import { FavoriteHeart } from './FavoriteHeart';

/** Grid cells are about 280 px wide at most; the image is 1000 px square. */
export const CARD_IMAGE_SIZES = '(max-width: 600px) 50vw, 280px';

/**
 * Item card: preview, title, creator meta, price ("free" only for a free item; a card of a pack
 * shows its pack's, marked "in pack") and edition count with its series padded to two digits (a
 * card of a pack: its pack's left); the whole card links to the item detail. A blueprint's card
 * carries its heart (FavoriteHeart) beside the link.
 */
export function ItemCard({ item, priority = false }: { item: BlueprintJson | PackJson; priority?: boolean }) {
  const image = 'coverImageUrl' in item ? item.coverImageUrl : item.previewImageUrl;
  const offer = itemOffer(item);
  const card = (
    <Link to="/nft/$id" params={{ id: item.id }} className="vt-item-card">
      <ImageLoader
        src={image}
        alt=""
        aspectRatio={1}
        radius="md"
        sizes={CARD_IMAGE_SIZES}
        priority={priority}
      />
      {item.storefront && (
        <span className="vt-item-card__creator">
          <Avatar
            src={item.storefront.logoUrl ?? undefined}
            seed={item.storefront.id}
            alt=""
            size={24}
            loading={priority ? 'eager' : 'lazy'}
          />
          <span>{item.storefront.name}</span>
        </span>
      )}
      <span className="vt-item-card__title">{item.title}</span>
      <span className="vt-item-card__meta">
        <strong>
          {offer.cardPrice}
          {offer.inPack && <span className="vt-muted"> · in pack</span>}
        </strong>
        <span className="vt-muted">
          {offer.soldOut
            ? 'Sold out'
            : `${String(offer.quantityAvailable).padStart(2, '0')}/${String(offer.quantity).padStart(2, '0')}`}
        </span>
      </span>
    </Link>
  );
  if (item.isPack) return card;
  return (
    <div className="vt-item-card-wrap">
      {card}
      <FavoriteHeart blueprintId={item.id} />
    </div>
  );
}

/** The cards of a grid's first row (on a wide screen): their images load first, not lazily. */
const FIRST_ROW = 4;

/** A grid of item cards. */
export function ItemGrid({ items, label }: { items: Array<BlueprintJson | PackJson>; label: string }) {
  return (
    <ul className="vt-item-grid" aria-label={label}>
      {items.map((item, i) => (
        <li key={item.id}>
          <ItemCard item={item} priority={i < FIRST_ROW} />
        </li>
      ))}
    </ul>
  );
}
