import { type DateValue, toDate } from '#domain/dates';
import { orderCompleteTarget } from '#domain/purchase';
import { purchaseReturnPath } from '#domain/routes';
import type { CardChargeJson, FreeClaimJson } from '#domain/schemas/checkout';
import type { BalancePaymentInput, BalancePaymentOutput } from '../balancePayment';
import { type BuyListingOutput, buyListingInput } from '../buyListing';
import type { CardPaymentInput, CardPaymentOutput } from '../cardPayment';
import type { CryptoPaymentInput, CryptoPaymentOutput } from '../cryptoPayment';
import type { OnrampPaymentInput, OnrampPaymentOutput } from '../onrampPayment';
import type { TokenChargeInput, TokenChargeOutput } from '../tokenCharge';
import type { WalletPaymentInput } from '../walletPayment';
import type { CheckoutContext, CheckoutOutput, OrderCompleteTarget } from './types';

/**
 * What the checkout hands each payment rail (its input) and what it makes of the rail's end (the
 * checkout's output): where the purchase-complete page is, the failed order, or a page to go to.
 */

/** The item as a rail takes it: its kind, id and title, and its price in cents. */
function railItem({ item }: CheckoutContext) {
  const { kind, id, title, price } = item;
  return { item: { kind, id, title }, price };
}

/**
 * A resale listing is bought with the balance, topped up with crypto when the crypto rail runs; the
 * top-up returns to the item page, the checkout open on this listing.
 */
export function listingInput(context: CheckoutContext) {
  const listingId = context.listing!.activeSaleListing!.id;
  const reopened = context.reopen?.listing === listingId;
  return buyListingInput(context.listing!, context.walletAddress!, {
    canTopUp: context.rails.includes('crypto'),
    returnTo: purchaseReturnPath(context.item.id, { listing: listingId }),
    returnedTopup: reopened ? context.reopen!.topup : null,
  });
}

/** The card rail resumes the charge left for 3-D Secure, or pays afresh (after the tab's checkpoint). */
export function cardInput(context: CheckoutContext): CardPaymentInput {
  const email = context.user!.email;
  const charge = context.resume;
  if (charge) return { item: charge.order.item, price: charge.order.amount, email, resume: charge };
  const { firstName, lastName, billingCountry } = context.user!;
  return {
    ...railItem(context),
    email,
    checkpoint: context.checkpoint,
    prefill: { firstName, lastName, country: billingCountry },
  };
}
export const cryptoInput = (context: CheckoutContext): CryptoPaymentInput => ({
  ...railItem(context),
  email: context.user!.email,
});
/**
 * The balance rail offers a crypto top-up when the crypto rail runs; it returns to the item page,
 * the checkout open on this rail.
 */
export const balanceInput = (context: CheckoutContext): BalancePaymentInput => ({
  ...railItem(context),
  walletAddress: context.walletAddress!,
  canTopUp: context.rails.includes('crypto'),
  returnTo: purchaseReturnPath(context.item.id, { buy: 'balance' }),
  returnedTopup: context.reopen?.listing === null ? context.reopen.topup : null,
});
export const walletInput = (context: CheckoutContext): WalletPaymentInput => ({
  wallet: context.target === 'googlepay' ? 'googlepay' : 'applepay',
  ...railItem(context),
  email: context.user!.email,
});
export const onrampInput = (context: CheckoutContext): OnrampPaymentInput => ({
  userId: context.user!.id,
  ...railItem(context),
  email: context.user!.email,
});
export function tokenInput(context: CheckoutContext): TokenChargeInput {
  const rail = context.token!;
  return {
    ...railItem(context),
    walletAvailable: rail.walletAvailable,
    chainId: rail.chainId,
    restore: rail.restore,
  };
}

/** The purchase-complete page of a new edition of the order's item, paid on the given rail. */
function newEditionTarget(
  order: { item: { id: string; kind: string }; createdAt: DateValue },
  type: string,
  charge?: string,
): OrderCompleteTarget {
  const target = orderCompleteTarget({
    id: order.item.id,
    kind: order.item.kind === 'pack' ? 'blueprintPack' : 'blueprint',
    startedAt: toDate(order.createdAt).getTime(),
    type,
  });
  return charge ? { ...target, search: { ...target.search, charge } } : target;
}

/** Where a card purchase ends: the order's item, since the order was made, reading the charge. */
export const cardTarget = (charge: CardChargeJson): OrderCompleteTarget =>
  newEditionTarget(charge.order, 'creditCard', charge.id);

/** The card rail's end (or a mobile wallet's): paid, redirect and failed end the checkout; back does not. */
export function cardResult(outcome: CardPaymentOutput): CheckoutOutput {
  switch (outcome.kind) {
    case 'paid':
      return { kind: 'purchased', target: cardTarget(outcome.charge) };
    case 'redirect':
      return { kind: 'redirecting', url: outcome.url };
    case 'failed':
      return { kind: 'failed', orderId: outcome.orderId };
    default:
      return null;
  }
}

/** A free edition claimed. */
export const claimedResult = (itemId: string, claim: FreeClaimJson): CheckoutOutput => ({
  kind: 'purchased',
  target: orderCompleteTarget({
    id: itemId,
    kind: 'blueprint',
    startedAt: toDate(claim.order.createdAt).getTime(),
    type: 'freeBlueprintClaim',
  }),
});

/** A resale listing bought, or off to a crypto top-up's page; closed without buying is no end. */
export function listingResult(outcome: BuyListingOutput): CheckoutOutput {
  if (outcome?.kind === 'redirect') return { kind: 'redirecting', url: outcome.url };
  if (outcome?.kind !== 'bought') return null;
  return {
    kind: 'purchased',
    target: orderCompleteTarget({
      id: outcome.listingId,
      kind: 'nftSaleListing',
      startedAt: toDate(outcome.purchase.purchasedOn).getTime(),
      type: 'saleListing',
      serial: outcome.seriesNumber,
    }),
  };
}

/** Paid from the balance (the order), or off to a top-up's payment page. */
export function balanceResult(outcome: BalancePaymentOutput): CheckoutOutput {
  if (outcome.kind === 'redirect') return { kind: 'redirecting', url: outcome.url };
  if (outcome.kind !== 'paid') return null;
  return { kind: 'purchased', target: newEditionTarget(outcome.order.order, 'fusd') };
}

/** Paid in NFM from the browser wallet: the purchase-complete page waits for the edition. */
export function tokenResult(outcome: TokenChargeOutput): CheckoutOutput {
  if (outcome.kind !== 'paid' || !outcome.charge.order) return null;
  return { kind: 'purchased', target: newEditionTarget(outcome.charge.order, 'token') };
}

/** Paid by card through the on-ramp: the purchase-complete page follows the charge to the edition. */
export function onrampResult(outcome: OnrampPaymentOutput): CheckoutOutput {
  if (outcome.kind !== 'paid') return null;
  return {
    kind: 'purchased',
    target: newEditionTarget(outcome.charge.order, 'wert', outcome.charge.id),
  };
}

/** The crypto rail opened a hosted charge: the buyer pays on the provider's page. */
export const cryptoResult = (outcome: CryptoPaymentOutput): CheckoutOutput =>
  outcome.kind === 'redirect' ? { kind: 'redirecting', url: outcome.url } : null;
