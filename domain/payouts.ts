import type { PayoutState } from './enums';

/**
 * The life of a payout request. The owner asks (created) and may cancel while it is created; an
 * admin approves or denies it, marks it pending while the money is on its way, then payed or
 * failed; a failed payout may be tried again (pending). denied, cancelled and payed are final.
 * Requests in created, pending, approved or payed hold their amount (it is not available funds).
 */
export const payoutMoves: Record<PayoutState, readonly PayoutState[]> = {
  created: ['approved', 'denied', 'cancelled'],
  approved: ['pending', 'payed', 'failed'],
  pending: ['payed', 'failed'],
  failed: ['pending'],
  denied: [],
  cancelled: [],
  payed: [],
};

/** Who may make a move: the owner only cancels; everything else is an admin's. */
export const payoutMoveBy = (to: PayoutState): 'owner' | 'admin' => (to === 'cancelled' ? 'owner' : 'admin');

export const canMovePayout = (from: PayoutState, to: PayoutState) => payoutMoves[from].includes(to);

/** The back office's button for each move (the state `payed` reads "paid", as everywhere). */
export const payoutMoveLabels: Partial<Record<PayoutState, string>> = {
  approved: 'Approve',
  denied: 'Deny',
  pending: 'Mark pending',
  payed: 'Mark paid',
  failed: 'Mark failed',
};
