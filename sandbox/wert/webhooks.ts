import { postWebhook } from '../http';
import { currencyAmount, MAX_ENTRIES, type Order, usd, type WertSandbox } from './types';

/** Runs a function after a delay unless the sandbox has closed by then. */
export type Later = (ms: number, run: () => void) => void;

/** An order event's webhook body, unsigned as Wert's are. */
export function webhookBody(order: Order, type: string): string {
  const p = order.params;
  return JSON.stringify({
    type,
    click_id: p.clickId,
    user: {
      user_id: order.userId,
      verification_status: { fkyc: { state: 'success' }, lkyc: { state: 'success' } },
    },
    order: {
      id: order.id,
      commodity: p.commodity.toUpperCase(),
      commodity_amount: p.commodityAmount,
      currency: p.currency,
      currency_amount: usd(currencyAmount(p)),
      address: p.address,
      transaction_id: order.txId,
      sc_address: p.scAddress,
      sc_input_data: p.scInputData,
    },
  });
}

/**
 * Sends an order's events to the webhook URL (none: nothing is sent), each `copies` times, and
 * retries a delivery answered with anything but 2xx (or not at all) on the schedule.
 */
export function createWebhooks(options: {
  webhookUrl: () => string | undefined;
  retrySchedule: number[];
  copies: number;
  later: Later;
  closed: () => boolean;
  deliveries: WertSandbox['deliveries'];
}): (order: Order, type: string) => void {
  const { retrySchedule, copies, later, closed, deliveries } = options;

  async function deliver(
    body: string,
    meta: { type: string; clickId: string; orderId: string },
    attempt: number,
  ) {
    const webhookUrl = options.webhookUrl();
    if (closed() || !webhookUrl) return;
    // Wert counts an answer after 5 s as a failure.
    const status = await postWebhook(webhookUrl, body, {}, 5000);
    deliveries.push({ ...meta, status });
    if (deliveries.length > MAX_ENTRIES) deliveries.shift();
    if ((status < 200 || status >= 300) && attempt < retrySchedule.length) {
      later(retrySchedule[attempt]! * 1000, () => void deliver(body, meta, attempt + 1));
    }
  }

  return (order, type) => {
    if (!options.webhookUrl()) return;
    const body = webhookBody(order, type);
    const meta = { type, clickId: order.params.clickId, orderId: order.id };
    for (let i = 0; i < copies; i++) void deliver(body, meta, 0);
  };
}
