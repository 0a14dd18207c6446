import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { TimelineEntry } from '../../../machines/checkoutFailed';
import { Button, Spinner } from '../components';

/**
 * The parts of the pages a payment ends on when it did not complete (a failed card order, a
 * canceled crypto charge): the outcome (a spinner while loading; the reason, with Try again when it
 * could not load), the order's timeline, and the way back.
 */
export function OutcomeReason({
  loading,
  error,
  reason,
  canRetry,
  retry,
}: {
  loading: boolean;
  error: boolean;
  reason: string;
  canRetry: boolean;
  retry: () => void;
}) {
  return (
    <>
      {loading ? (
        <>
          <Spinner size="lg" label={reason} />
          <p className="vt-lead" aria-hidden="true">
            {reason}
          </p>
        </>
      ) : (
        <p className={error ? 'vt-form-error' : 'vt-lead'} role="alert">
          {reason}
        </p>
      )}
      {canRetry && (
        <div>
          <Button onClick={retry}>Try again</Button>
        </div>
      )}
    </>
  );
}

export function OrderTimeline({ timeline }: { timeline: TimelineEntry[] }) {
  if (timeline.length === 0) return null;
  return (
    <>
      <h2>Timeline</h2>
      <ol className="vt-checkout-failed__timeline" aria-label="Order timeline">
        {timeline.map((entry) => (
          <li key={`${entry.label}-${entry.dateTime}`}>
            <strong>{entry.label}</strong>
            {entry.detail && <span>{entry.detail}</span>}
            <time dateTime={entry.dateTime}>{entry.time}</time>
          </li>
        ))}
      </ol>
    </>
  );
}

/** Back to the item (when the order names one) and to the marketplace, with any other way on first. */
export function WayBack({ itemId, children }: { itemId: string | null; children?: ReactNode }) {
  return (
    <div className="vt-actions">
      {children}
      {itemId && (
        <Link className="vt-button vt-button--primary" to="/nft/$id" params={{ id: itemId }}>
          Back to the item
        </Link>
      )}
      <Link className="vt-button vt-button--secondary" to="/marketplace">
        Back to marketplace
      </Link>
    </div>
  );
}
