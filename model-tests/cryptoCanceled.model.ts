import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import type { OrderEventJson, OrderStatus } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson, CoinbaseChargeStatus } from '#domain/schemas/crypto';
import { type CryptoCanceledContext, cryptoCanceledMachine } from '../machines/cryptoCanceled';
import { ITEM, NETWORK_ERROR, NOT_FOUND_ERROR, ORDER_ID, PRICE } from './cardPayment.model';
import { after, expectWorking } from './expect';
import type { MachineModel } from './harness';

export const CRYPTO_CHARGE_ID = '3f2e1d0c-9b8a-4776-8d5c-4b3a29180f7e';
export const PAID_PART = 1000;

/**
 * A crypto charge as the page may find it: canceled unpaid, canceled after a partial payment (what
 * arrived goes back as FUSD), paid after all, still open, or a canceled top-up (no order).
 */
export type CryptoChargeKind = 'canceled' | 'partlyPaid' | 'paid' | 'open' | 'topup';

const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`;

export function cryptoCharge(kind: CryptoChargeKind): CoinbaseChargeJson {
  const shape: Record<CryptoChargeKind, [CoinbaseChargeStatus, OrderStatus | null, number]> = {
    canceled: ['CANCELED', 'canceled', 0],
    partlyPaid: ['CANCELED', 'canceled', PAID_PART],
    paid: ['MINTING', 'minting', PRICE],
    open: ['NEW', 'created', 0],
    topup: ['CANCELED', null, 0],
  };
  const [status, orderStatus, paid] = shape[kind];
  const events: OrderEventJson[] = [{ type: 'created', detail: null, at: at(0) }];
  if (kind === 'partlyPaid')
    events.push({
      type: 'underpaid',
      detail: `Received ${PAID_PART} of ${PRICE} cents: pay the rest on the payment page, or cancel.`,
      at: at(4),
    });
  if (orderStatus === 'canceled')
    events.push({
      type: 'canceled',
      detail:
        paid > 0
          ? 'Your crypto purchase was canceled. What you paid is refunded as FUSD to your wallet.'
          : 'Your crypto purchase was canceled.',
      at: at(6),
    });
  if (kind === 'paid')
    events.push(
      { type: 'authorized', detail: 'Paid with crypto (charge K7Q2ZP4M).', at: at(5) },
      { type: 'minting', detail: null, at: at(6) },
    );
  return {
    id: CRYPTO_CHARGE_ID,
    type: kind === 'topup' ? 'topup' : 'directPurchase',
    status,
    context: null,
    hostedUrl: kind === 'open' ? 'http://127.0.0.1:8791/pay/K7Q2ZP4M' : null,
    code: 'K7Q2ZP4M',
    amount: PRICE,
    paid,
    unresolved: kind === 'open',
    success: kind === 'paid',
    walletAddress: '0x01cf0e2f2f715450',
    fusdTransactionId: null,
    expiresAt: '2026-11-22T11:00:00.000Z',
    createdAt: at(0),
    order:
      orderStatus === null
        ? null
        : {
            id: ORDER_ID,
            method: 'coinbase',
            item: ITEM,
            amount: PRICE,
            currency: 'USD',
            status: orderStatus,
            walletAddress: '0x01cf0e2f2f715450',
            editions: [],
            failure:
              orderStatus === 'canceled'
                ? { code: 'CANCELED', message: 'Your crypto purchase was canceled.' }
                : null,
            events,
            createdAt: at(0),
          },
  };
}

/** Which fixture a charge is (the serialized state names it). */
export function chargeKind(charge: CoinbaseChargeJson | null): CryptoChargeKind | null {
  if (!charge) return null;
  if (charge.type === 'topup') return 'topup';
  if (charge.success) return 'paid';
  if (charge.status === 'NEW') return 'open';
  return charge.paid > 0 ? 'partlyPaid' : 'canceled';
}

export const cryptoCanceledModel: MachineModel<typeof cryptoCanceledMachine> = {
  machine: cryptoCanceledMachine,
  fakes: ['syncCharge', 'loadCharge'],
  scenarios: [{ name: 'back from the provider', input: { chargeId: CRYPTO_CHARGE_ID } }],
  events: () => [
    { type: 'xstate.done.actor.syncCharge', output: cryptoCharge('canceled') },
    { type: 'xstate.done.actor.syncCharge', output: cryptoCharge('partlyPaid') },
    { type: 'xstate.done.actor.syncCharge', output: cryptoCharge('paid') },
    { type: 'xstate.done.actor.syncCharge', output: cryptoCharge('open') },
    { type: 'xstate.done.actor.syncCharge', output: cryptoCharge('topup') },
    { type: 'xstate.error.actor.syncCharge', error: NETWORK_ERROR },
    { type: 'xstate.error.actor.syncCharge', error: NOT_FOUND_ERROR },
    { type: 'xstate.done.actor.loadCharge', output: cryptoCharge('canceled') },
    { type: 'xstate.done.actor.loadCharge', output: cryptoCharge('open') },
    { type: 'xstate.error.actor.loadCharge', error: NOT_FOUND_ERROR },
    { type: 'xstate.error.actor.loadCharge', error: NETWORK_ERROR },
    { type: 'charge.retry' },
  ],
  serializeState: (s: AnyMachineSnapshot) => {
    const c = s.context as CryptoCanceledContext;
    return JSON.stringify([s.value, chargeKind(c.charge), c.error?.code ?? null]);
  },
  expect: {
    // The cancel made on the provider's page is applied first (sync), else the charge is read.
    syncing: (o) => expectWorking(o, 'syncCharge', { id: CRYPTO_CHARGE_ID }),
    loading: (o) => {
      expect(after(o, 'error', 'syncCharge')).toBe(true);
      expectWorking(o, 'loadCharge', { id: CRYPTO_CHARGE_ID });
    },
    // The charge as synced or read: what was paid and the order's timeline.
    shown: (o) => {
      expect(after(o, 'done', 'syncCharge') || after(o, 'done', 'loadCharge')).toBe(true);
      expect(o.snapshot.context.charge).toEqual(o.event.output);
      expect(o.snapshot.context.error).toBeNull();
    },
    failed: (o) => {
      expect(after(o, 'error', 'loadCharge')).toBe(true);
      expect(o.snapshot.can({ type: 'charge.retry' })).toBe(
        o.snapshot.context.error?.code === 'NETWORK_FAILURE',
      );
    },
  },
};
