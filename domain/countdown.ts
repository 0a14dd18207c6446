import { COUNTDOWN_DAYS_ABOVE_HOURS } from './constants';

/**
 * Blueprint countdowns: before its availableTime a blueprint shows a countdown, a day count above 99
 * hours, otherwise hours:minutes:seconds. A drop that is not live yet labels its price "price",
 * everything else "from".
 */

const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The text of a countdown `remainingMs` before the drop. Seconds round up, so the last second reads
 * "00:00:01" and "00:00:00" only shows once the time has come. Above 99 hours: whole days ("4 days").
 * Below: "HH:MM:SS", hours going past 24 ("98:59:59").
 */
export function countdownText(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  if (total > COUNTDOWN_DAYS_ABOVE_HOURS * HOUR_S) {
    const days = Math.floor(total / DAY_S);
    return `${days} ${days === 1 ? 'day' : 'days'}`;
  }
  const hours = Math.floor(total / HOUR_S);
  const minutes = Math.floor((total % HOUR_S) / 60);
  const seconds = total % 60;
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
}

/** Milliseconds from `now` until `availableTime`; 0 (already there) without an availableTime. */
export function remainingUntil(availableTime: number | null, now: number): number {
  return availableTime === null ? 0 : availableTime - now;
}

/** The label before a blueprint's price: "price" for a drop that is not live yet, otherwise "from". */
export function priceLabel({ drop, live }: { drop: boolean; live: boolean }): 'price' | 'from' {
  return drop && !live ? 'price' : 'from';
}
