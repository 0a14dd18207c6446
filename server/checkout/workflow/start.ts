import type { Database } from '../../db';
import type { CheckoutItemRecord } from '../items';
import type { OrderRow, ReserveInput } from '../orders';
import type { PaymentRail } from '../payment-rail';
import { reserveOn } from './reserve';

/**
 * The start of a purchase, written once for every rail (docs/checkout.md "The purchase workflow"):
 * named steps, each with its compensation beside it. Route handlers parse, call it, answer.
 *
 *   validate → dedupe → reserve ↔ release → authorize ↔ compensate → settle
 *
 * - validate: the request's own rules (nothing written);
 * - dedupe: an earlier purchase of the buyer with the same idempotency key answers as it is
 *   (before the item is looked at again: a retry never buys twice, whatever happened since);
 * - check: the rules that need the item (purchasable, price, wallet, the payment source) and
 *   limits taken before anything is held;
 * - reserve (one transaction: the order, one unit, the rail's charge; a concurrent repeat of the
 *   key answers the first order) ↔ release: the order fails and gives its unit back (`release`,
 *   given the error that stopped the purchase);
 * - authorize (only a rail that asks its provider at checkout: card, crypto; the others answer
 *   here, their payment heard of later by webhook or report): the provider is asked for the
 *   payment (idempotent by the order's id);
 * - settle: the provider's answer is applied as a webhook or a sync would (../settle.ts for the
 *   card) ↔ compensate: a payment approved for an order that cannot be served is undone.
 *
 * A step that throws stops the purchase; what the earlier steps did is undone by their
 * compensation (reserve's `release`), and the error is the answer.
 */

/** The steps every rail's start has: up to the reservation. */
export interface ReserveSteps<Checked, Answer> {
  rail: PaymentRail;
  validate(): void;
  dedupe(): Promise<Answer | undefined>;
  check(): Promise<Checked & { item: CheckoutItemRecord }>;
  /**
   * A purchase the rail answers without holding anything (the NFM rail's charge for a wallet short
   * of the price): reserve and the steps after it are not run.
   */
  unreserved?(checked: Checked): Promise<Started<Answer> | undefined>;
  /** The reservation's inputs beyond the item (buyer, key, wallet, the rail's charge…). */
  reservation(checked: Checked): Omit<ReserveInput, 'method' | 'rail' | 'item'>;
  /** The answer to a repeat found inside the reservation (a concurrent request with the key). */
  repeated(order: OrderRow): Promise<Answer>;
}

/**
 * A rail whose provider hears of the purchase only from the buyer (the on-ramp's widget, a wallet
 * paying FUSD or NFM, a free claim): the purchase is answered once reserved, and its payment comes
 * later by webhook or report.
 */
export interface ReservedSteps<Checked, Answer> extends ReserveSteps<Checked, Answer> {
  answer(order: OrderRow): Promise<Answer>;
}

/** A rail that asks its provider at checkout (card, crypto): authorize, settle, compensate. */
export interface StartSteps<Checked, Payment, Settled, Answer> extends ReserveSteps<Checked, Answer> {
  authorize(order: OrderRow, checked: Checked): Promise<Payment>;
  /** Compensation of reserve: the order fails and releases its unit; answers the error to throw. */
  release(order: OrderRow, err: unknown): Promise<unknown>;
  settle(order: OrderRow, payment: Payment): Promise<Settled>;
  /** Compensation of authorize, after settle: undoes a payment the order cannot keep. */
  compensate(order: OrderRow, settled: Settled): Promise<void>;
  answer(order: OrderRow, settled: Settled): Promise<Answer>;
}

export type Started<Answer> = { answer: Answer; repeated: boolean };

/** What a purchase route hands its rail's start: the buyer, the client's address and the parsed body. */
export interface PurchaseRequest<Body> {
  user: { id: string; walletAddress: string | null };
  clientAddress: string;
  body: Body;
}

export async function startPurchase<C, P, S, A>(
  db: Database,
  steps: StartSteps<C, P, S, A> | ReservedSteps<C, A>,
): Promise<Started<A>> {
  steps.validate();
  const earlier = await steps.dedupe();
  if (earlier !== undefined) return { answer: earlier, repeated: true };
  const checked = await steps.check();
  const unreserved = await steps.unreserved?.(checked);
  if (unreserved) return unreserved;
  const { order, repeated } = await reserveOn(db, steps.rail, {
    ...steps.reservation(checked),
    item: checked.item,
  });
  if (repeated) return { answer: await steps.repeated(order), repeated: true };
  if (!('authorize' in steps)) return { answer: await steps.answer(order), repeated: false };
  let payment: P;
  try {
    payment = await steps.authorize(order, checked);
  } catch (err) {
    throw await steps.release(order, err);
  }
  const settled = await steps.settle(order, payment);
  await steps.compensate(order, settled);
  return { answer: await steps.answer(order, settled), repeated: false };
}
