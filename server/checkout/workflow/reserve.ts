import type { Database } from '../../db';
import { type Reserved, type ReserveInput, reserve } from '../orders';
import type { PaymentRail } from '../payment-rail';
import { methodOf } from '../rails';

/**
 * The workflow's reserve step on a rail (../orders.ts `reserve`: dedupe by the idempotency key,
 * the rail's pending charge, one unit, the rail's charge attached, one transaction); its
 * compensation is `release` (../orders.ts), run by every way an unpaid order fails.
 */
export function reserveOn(
  db: Database,
  rail: PaymentRail,
  input: Omit<ReserveInput, 'method' | 'rail'>,
): Promise<Reserved> {
  return reserve(db, { ...input, rail, method: methodOf(rail) });
}
