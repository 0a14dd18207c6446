import { purchaseReturnPath } from '#domain/routes';
import type { FreeClaimJson } from '#domain/schemas/checkout';
import type { BalancePaymentInput } from '../balancePayment';
import { buyListingInput } from '../buyListing';
import type { CardPaymentInput } from '../cardPayment';
import type { CryptoPaymentInput } from '../cryptoPayment';
import type { OnrampPaymentInput } from '../onrampPayment';
import { type RailOutcome, railPaid } from '../railOutcome';
import type { TokenChargeInput } from '../tokenCharge';
import type { WalletPaymentInput } from '../walletPayment';
import type { CheckoutContext, CheckoutOutput } from './types';

/**
 * What the checkout hands each payment rail (its input) and what it makes of a rail's end (every
 * rail's RailOutcome, one way): where the purchase-complete page is, the failed order, or a page to
 * go to.
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

/** The checkout's output for a rail's end: paid, off to another page, declined; back is no end. */
export function railResult(outcome: RailOutcome): CheckoutOutput {
  switch (outcome.type) {
    case 'paid':
      return { kind: 'purchased', target: outcome.target };
    case 'redirect':
      return { kind: 'redirecting', url: outcome.url };
    case 'failed':
      return { kind: 'failed', orderId: outcome.orderId };
    default:
      return null;
  }
}

/** A free edition claimed: the purchase-complete page follows its order. */
export const claimedResult = (claim: FreeClaimJson): CheckoutOutput =>
  railResult(railPaid(claim.order, 'freeBlueprintClaim'));
