import { type DateValue, toDate } from '#domain/dates';
import { orderCompleteTarget } from '#domain/purchase';

/**
 * How every payment rail ends (its machine's output), whichever rail it is: the card, a mobile
 * wallet, crypto, the balance, the on-ramp, the utility token or a resale listing.
 *
 * - `paid`: the purchase is made; `target` is its purchase-complete page;
 * - `redirect`: the buyer pays, or proves the card, on another page (3-D Secure, the crypto
 *   provider's hosted page, a top-up's page); the flow holding the rail leaves for `url`;
 * - `failed`: the order was declined; its failure page is the order's (`orderId`);
 * - `back`: the buyer left the rail without paying.
 */
export type RailOutcome =
  | { type: 'paid'; target: OrderCompleteTarget }
  | { type: 'redirect'; url: string }
  | { type: 'failed'; orderId: string }
  | { type: 'back' };

export type OrderCompleteTarget = ReturnType<typeof orderCompleteTarget>;

export const railBack: RailOutcome = { type: 'back' };
export const railRedirect = (url: string): RailOutcome => ({ type: 'redirect', url });
export const railFailed = (orderId: string): RailOutcome => ({ type: 'failed', orderId });

/**
 * Paid for a new edition: the purchase-complete page of the order's item, which follows the order
 * (through the charge, when one paid it); without an order id it looks for a purchase of the item
 * made since `createdAt`.
 */
export function railPaid(
  order: { id?: string; item: { id: string; kind: string }; createdAt: DateValue },
  type: string,
  charge?: string,
): RailOutcome {
  const target = orderCompleteTarget({
    id: order.item.id,
    kind: order.item.kind === 'pack' ? 'blueprintPack' : 'blueprint',
    startedAt: toDate(order.createdAt).getTime(),
    type,
  });
  const search = {
    ...target.search,
    ...(order.id ? { order: order.id } : {}),
    ...(charge ? { charge } : {}),
  };
  return { type: 'paid', target: { ...target, search } };
}
