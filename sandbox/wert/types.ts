/** The Wert sandbox's constants, its options and handle, and the shape of an order. */

/** A Wert-style partner id (a ULID): the sandbox's only partner unless told otherwise. */
export const SANDBOX_PARTNER_ID = '01HVSANDBXPARTNER000000000';
/**
 * The sandbox partner's Ed25519 private key (32-byte seed, hex). Published on purpose: it signs
 * nothing but sandbox purchases. The sandbox knows its public key.
 */
export const SANDBOX_PRIVATE_KEY = 'ef12ea95a89a3a85f5aefe5c90dc665bd806100b621c13ee770e01f690273f73';
/** The Data API key (Wert's look like `wert-sbox-…` / `wert-prod-…`). */
export const SANDBOX_API_KEY = 'wert-sbox-vitrine-000000000000000001';
export const SANDBOX_DEFAULT_PORT = 8792;
/** Seconds before each retry of a failed delivery (Wert's documented schedule). */
export const DEFAULT_RETRY_SCHEDULE = [300, 3600, 7200, 14_400, 28_800];

export const MAX_ENTRIES = 10_000;

export interface WertSandboxOptions {
  /** 0 picks a free port; default SANDBOX_DEFAULT_PORT. */
  port?: number;
  /** Where it listens (default 127.0.0.1: the sandbox answers anyone holding its published keys). */
  host?: string;
  partnerId?: string;
  /** The partner's registered public key (hex); default the one of SANDBOX_PRIVATE_KEY. */
  publicKey?: string;
  apiKey?: string;
  /** Where webhooks go; none: no webhooks. */
  webhookUrl?: string;
  /** Seconds before each retry of a failed delivery. */
  retrySchedule?: number[];
  /** Deliver each webhook this many times (at-least-once delivery, for tests); default 1. */
  deliveries?: number;
  /** After Pay, send the transaction and succeed by themselves (default true). */
  autoComplete?: boolean;
  /** With autoComplete: from Pay to the transaction (default 1000 ms) and from it to success (default 1000 ms). */
  transferAfterMs?: number;
  completeAfterMs?: number;
  now?: () => Date;
}

/** The Data API's statuses (see above). */
export type WertOrderStatus =
  | 'pending'
  | 'success'
  | 'failed'
  | 'canceled'
  | 'failover'
  | 'failover_complete'
  | 'failover_cancelled';

export interface WertSandbox {
  url: string;
  port: number;
  partnerId: string;
  setWebhookUrl(url: string | undefined): void;
  setAutoComplete(on: boolean): void;
  /** Deliveries attempted so far: event type, click_id, order id and the HTTP status (0: no answer). */
  deliveries: { type: string; clickId: string; orderId: string; status: number }[];
  /** The order of a purchase, by click_id (tests). */
  orderOf(clickId: string): { id: string; status: WertOrderStatus; txId: string | null } | undefined;
  /**
   * Moves a pending order on (tests): its transaction, success, a declined card, or the contract
   * call failing (failover); then a failed-over order's end: the coins sent to the buyer's address,
   * or the failover canceled.
   */
  transfer(orderId: string): boolean;
  complete(orderId: string): boolean;
  fail(orderId: string): boolean;
  failover(orderId: string): boolean;
  failoverComplete(orderId: string): boolean;
  failoverCancel(orderId: string): boolean;
  close(): Promise<void>;
}

/** What the widget page was opened with (the query the initializer built). */
export interface WidgetParams {
  clickId: string;
  address: string;
  commodity: string;
  commodityAmount: string;
  network: string;
  scAddress: string;
  scInputData: string;
  signature: string;
  currency: string;
}

export interface WidgetEvent {
  type: string;
  data?: Record<string, unknown>;
}

export interface Order {
  id: string;
  paymentId: string;
  userId: string;
  cardId: string;
  params: WidgetParams;
  status: WertOrderStatus;
  txId: string | null;
  createdAt: Date;
  changedAt: Date;
  /** The widget events of this order, in order (the page relays them). */
  events: WidgetEvent[];
}

/** Made-up USD prices of the coins the sandbox sells (stablecoins at par). */
export const USD_RATES: Record<string, number> = {
  fusd: 1,
  usdc: 1,
  usdt: 1,
  flow: 0.5,
  eth: 2000,
  matic: 0.5,
  pol: 0.5,
};

/** Dollars with cents, "25.00". */
export const usd = (n: number) => (Math.round(n * 100) / 100).toFixed(2);

/** What an order's coins cost in its currency. */
export const currencyAmount = (p: WidgetParams) =>
  Number(p.commodityAmount) * (USD_RATES[p.commodity.toLowerCase()] ?? 0);
