import { Link } from '@tanstack/react-router';
import { lazy } from 'react';
import type { OfferRow } from '../../../machines/offerRows';
import { once } from '../../lazy';
import { Avatar, Button } from '../components';
import './offers.css';

/** The offer dialogs load when one opens. */
const loadDialogs = once(() => import('./OfferDialogs'));
export const OfferDialog = lazy(() => loadDialogs().then((m) => ({ default: m.OfferDialog })));
export type { OfferDialogRequest } from './OfferDialogs';

/**
 * Offers, one line each: the buyer (avatar and name), the amount, the item when `showItem` (a
 * profile's lists), when it expires, its status, and Accept or Cancel where the row allows it.
 */
export function OfferList({
  rows,
  label,
  showItem = false,
  onAccept,
  onCancel,
}: {
  rows: OfferRow[];
  label: string;
  showItem?: boolean;
  onAccept: (row: OfferRow) => void;
  onCancel: (row: OfferRow) => void;
}) {
  return (
    <ul className="vt-offers" aria-label={label}>
      {rows.map((row) => (
        <li key={row.offer.id}>
          <Avatar src={row.buyerAvatarUrl ?? undefined} seed={row.buyerSeed} alt="" size={32} />
          <span className="vt-offers__what">
            <span>
              <strong className="vt-offers__amount">{row.amount}</strong> from {row.buyer}
              {showItem && (
                <>
                  {' for '}
                  <Link to="/nft/$id" params={{ id: row.offer.nft.id }}>
                    {row.item}
                  </Link>
                </>
              )}
            </span>
            {/* Read on the server's clock, then on the browser's. */}
            {row.expires && (
              <span className="vt-muted" suppressHydrationWarning>
                {row.expires}
              </span>
            )}
          </span>
          <span className="vt-offers__status">{row.status}</span>
          {row.canAccept && (
            <Button size="sm" onClick={() => onAccept(row)}>
              Accept
            </Button>
          )}
          {row.canCancel && (
            <Button size="sm" variant="secondary" onClick={() => onCancel(row)}>
              Cancel offer
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}
