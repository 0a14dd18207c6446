import { type HistoryItem, historyAction } from '#domain/catalog';
import { toDate } from '#domain/dates';
import { timeAgo } from '#domain/time';
import { Avatar } from '../components/Avatar';
import './nft.css';

/**
 * The History tab of an item or of one NFT: one line per creation or purchase, newest first, with
 * who (name and avatar), the edition and how long ago.
 */
export function History({ items }: { items: HistoryItem[] }) {
  if (items.length === 0) return <p className="vt-muted">No history yet.</p>;
  return (
    <ol className="vt-history" aria-label="History">
      {items.map((h) => (
        <li key={h.id}>
          <Avatar src={h.user.avatarUrl ?? undefined} seed={h.user.seed} alt="" size={32} />
          <span>
            <strong>{h.user.name}</strong> {historyAction(h)}
          </span>
          {/* Read on the server's clock, then on the browser's. */}
          <span className="vt-muted vt-history__when" suppressHydrationWarning>
            {timeAgo(toDate(h.createdAt))}
          </span>
        </li>
      ))}
    </ol>
  );
}
