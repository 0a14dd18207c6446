import * as v from 'valibot';
import { queryList } from '../validation';
import { newEditionBody } from './newEdition';

/**
 * On-ramp charges (the wert-charges API): the buyer pays a new edition (a blueprint or a pack) by
 * card in the card-to-crypto provider's widget (Wert's, opened with `@wert-io/widget-initializer`).
 * The server reserves one unit (an order, method `wert`, as the card and crypto checkouts do) and
 * answers the widget's smart-contract options signed with the partner's Ed25519 key (`signedData`);
 * the browser opens the widget with them, `partner_id: partnerId`, `click_id: clickId` (the
 * charge's id, echoed in the provider's webhooks), `origin` and `extra.item_info: itemInfo`.
 * The provider buys `commodity_amount` of `commodity` (FUSD, one per dollar) with the card and sends
 * it to `sc_address` (the platform's treasury on Flow) with `sc_input_data` (the purchase, below);
 * once it reports the order complete (a webhook, confirmed with the provider's order API) the
 * edition is minted to the buyer's wallet. Money is integer cents.
 *
 * Statuses of an on-ramp order, forward only:
 * - `created` (signed, nothing paid);
 * - the browser's word, which pays for nothing: `paymentStarted` (the widget reported
 *   `payment-status: pending`), `transferStarted` (…pending with a `tx_id`);
 * - the provider's word, confirmed with its order API: `payment_started` (the card payment started),
 *   `transfer_started` (the transaction to the treasury was sent), and its ends: `order_complete`
 *   (paid: minted next, MINTING → MINTED, or MINT_SAVE_FAILED / NFT_SYNC_FAILED), `order_failed`,
 *   `order_canceled`, `tx_smart_contract_failed` (the transaction to the treasury failed: nothing
 *   reached us, and the provider's failover follows), `failover_complete` (the provider sent the
 *   coins to the buyer's wallet instead), `failover_cancelled` (the provider did not: it gives the
 *   card payment back itself);
 * - ours: `canceled` (the buyer gave the order up before paying: "order canceled"),
 *   `expired` (not paid in time);
 * - a payment that must go back (paid after the order ended, or an edition that could not be
 *   minted) is sent as FUSD from the treasury: SEND_FUSD_SUCCEEDED / SEND_FUSD_FAILED.
 *
 * Error codes: wert_cancel_fail (the buyer may cancel only while nothing was paid), ONRAMP_PROVIDER
 * (the provider could not be asked), CHARGE_PENDING (another on-ramp charge of the buyer is open; its
 * id in `chargeId`), and the checkout's SOLD_OUT, PRICE_CHANGED, NOT_PURCHASABLE, WALLET_REQUIRED.
 */

/** A uuid in any letter case, as v.uuid accepts it. */
const UUID = /^[\dA-Fa-f]{8}(?:-[\dA-Fa-f]{4}){3}-[\dA-Fa-f]{12}$/;
const uuid = (field: string) => v.pipe(v.string(`INVALID_VALUE.${field}`), v.uuid(`INVALID_VALUE.${field}`));

/** POST wert-charges: exactly one of blueprintId or blueprintPackId, and the price the buyer saw. */
export const CreateWertChargeBody = newEditionBody(0, {});
export type CreateWertChargeBody = v.InferOutput<typeof CreateWertChargeBody>;

export const wertChargeStatuses = [
  'created',
  'paymentStarted',
  'transferStarted',
  'canceled',
  'expired',
  'payment_started',
  'transfer_started',
  'order_complete',
  'order_failed',
  'order_canceled',
  'tx_smart_contract_failed',
  'failover_complete',
  'failover_cancelled',
  'MINTING',
  'MINTED',
  'MINT_SAVE_FAILED',
  'NFT_SYNC_FAILED',
  'SEND_FUSD_SUCCEEDED',
  'SEND_FUSD_FAILED',
] as const;
export type WertChargeStatus = (typeof wertChargeStatuses)[number];

/**
 * The statuses of a charge the buyer can still pay (or is paying): what pressing Buy looks for,
 * whether the browser or the provider said the payment started.
 */
export const openWertChargeStatuses = [
  'created',
  'paymentStarted',
  'payment_started',
  'transferStarted',
  'transfer_started',
] as const satisfies readonly WertChargeStatus[];
/** The browser's reports of the widget's progress (PATCH status), each moving a charge forward only. */
export const reportedWertStatuses = ['paymentStarted', 'transferStarted'] as const;

/**
 * PATCH wert-charges/{id}: `canceled` gives the purchase up (refused with wert_cancel_fail once a
 * payment started); `paymentStarted` / `transferStarted` are the client's reports of the widget's
 * `payment-status: pending` (without, then with, a `tx_id`): each moves the charge forward only, and
 * never past what the provider confirmed; either way, and without a status, the server also asks the
 * provider and applies what it confirms.
 */
export const UpdateWertChargeBody = v.object({
  status: v.optional(v.picklist(['canceled', ...reportedWertStatuses], 'INVALID_VALUE.status')),
});
export type UpdateWertChargeBody = v.InferOutput<typeof UpdateWertChargeBody>;

/**
 * GET wert-charges?userId=…&statuses=created,paymentStarted,transferStarted&blueprintIds=…: the
 * caller's charges (another user's id: 403), newest first, optionally of some statuses and items.
 */
export const WertChargeListQuery = v.object({
  userId: uuid('userId'),
  statuses: v.optional(queryList('statuses', { values: wertChargeStatuses })),
  blueprintIds: v.optional(queryList('blueprintIds', { pattern: UUID })),
  blueprintPackIds: v.optional(queryList('blueprintPackIds', { pattern: UUID })),
});
export type WertChargeListQuery = v.InferOutput<typeof WertChargeListQuery>;

/** Answers of these routes: their schemas are in domain/responses/checkout. */
export type { WertChargeJson, WertItemInfo, WertSignedData } from '../responses/checkout';
