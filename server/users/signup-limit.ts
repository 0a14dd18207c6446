import type { Database } from '../db';
import { rateLimited } from '../http';
import { takeSlot } from '../rate-limit';

/**
 * Sign-ups per client address: a growing delay, never a block. The first SIGNUP_FREE_PER_HOUR
 * sign-ups of an address in an hour cost nothing; after that each next one must come at least
 * 1 s, 2 s, 4 s … (doubling, at most SIGNUP_MAX_DELAY_MS) after the previous one, or it is answered
 * 429 with Retry-After. Accounts cost nothing to make, so this is what keeps one address from
 * making hundreds of buyers in minutes; a household or office behind one address rarely notices.
 */
export const SIGNUP_FREE_PER_HOUR = 10;
export const SIGNUP_WINDOW_MS = 60 * 60_000;
export const SIGNUP_BASE_DELAY_MS = 1000;
export const SIGNUP_MAX_DELAY_MS = 10 * 60_000;

/** Counts a sign-up from `address`, or throws 429 (Retry-After) while the address must wait. */
export async function takeSignupSlot(db: Database, now: Date, address: string, freePerHour: number) {
  await takeSlot(
    db,
    now,
    [
      {
        key: `signup:address:${address}`,
        free: freePerHour,
        baseMs: SIGNUP_BASE_DELAY_MS,
        maxDelayMs: SIGNUP_MAX_DELAY_MS,
        windowMs: SIGNUP_WINDOW_MS,
      },
    ],
    (ms) =>
      rateLimited(
        ms,
        'Many accounts were created from your network just now. Please wait a moment and try again.',
      ),
  );
}
