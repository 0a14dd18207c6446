import { formatDistanceToNow } from 'date-fns';

/** History time-ago: date-fns distance with "about" removed and " ago" added. */
export function timeAgo(date: Date): string {
  return `${formatDistanceToNow(date).replace(/^about /, '')} ago`;
}
