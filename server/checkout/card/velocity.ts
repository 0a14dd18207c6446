import type { Database } from '../../db';
import { takeSlot } from '../../rate-limit';

/**
 * Card checks per account and per client address, against card testing (trying stolen numbers,
 * expiry dates and CVVs one after another): every request that asks the card provider to verify or
 * charge a card (saving a card, paying with a new or saved card, Apple Pay, Google Pay) counts,
 * whatever its answer. At most CARD_CHECKS_PER_ACCOUNT per account in 10 minutes and
 * CARD_CHECKS_PER_ADDRESS per address in an hour; past either, 429 RATE_LIMITED with Retry-After,
 * and the provider is not asked. A repeated request (same idempotency key) is not a new check.
 */
export const CARD_CHECKS_PER_ACCOUNT = 5;
export const CARD_ACCOUNT_WINDOW_MS = 10 * 60_000;
export const CARD_CHECKS_PER_ADDRESS = 20;
export const CARD_ADDRESS_WINDOW_MS = 60 * 60_000;

/** Counts one card check of `userId` from `address`, or throws 429 while either limit is full. */
export function takeCardCheck(db: Database, now: Date, userId: string, address: string): Promise<void> {
  return takeSlot(db, now, [
    { key: `card:account:${userId}`, max: CARD_CHECKS_PER_ACCOUNT, windowMs: CARD_ACCOUNT_WINDOW_MS },
    { key: `card:address:${address}`, max: CARD_CHECKS_PER_ADDRESS, windowMs: CARD_ADDRESS_WINDOW_MS },
  ]);
}
