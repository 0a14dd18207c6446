import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import type { OrderJson, OrderStatus } from '#domain/schemas/checkout';
import { type CheckoutFailedContext, checkoutFailedMachine } from '../machines/checkoutFailed';
import { CHARGE_ID, charge, ITEM, NETWORK_ERROR, NOT_FOUND_ERROR, ORDER_ID } from './cardPayment.model';
import { after, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof checkoutFailedMachine>;
/** Only a lost connection may be tried again (a missing order stays missing). */
const lostConnection = (o: O) => o.snapshot.context.error?.code === 'NETWORK_FAILURE';

export const SESSION_ID = 'sid_ubfj2q76miwundwlk72vxt2i7q';

/** The order in one of its states, with its timeline. */
export function order(status: OrderStatus): OrderJson {
  const declined = status === 'declined';
  return {
    id: ORDER_ID,
    method: 'creditCard',
    item: ITEM,
    amount: 2500,
    currency: 'USD',
    status,
    walletAddress: '0x01cf0e2f2f715450',
    editions: [],
    failure: declined ? { code: 'CARD_DECLINED', message: 'Your card was not charged.' } : null,
    events: [
      { type: 'created', detail: null, at: '2026-11-22T10:00:00.000Z' },
      ...(status === 'created'
        ? []
        : [
            {
              type: status,
              detail: declined ? '20005 Do Not Honour' : null,
              at: '2026-11-22T10:01:30.000Z',
            },
          ]),
    ],
    createdAt: '2026-11-22T10:00:00.000Z',
  };
}

export const checkoutFailedModel: MachineModel<typeof checkoutFailedMachine> = {
  machine: checkoutFailedMachine,
  fakes: ['findCharge', 'syncCharge', 'loadOrder'],
  scenarios: [
    { name: 'back from a failed 3-D Secure', input: { orderId: ORDER_ID, ckoSessionId: SESSION_ID } },
    { name: 'after a decline', input: { orderId: ORDER_ID, ckoSessionId: null } },
  ],
  events: () => [
    { type: 'xstate.done.actor.findCharge', output: charge('challenge') },
    { type: 'xstate.done.actor.findCharge', output: null },
    { type: 'xstate.error.actor.findCharge', error: NETWORK_ERROR },
    { type: 'xstate.done.actor.syncCharge', output: charge('declined') },
    { type: 'xstate.error.actor.syncCharge', error: NETWORK_ERROR },
    { type: 'xstate.done.actor.loadOrder', output: order('declined') },
    { type: 'xstate.done.actor.loadOrder', output: order('created') },
    { type: 'xstate.done.actor.loadOrder', output: order('authorized') },
    { type: 'xstate.error.actor.loadOrder', error: NOT_FOUND_ERROR },
    { type: 'xstate.error.actor.loadOrder', error: NETWORK_ERROR },
    { type: 'order.retry' },
  ],
  serializeState: (s: AnyMachineSnapshot) => {
    const c = s.context as CheckoutFailedContext;
    return JSON.stringify([
      s.value,
      c.chargeId === CHARGE_ID,
      c.order?.status ?? null,
      c.error?.code ?? null,
    ]);
  },
  expect: {
    // Back from 3-D Secure (a session id): the order's charge is found and synced first.
    finding: (o) => {
      expect(o.snapshot.context.ckoSessionId).toBe(SESSION_ID);
      expectWorking(o, 'findCharge', { orderId: ORDER_ID });
    },
    syncing: (o) => {
      expect(after(o, 'done', 'findCharge')).toBe(true);
      expectWorking(o, 'syncCharge', { id: CHARGE_ID, ckoSessionId: SESSION_ID });
    },
    // Then the order and its timeline, whatever the sync did.
    loading: (o) => {
      expectWorking(o, 'loadOrder', { id: ORDER_ID });
      if (o.snapshot.context.ckoSessionId === null)
        expect(o.calls.map((c) => c.name)).not.toContain('findCharge');
    },
    shown: (o) => {
      expect(after(o, 'done', 'loadOrder')).toBe(true);
      expect(o.snapshot.context.order).toEqual(o.event.output);
    },
    failed: (o) => {
      expect(after(o, 'error', 'loadOrder')).toBe(true);
      expect(o.snapshot.can({ type: 'order.retry' })).toBe(lostConnection(o));
    },
  },
};
