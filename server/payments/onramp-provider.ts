/**
 * The card-to-crypto on-ramp as the checkout sees it (Wert's NFT / smart-contract checkout): the
 * buyer pays by card in the provider's widget, which the browser opens with options the server
 * signed; the provider buys `commodity_amount` of `commodity` and sends it to `sc_address` with
 * `sc_input_data`. The provider reports with webhooks that carry no signature, so the server reads
 * every order it acts on back from the provider (`findOrders`) and trusts only that.
 *
 * Order statuses as the provider's Data API reports them: `pending` (the card payment started; a
 * `txId` once the transaction is sent), `success` (the coins arrived: paid), `failed` (the card was
 * declined), `canceled`, `failover` (the contract call failed: nothing reached us, and the provider
 * fails over), then `failover_complete` (the coins went to the buyer's own `address`) or
 * `failover_cancelled` (they did not: the provider gives the card payment back). Wert documents
 * `success`; the first five are the widget's payment statuses, which the Data API is taken to share,
 * and the failover's two ends are named as its webhooks name them. Anything else is read as not
 * (yet) paid.
 */

/** The six smart-contract fields the partner signs (widget-sc-signer's order). */
export interface OnrampScFields {
  /** The buyer's wallet: the recipient, and where the coins go if the contract call fails. */
  address: string;
  commodity: string;
  /** At most 8 decimals. */
  commodity_amount: number;
  network: string;
  sc_address: string;
  /** Hex (`0x…`) of what the contract call is given. */
  sc_input_data: string;
}

export interface OnrampSignedData extends OnrampScFields {
  /** Ed25519 over the six fields: 128 upper-case hex digits. */
  signature: string;
}

export type OnrampOrderStatus =
  | 'pending'
  | 'success'
  | 'failed'
  | 'canceled'
  | 'failover'
  | 'failover_complete'
  | 'failover_cancelled';

/** An order as the provider's Data API answers it (only what the checkout reads). */
export interface OnrampOrder {
  /** The provider's order id (a ULID). */
  id: string;
  /** The partner's `click_id` the widget was opened with (our charge id). */
  clickId: string;
  /** One of OnrampOrderStatus, or a status the checkout does not know (never read as paid). */
  status: string;
  /** The transaction that sent the coins, once sent. */
  txId: string | null;
  /** What the order bought (`crypto_amount`), and the smart-contract call it made, when reported. */
  commodityAmount: number | null;
  scAddress: string | null;
  scInputData: string | null;
  address: string | null;
}

/** The provider could not be asked (network, timeout, 5xx, a refused API key, an unreadable answer). */
export class OnrampProviderUnavailableError extends Error {
  override name = 'OnrampProviderUnavailableError';
}

export interface OnrampProvider {
  /** The widget's `partner_id`. */
  readonly partnerId: string;
  /** The widget's `origin` (https://widget.wert.io, https://sandbox.wert.io, or the local sandbox). */
  readonly origin: string;
  /** Signs the smart-contract fields with the partner's private key (local; never fails for valid input). */
  sign(fields: OnrampScFields): OnrampSignedData;
  /** The provider's orders whose order id or click_id is `search` (newest first). */
  findOrders(search: string): Promise<OnrampOrder[]>;
}
