import { createHash, randomBytes } from 'node:crypto';
import {
  currencyAmount,
  MAX_ENTRIES,
  type Order,
  usd,
  type WertOrderStatus,
  type WidgetEvent,
  type WidgetParams,
} from './types';
import type { Later } from './webhooks';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID (26 Crockford base-32 characters: 48-bit time, 80 random bits), as Wert's ids are. */
function ulid(at: Date): string {
  let time = at.getTime();
  let head = '';
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32] + head;
    time = Math.floor(time / 32);
  }
  let tail = '';
  for (const b of randomBytes(16)) tail += CROCKFORD[b % 32];
  return head + tail;
}

/** A ULID-shaped id that is always the same for the same seed. */
function stableId(seed: string): string {
  return [...createHash('sha256').update(seed).digest().subarray(0, 26)]
    .map((b) => CROCKFORD[b % 32])
    .join('');
}

/** "2022-12-15 10:51:02", as the Data API writes times (UTC). */
const apiTime = (d: Date) =>
  d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, '');

/**
 * The sandbox's orders in memory (the newest MAX_ENTRIES), one per click_id, and how they move:
 * each move adds the order's widget event and sends its webhook.
 */
export function createOrderStore(options: {
  now: () => Date;
  autoComplete: () => boolean;
  transferAfterMs: number;
  completeAfterMs: number;
  later: Later;
  webhook: (order: Order, type: string) => void;
}) {
  const { now, transferAfterMs, completeAfterMs, later, webhook } = options;
  const orders = new Map<string, Order>();
  const byClick = new Map<string, string>();

  const remember = (order: Order) => {
    orders.set(order.id, order);
    if (order.params.clickId) byClick.set(order.params.clickId, order.id);
    if (orders.size > MAX_ENTRIES) {
      const oldest = orders.values().next().value as Order;
      orders.delete(oldest.id);
      byClick.delete(oldest.params.clickId);
    }
  };

  function paymentStatus(order: Order): WidgetEvent {
    return {
      type: 'payment-status',
      data: {
        status: order.status,
        payment_id: order.paymentId,
        order_id: order.id,
        ...(order.txId ? { tx_id: order.txId } : {}),
        // The initializer's types name it; the sandbox echoes the partner's click_id.
        external_order_id: order.params.clickId,
      },
    };
  }

  /** Moves an order to a status: its widget event and its webhook. */
  function setStatus(order: Order, status: WertOrderStatus, hook: string) {
    order.status = status;
    order.changedAt = now();
    order.events.push(paymentStatus(order));
    webhook(order, hook);
  }

  function sendTransaction(order: Order): boolean {
    if (order.status !== 'pending' || order.txId) return false;
    // A Flow transaction id: 32 bytes of hex.
    order.txId = createHash('sha256').update(`${order.id}:tx`).digest('hex');
    order.changedAt = now();
    order.events.push(paymentStatus(order));
    webhook(order, 'transfer_started');
    return true;
  }

  function complete(order: Order): boolean {
    if (order.status !== 'pending') return false;
    if (!order.txId) sendTransaction(order);
    setStatus(order, 'success', 'order_complete');
    order.events.push({ type: 'position', data: { step: 'order-status' } });
    return true;
  }

  function fail(order: Order): boolean {
    if (order.status !== 'pending') return false;
    setStatus(order, 'failed', 'order_failed');
    return true;
  }

  function failover(order: Order): boolean {
    if (order.status !== 'pending') return false;
    // The contract call failed: nothing reaches the partner, and the order fails over.
    if (!order.txId) sendTransaction(order);
    setStatus(order, 'failover', 'tx_smart_contract_failed');
    return true;
  }

  /** The failover's end: the coins sent to the buyer's own address, or not (the card payment goes back). */
  function endFailover(order: Order, status: 'failover_complete' | 'failover_cancelled'): boolean {
    if (order.status !== 'failover') return false;
    order.status = status;
    order.changedAt = now();
    webhook(order, status);
    return true;
  }

  /** A person pressed Pay, Fail or Cancel in the widget: the order, with its first events. */
  function openOrder(params: WidgetParams, action: 'pay' | 'fail' | 'cancel'): Order {
    const at = now();
    const order: Order = {
      id: ulid(at),
      paymentId: ulid(at),
      // One sandbox user per wallet address.
      userId: stableId(params.address),
      cardId: ulid(at),
      params,
      status: 'pending',
      txId: null,
      createdAt: at,
      changedAt: at,
      events: [{ type: 'position', data: { step: 'order-status' } }],
    };
    remember(order);
    // "Confirm and Pay": the request goes to the card acquirer.
    order.events.push(paymentStatus(order));
    webhook(order, 'payment_started');
    if (action === 'fail') {
      setStatus(order, 'failed', 'order_failed');
    } else if (action === 'cancel') {
      setStatus(order, 'canceled', 'order_canceled');
    } else if (options.autoComplete()) {
      later(transferAfterMs, () => {
        if (!sendTransaction(order)) return;
        later(completeAfterMs, () => void complete(order));
      });
    }
    return order;
  }

  function dataApiOrder(order: Order) {
    const p = order.params;
    return {
      order_id: order.id,
      click_id: p.clickId,
      currency: p.currency.toLowerCase(),
      currency_amount: Number(usd(currencyAmount(p))),
      crypto: `${p.commodity}.sc.${p.network}`.toLowerCase(),
      crypto_amount: Number(p.commodityAmount),
      user_id: order.userId,
      status: order.status,
      card_id: order.cardId,
      created_at: apiTime(order.createdAt),
      changed_at: apiTime(order.changedAt),
      partner_fee: 0,
      partner_fee_percent: 0,
      // Beyond Wert's documented example (see the module comment).
      tx_id: order.txId,
      address: p.address,
      sc_address: p.scAddress,
      sc_input_data: p.scInputData,
    };
  }

  return {
    byId: (id: string) => orders.get(id),
    /** The order of a purchase, by click_id. */
    byClickId: (clickId: string) => orders.get(byClick.get(clickId) ?? ''),
    all: () => [...orders.values()],
    sendTransaction,
    complete,
    fail,
    failover,
    endFailover,
    openOrder,
    dataApiOrder,
  };
}

export type OrderStore = ReturnType<typeof createOrderStore>;
