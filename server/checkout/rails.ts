import { cardRail } from './card/rail';
import { cryptoRail } from './crypto/rail';
import { freeClaimRail } from './free-claims/rail';
import { fusdRail } from './fusd/rail';
import type { OrderMethod } from './orders';
import type { PaymentRail } from './payment-rail';
import { tokenRail } from './token/rail';
import { wertRail } from './wert/rail';

/**
 * The registry of payment rails: an order's method (its `method` column, and the purchase type its
 * nft_purchases rows name) → the rail that pays it. The only place in the server that names a
 * method; everything else asks the rail (docs/checkout.md "Adding a rail").
 */
const RAILS: Record<OrderMethod, PaymentRail> = {
  creditCard: cardRail,
  coinbase: cryptoRail,
  wert: wertRail,
  fusd: fusdRail,
  token: tokenRail,
  freeBlueprintClaim: freeClaimRail,
};

/** Every rail, once each. */
export const rails = (): PaymentRail[] => Object.values(RAILS);

/** The rail that pays orders of this method. */
export const railOf = (method: OrderMethod): PaymentRail => RAILS[method];

/** The method orders paid on this rail are written with. */
export function methodOf(rail: PaymentRail): OrderMethod {
  const method = (Object.keys(RAILS) as OrderMethod[]).find((m) => RAILS[m] === rail);
  if (!method) throw new Error('a payment rail missing from the registry');
  return method;
}

/** Whether the order is paid on this rail. */
export const paidOn = (order: { method: OrderMethod }, rail: PaymentRail) => RAILS[order.method] === rail;
