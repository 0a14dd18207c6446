import type { Database, Executor } from '../db';
import type { Services } from '../deps';
import type { Route } from '../http';
import type { CardProvider } from '../payments/provider';
import type { OrderRow, ReserveInput } from './orders';

/**
 * A payment rail: how an order of new editions is paid on one rail and how its payment is undone.
 * Every rail implements it in its folder (`server/checkout/<rail>/rail.ts`); the registry
 * (./rails.ts) maps an order's method to its rail, and the purchase workflow (./workflow.ts) and
 * the fulfil job (./fulfilment.ts) ask the rail, never the method. docs/checkout.md "Payment rails".
 */

/** What a rail's outside calls need (the fulfil job's dependencies). */
export interface RailDeps {
  db: Database;
  /** The card provider; throws when none is configured (the job retries). */
  cardProvider(): CardProvider;
  now(): Date;
}

/**
 * The charge a reservation opens on the rail: `pending` finds another open charge of the buyer on
 * it (one at a time: CHARGE_PENDING with its id), `attach` writes the order's charge in the
 * reservation's transaction (after the order and its unit).
 */
export interface RailCharge {
  pending(tx: Executor): Promise<{ id: string } | undefined>;
  attach(tx: Executor, order: OrderRow): Promise<void>;
}

/** The statuses an order's payment record takes with its fulfilment. */
export type RailFulfilmentStatus = 'MINTING' | 'MINTED' | 'MINT_SAVE_FAILED' | 'NFT_SYNC_FAILED';

export interface PaymentRail {
  /** How long an unpaid order of the rail holds its unit. */
  readonly orderTtlMs: number;
  /** Nothing to pay: the order is authorized at reservation for 0, and a failed mint voids it. */
  readonly free?: boolean;
  /** The order's failure message when its edition could not be minted and its payment goes back. */
  readonly mintFailedMessage: string;
  /**
   * The charge a reservation opens when the request brings none of its own (the card, on-ramp and
   * token routes build theirs from what the buyer sent).
   */
  charge?(input: ReserveInput): RailCharge;
  /** The order's payment record takes the status of its fulfilment step. */
  setStatus(tx: Executor, orderId: string, status: RailFulfilmentStatus, at: Date): Promise<void>;
  /**
   * Takes the authorized payment at the provider before editions are assigned (idempotent by a key
   * of the order): false when the provider no longer holds it (the order is then voided).
   */
  capture?(deps: RailDeps, order: OrderRow): Promise<boolean>;
  /** Written in the transaction that marks the order captured. */
  captured?(tx: Executor, orderId: string, at: Date): Promise<void>;
  /**
   * Gives a paid order's payment back once its edition could not be minted: `refundAtProvider`
   * runs first (idempotent by a key of the order), then `compensate` in the order's transaction
   * (its record, or the job that sends the money back).
   */
  refundAtProvider?(deps: RailDeps, order: OrderRow): Promise<void>;
  compensate(tx: Executor, order: OrderRow, at: Date): Promise<void>;
  /** Ends an unpaid order past its time (row locked, status created): expired, unit released. */
  expire(tx: Executor, order: OrderRow, now: Date): Promise<void>;
  /**
   * Undoes a payment the provider holds for an order that failed before it was paid (declined,
   * canceled, expired); the fulfil job runs it for such an order.
   */
  voidFailed?(deps: RailDeps, orderId: string): Promise<void>;
  /**
   * The route its provider delivers events to, where it hears from one: it proves the event (a
   * signature, or by asking the provider), applies each event once together with its effect (the
   * rail's settle from the provider's view), and answers 2xx to events it does not act on.
   */
  webhook?(s: Services): Route;
}
