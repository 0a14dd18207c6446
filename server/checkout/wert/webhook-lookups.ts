import type { Database } from '../../db';
import type { OnrampOrder } from '../../payments/onramp-provider';
import { takeSlot } from '../../rate-limit';

/**
 * What an unsigned webhook may cost the provider. Anyone can post one, and each we act on makes us
 * ask the provider's Data API for the order (with our partner key, which the provider rate-limits),
 * so the asking is coalesced and throttled. A delivery for an unknown charge asks nothing.
 *
 * Coalescing (in each server's memory, per charge):
 * - A delivery for a charge whose lookup is in flight, or was answered less than LOOKUP_REUSE_MS
 *   (5 s) ago, reads that answer instead of asking again (so 50 copies of an event at once ask once).
 * - A shared answer that confirms the delivery's claim (its provider order and event type) applies
 *   it. One that does not refuses nothing: the provider's order may have moved since it was read.
 *   The delivery then asks the provider itself, unless its very claim was already asked about in the
 *   last 5 s; such a repeat is answered 429 with Retry-After. The provider retries a delivery it
 *   was not answered 2xx for (Wert: after 5 minutes, 1, 2, 4 and 8 hours), and the retry, past the
 *   5 s, asks afresh: a true event is applied then, never refused on an old answer.
 *
 * Throttle (rate_events, shared by every server): at most LOOKUPS_PER_CHARGE (30) lookups per charge
 * in an hour and LOOKUPS_PER_ADDRESS (120) per client address in a minute; beyond either, 429
 * RATE_LIMITED with Retry-After and the provider is not asked. A real order's webhooks (at most
 * eight event types, each retried five times over 15 hours) stay far below 30 an hour; the address
 * limit leaves the provider's own delivery addresses 120 lookups a minute (some 40 on-ramp
 * purchases a minute), and is the one to raise if the on-ramp outgrows that.
 */
export const LOOKUP_REUSE_MS = 5_000;
export const LOOKUPS_PER_CHARGE = 30;
export const LOOKUP_CHARGE_WINDOW_MS = 60 * 60_000;
export const LOOKUPS_PER_ADDRESS = 120;
export const LOOKUP_ADDRESS_WINDOW_MS = 60_000;

/** Counts one lookup for `chargeId` asked from `address`, or throws 429 while either limit is full. */
export function takeWertLookup(db: Database, now: Date, chargeId: string, address: string): Promise<void> {
  return takeSlot(db, now, [
    { key: `wert-webhook:charge:${chargeId}`, max: LOOKUPS_PER_CHARGE, windowMs: LOOKUP_CHARGE_WINDOW_MS },
    { key: `wert-webhook:address:${address}`, max: LOOKUPS_PER_ADDRESS, windowMs: LOOKUP_ADDRESS_WINDOW_MS },
  ]);
}

interface Lookup {
  orders: Promise<OnrampOrder[]>;
  /** When it was answered (ms); null while in flight. */
  answeredAt: number | null;
}

interface ChargeLookups {
  latest: Lookup | null;
  /** The claims asked about, and when (ms). */
  asked: Map<string, number>;
}

export type LookupResult =
  /** The provider's order confirming the claim, or none (only ever from this delivery's own lookup). */
  | { kind: 'answer'; confirmed: OnrampOrder | undefined }
  /** A repeat of a claim asked about less than 5 s ago, which that answer did not confirm. */
  | { kind: 'repeat'; retryAfterMs: number };

/** The in-process shared lookups of one server (see the module comment). */
export function createWertLookups(clock: () => Date) {
  const charges = new Map<string, ChargeLookups>();
  const ms = () => clock().getTime();
  const fresh = (lookup: Lookup | null, now: number) =>
    lookup !== null && (lookup.answeredAt === null || now - lookup.answeredAt < LOOKUP_REUSE_MS);

  /** What no delivery may read or repeat any more goes. */
  function prune(now: number) {
    for (const [id, entry] of charges) {
      for (const [claim, at] of entry.asked) if (now - at >= LOOKUP_REUSE_MS) entry.asked.delete(claim);
      if (!fresh(entry.latest, now)) entry.latest = null;
      if (entry.latest === null && entry.asked.size === 0) charges.delete(id);
    }
  }

  /**
   * The provider's answer for one delivery claiming `claim` about `chargeId`: a shared one when it
   * confirms the claim, else this delivery's own (`ask`: throttle, then the provider), or a repeat.
   * `match` picks the order that confirms the claim out of an answer.
   */
  async function lookUp(
    chargeId: string,
    claim: string,
    ask: () => Promise<OnrampOrder[]>,
    match: (orders: OnrampOrder[]) => OnrampOrder | undefined,
  ): Promise<LookupResult> {
    prune(ms());
    const entry = charges.get(chargeId) ?? { latest: null, asked: new Map() };
    charges.set(chargeId, entry);
    // Read the shared answers while a newer one keeps coming (bounded: each is a throttled lookup).
    for (let read = 0; read < 3 && fresh(entry.latest, ms()); read++) {
      const shared = entry.latest!;
      const confirmed = match(await shared.orders);
      if (confirmed) return { kind: 'answer', confirmed };
      if (entry.latest !== shared && fresh(entry.latest, ms())) continue;
      const askedAt = entry.asked.get(claim);
      if (askedAt !== undefined && ms() - askedAt < LOOKUP_REUSE_MS)
        return { kind: 'repeat', retryAfterMs: askedAt + LOOKUP_REUSE_MS - ms() };
      break;
    }
    // This delivery asks; until answered, others of this charge read its answer.
    const own: Lookup = { orders: ask(), answeredAt: null };
    entry.latest = own;
    entry.asked.set(claim, ms());
    charges.set(chargeId, entry);
    try {
      const orders = await own.orders;
      own.answeredAt = ms();
      return { kind: 'answer', confirmed: match(orders) };
    } catch (err) {
      // Nothing learnt (throttled, or the provider unreachable): the next delivery asks again.
      if (entry.latest === own) entry.latest = null;
      entry.asked.delete(claim);
      throw err;
    }
  }

  return { lookUp };
}

export type WertLookups = ReturnType<typeof createWertLookups>;
