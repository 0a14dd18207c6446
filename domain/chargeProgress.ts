import { type CardChargeJson, type OrderJson, orderFailed } from './schemas/checkout';
import type { CoinbaseChargeJson } from './schemas/crypto';
import type { WertChargeJson } from './schemas/wert';

/**
 * Where a paid-for purchase stands, read from its charge, whichever rail took the payment: the card
 * (checkout-com-charges), crypto on the provider's hosted page (coinbase-charges) or the
 * card-to-crypto on-ramp (wert-charges). The purchase-complete page follows it until the edition is
 * minted, or the purchase ended.
 *
 * - `minted`: the order's editions are minted;
 * - `failed`: the order ended and nothing was taken (declined, canceled, expired unpaid), or the
 *   payment did not match the order and is held for review (an operator gives it back);
 * - `refunding`: the order ended (it expired or was canceled before the payment arrived, its edition
 *   could not be minted, or it sold out meanwhile) but the buyer paid: the payment is on its way back;
 * - `refunded`: it went back (to the card, or as FUSD to the buyer's wallet);
 * - `refundFailed`: sending it back failed (the FUSD transfer was refused): an operator must act;
 * - `confirming`: a crypto payment the network has seen but not yet confirmed: nothing is minted
 *   until it is;
 * - `pending`: none of these yet.
 */
export type ChargeRail = 'card' | 'crypto' | 'onramp';
export type ChargeStage =
  | 'pending'
  | 'confirming'
  | 'minted'
  | 'failed'
  | 'refunding'
  | 'refunded'
  | 'refundFailed';

/** What a crypto payment the network has seen but not confirmed says while it waits. */
export const WAITING_FOR_NETWORK = 'Waiting for the network to confirm your payment.';

/** A charge as the purchase-complete page follows it. */
export interface FollowedCharge {
  stage: ChargeStage;
  /** The charge's order and its timeline (null only for a crypto top-up, which no page follows). */
  order: OrderJson | null;
  /** What goes back, or went back, when the order was not served: cents, and where to. */
  refund: { cents: number; to: 'card' | 'wallet' } | null;
}

/** Which rail's charge an order-complete link names, by its purchase method (query `type`). */
export function chargeRailOf(type: string | null | undefined): ChargeRail {
  if (type === 'coinbase') return 'crypto';
  if (type === 'wert') return 'onramp';
  return 'card';
}

/** A card charge: the provider refunded a captured payment whose edition could not be minted. */
export function followCard(charge: CardChargeJson): FollowedCharge {
  const { order } = charge;
  if (order.status === 'minted') return { stage: 'minted', order, refund: null };
  if (order.status === 'refunded')
    return { stage: 'refunded', order, refund: { cents: order.amount, to: 'card' } };
  if (orderFailed(order.status)) return { stage: 'failed', order, refund: null };
  return { stage: 'pending', order, refund: null };
}

/** Crypto statuses of a payment made in full (the provider's word, before our own statuses). */
const CRYPTO_PAID = ['PENDING', 'COMPLETED', 'RESOLVED'];

/** A crypto charge of a purchase: what the buyer paid goes back as FUSD when the order is not served. */
export function followCrypto(charge: CoinbaseChargeJson): FollowedCharge {
  const { order } = charge;
  const refund = { cents: charge.paid, to: 'wallet' as const };
  if (charge.status === 'SEND_FUSD_SUCCEEDED') return { stage: 'refunded', order, refund };
  if (charge.status === 'SEND_FUSD_FAILED') return { stage: 'refundFailed', order, refund };
  if (order?.status === 'minted') return { stage: 'minted', order, refund: null };
  // Held for review (the payment did not match the order): an operator gives it back.
  if (order?.status === 'review') return { stage: 'failed', order, refund: null };
  if (order && orderFailed(order.status)) {
    const paid = charge.paid > 0 || CRYPTO_PAID.includes(charge.status);
    return paid ? { stage: 'refunding', order, refund } : { stage: 'failed', order, refund: null };
  }
  if (charge.status === 'PENDING') return { stage: 'confirming', order, refund: null };
  return { stage: 'pending', order, refund: null };
}

/** On-ramp statuses once the provider confirmed the payment. */
const ONRAMP_PAID = ['order_complete', 'MINTING', 'MINTED', 'MINT_SAVE_FAILED', 'NFT_SYNC_FAILED'];

/** An on-ramp charge: a payment confirmed for an order that is not served goes back as FUSD. */
export function followOnramp(charge: WertChargeJson): FollowedCharge {
  const { order } = charge;
  const refund = { cents: charge.amount, to: 'wallet' as const };
  if (charge.status === 'SEND_FUSD_SUCCEEDED') return { stage: 'refunded', order, refund };
  if (charge.status === 'SEND_FUSD_FAILED') return { stage: 'refundFailed', order, refund };
  if (order.status === 'minted') return { stage: 'minted', order, refund: null };
  if (orderFailed(order.status))
    return ONRAMP_PAID.includes(charge.status)
      ? { stage: 'refunding', order, refund }
      : { stage: 'failed', order, refund: null };
  return { stage: 'pending', order, refund: null };
}

/**
 * An order no charge is followed for (the balance, the utility token, a free claim): minted, ended
 * unpaid, or refunded (the payment went back: to the card for a card's order, else as FUSD to the
 * wallet).
 */
export function followOrder(order: OrderJson): FollowedCharge {
  if (order.status === 'minted') return { stage: 'minted', order, refund: null };
  if (order.status === 'refunded') {
    const to = order.method === 'creditCard' ? ('card' as const) : ('wallet' as const);
    return { stage: 'refunded', order, refund: { cents: order.amount, to } };
  }
  if (orderFailed(order.status)) return { stage: 'failed', order, refund: null };
  return { stage: 'pending', order, refund: null };
}
