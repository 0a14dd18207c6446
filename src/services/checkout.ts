import { fromPromise } from 'xstate';
import type { CardChargeJson, FreeClaimJson } from '#domain/schemas/checkout';
import type { Api } from './api';
import { type CardService, cardService } from './cards';

/**
 * The checkout's calls of the product API: the buyer's card charge waiting for 3-D Secure, its
 * cancellation, and free claims. Charges are read and canceled through the card service.
 */
export function checkoutService(api: Api, cards: CardService = cardService(api)) {
  return {
    /** The caller's first charge waiting for 3-D Secure (GET checkout-com-charges?unresolved=true), or null. */
    pendingCharge: async (): Promise<CardChargeJson | null> => (await cards.unresolvedCharges())[0] ?? null,
    /** POST checkout-com-charges/{id}/actions/cancel. */
    cancelCharge: (chargeId: string) => cards.cancelCharge(chargeId),
    /** POST free-blueprint-claims (CLAIM_BLUEPRINT when it is not free, sold out or claimed already). */
    claimFree: (blueprintId: string) => api.post('/free-blueprint-claims', { json: { blueprintId } }),
  };
}
export type CheckoutService = ReturnType<typeof checkoutService>;

/** The actors the checkout machine names for these calls: `checkoutMachine.provide({ actors: … })`. */
export function checkoutActors(api: Api, service: CheckoutService = checkoutService(api)) {
  return {
    findPendingCharge: fromPromise<CardChargeJson | null>(() => service.pendingCharge()),
    cancelCharge: fromPromise<CardChargeJson, { id: string }>(({ input }) => service.cancelCharge(input.id)),
    claimFree: fromPromise<FreeClaimJson, { blueprintId: string }>(({ input }) =>
      service.claimFree(input.blueprintId),
    ),
  };
}
