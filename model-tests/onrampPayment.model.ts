import { expect } from 'vitest';
import { type AnyMachineSnapshot, fromCallback } from 'xstate';
import { openWertChargeStatuses, type WertChargeJson, type WertChargeStatus } from '#domain/schemas/wert';
import {
  type OnrampPaymentContext,
  type OnrampPaymentEvent,
  type OnrampPaymentInput,
  onrampPaymentMachine,
} from '../machines/onrampPayment';
import { railPaid } from '../machines/railOutcome';
import { after, expectOutput, expectWorking, inputsOf } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof onrampPaymentMachine>;
const errorCode = (o: O) => (o.event as { error?: { body?: { code: string } } }).error?.body?.code ?? null;
/** Whether this Pay repeats the attempt before it: that charge got no answer (a network failure). */
function repeatsAttempt(o: O) {
  const last = o.history
    .slice(0, -1)
    .findLast(
      (e) => e.type === 'xstate.error.actor.createCharge' || e.type === 'xstate.done.actor.createCharge',
    );
  return (last?.error as typeof NETWORK_ERROR | undefined)?.body.code === 'NETWORK_FAILURE';
}

/** Reads of the charge before the panel says it is still being confirmed, in the model (live: 50). */
export const MODEL_MAX_POLLS = 2;

export const ITEM = {
  kind: 'blueprint' as const,
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  title: 'Night Market',
};
export const PRICE = 2500;
export const BUYER_EMAIL = 'grace@example.com';
export const CHARGE_ID = '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d';
export const BUYER_ID = '2b3c4d5e-6f70-4812-9a3b-4c5d6e7f8091';
/** Another item, whose open on-ramp charge blocks this purchase. */
export const OTHER_ITEM = {
  kind: 'blueprint' as const,
  id: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b',
  title: 'Harbor Lights',
};

/** The on-ramp charge as wert-charges answers it, in `status` (of this item, or `item`). */
export function wertCharge(status: WertChargeStatus, item = ITEM): WertChargeJson {
  const paid = ['order_complete', 'MINTING', 'MINTED'].includes(status);
  const open = (openWertChargeStatuses as readonly string[]).includes(status);
  return {
    id: CHARGE_ID,
    clickId: CHARGE_ID,
    status,
    partnerId: '01HVSANDBXPARTNER000000000',
    origin: 'http://127.0.0.1:8792',
    signedData: {
      address: '0x01cf0e2f2f715450',
      commodity: 'FUSD',
      commodity_amount: 25,
      network: 'flow-emulator',
      sc_address: '0xf8d6e0586b0a20c7',
      sc_input_data: '0x7b7d',
      signature: 'AB'.repeat(64),
    },
    itemInfo: { name: 'Night Market' },
    amount: PRICE,
    walletAddress: '0x01cf0e2f2f715450',
    providerOrderId: status === 'created' ? null : 'ord-1',
    txId: null,
    unresolved: open,
    success: paid,
    cancellable: ['created', 'paymentStarted', 'transferStarted'].includes(status),
    fusdTransactionId: null,
    expiresAt: '2026-11-22T10:30:00.000Z',
    createdAt: '2026-11-22T10:00:00.000Z',
    order: {
      id: '8b7a6f5e-4d3c-4b2a-9180-7f6e5d4c3b2a',
      method: 'wert',
      item,
      amount: PRICE,
      currency: 'USD',
      status: paid ? 'authorized' : open ? 'created' : status === 'canceled' ? 'canceled' : 'declined',
      walletAddress: '0x01cf0e2f2f715450',
      editions: [],
      failure: null,
      events: [],
      createdAt: '2026-11-22T10:00:00.000Z',
    },
  } as WertChargeJson;
}

export const NETWORK_ERROR = {
  status: 0,
  body: {
    code: 'NETWORK_FAILURE',
    message: 'Unknown connection error. Please check your connection and try again.',
  },
};
export const SOLD_OUT_ERROR = {
  status: 409,
  body: { code: 'SOLD_OUT', message: 'Sold out! Every edition of this item has been bought.' },
};
export const CANCEL_FAIL = {
  status: 400,
  body: { code: 'wert_cancel_fail', message: '' },
};
export const CHARGE_PENDING_ERROR = {
  status: 409,
  body: { code: 'CHARGE_PENDING', message: '', chargeId: CHARGE_ID },
};

export const SCENARIOS: Record<'blueprint', OnrampPaymentInput> = {
  blueprint: { userId: BUYER_ID, item: ITEM, price: PRICE, email: BUYER_EMAIL },
};

function userEvents(c: OnrampPaymentContext): OnrampPaymentEvent[] {
  return [
    { type: 'onramp.acknowledge', value: !c.acknowledged },
    { type: 'onramp.submit' },
    { type: 'onramp.back' },
    { type: 'onramp.resume' },
    { type: 'onramp.cancel' },
  ];
}
/** What the provider's widget reports (the harness's to raise: no control of ours sends them). */
export const WIDGET_EVENTS: OnrampPaymentEvent[] = [
  { type: 'onramp.widget.status', status: 'pending' },
  { type: 'onramp.widget.status', status: 'pending', txId: 'ab'.repeat(32) },
  { type: 'onramp.widget.status', status: 'success' },
  { type: 'onramp.widget.status', status: 'failed' },
  { type: 'onramp.widget.status', status: 'failover' },
  { type: 'onramp.widget.status', status: 'canceled' },
  { type: 'onramp.widget.close' },
];

export function serializeOnrampPayment(s: AnyMachineSnapshot) {
  const c = s.context as OnrampPaymentContext;
  if (s.status === 'done') return JSON.stringify([s.value, s.output]);
  return JSON.stringify([
    s.value,
    c.acknowledged,
    c.key ? 'key' : null,
    c.charge ? `charge ${c.charge.order.item.title}` : null,
    c.paying,
    c.polls,
    c.error?.code ?? null,
  ]);
}

export const onrampPaymentModel: MachineModel<typeof onrampPaymentMachine> = {
  machine: onrampPaymentMachine,
  fakes: ['findOpenCharge', 'createCharge', 'reportStarted', 'cancelCharge', 'getCharge'],
  provide: {
    // The widget's events are the paths' steps (WIDGET_EVENTS); the stand-in opens nothing.
    actors: { widget: fromCallback(() => {}) },
    guards: {
      pollsLeft: ({ context }: { context: OnrampPaymentContext }) => context.polls < MODEL_MAX_POLLS,
    },
  } as never,
  scenarios: [{ name: 'a buyer paying by card through the on-ramp', input: SCENARIOS.blueprint }],
  events: (s) => [
    ...userEvents(s.context as OnrampPaymentContext),
    ...WIDGET_EVENTS,
    { type: 'xstate.done.actor.findOpenCharge', output: null },
    { type: 'xstate.done.actor.findOpenCharge', output: wertCharge('created') },
    { type: 'xstate.done.actor.findOpenCharge', output: wertCharge('payment_started', OTHER_ITEM) },
    { type: 'xstate.error.actor.findOpenCharge', error: NETWORK_ERROR },
    { type: 'xstate.done.actor.createCharge', output: wertCharge('created') },
    { type: 'xstate.error.actor.createCharge', error: NETWORK_ERROR },
    { type: 'xstate.error.actor.createCharge', error: SOLD_OUT_ERROR },
    { type: 'xstate.error.actor.createCharge', error: CHARGE_PENDING_ERROR },
    { type: 'xstate.done.actor.reportStarted', output: wertCharge('paymentStarted') },
    { type: 'xstate.error.actor.reportStarted', error: NETWORK_ERROR },
    { type: 'xstate.done.actor.cancelCharge', output: wertCharge('canceled') },
    { type: 'xstate.error.actor.cancelCharge', error: CANCEL_FAIL },
    { type: 'xstate.error.actor.cancelCharge', error: NETWORK_ERROR },
    { type: 'xstate.done.actor.getCharge', output: wertCharge('order_complete') },
    { type: 'xstate.done.actor.getCharge', output: wertCharge('order_failed') },
    { type: 'xstate.done.actor.getCharge', output: wertCharge('transfer_started') },
    { type: 'xstate.done.actor.getCharge', output: wertCharge('tx_smart_contract_failed') },
    { type: 'xstate.error.actor.getCharge', error: NETWORK_ERROR },
    { type: 'xstate.after.pollInterval.onrampPayment.following.waiting' },
  ],
  serializeState: serializeOnrampPayment,
  expect: {
    // The buyer's open on-ramp charge is looked for first, and again when a create finds one.
    finding: (o) => {
      expectWorking(o, 'findOpenCharge', { userId: BUYER_ID });
      if (o.event.type !== 'xstate.init') expect(errorCode(o)).toBe('CHARGE_PENDING');
    },
    // An open charge blocks any other: resume it, cancel it, or leave.
    openCharge: (o) => {
      expect(o.snapshot.context.charge?.unresolved).toBe(true);
      if (after(o, 'error', 'cancelCharge')) expect(o.snapshot.context.error?.code).toBe('NETWORK_FAILURE');
    },
    cancellingOpen: (o) => {
      expect(o.event.type).toBe('onramp.cancel');
      expectWorking(o, 'cancelCharge', { id: CHARGE_ID });
    },
    review: (o) => {
      const c = o.snapshot.context;
      if (o.event.type === 'onramp.submit') expect(c.acknowledged).toBe(false);
      if (o.event.type === 'onramp.acknowledge') expect(c.acknowledged).toBe(o.event.value);
      // Only no answer keeps the attempt; every other end of a charge starts a new one.
      if (after(o, 'error', 'createCharge')) {
        expect(c.error?.code).toBe(errorCode(o));
        expect(c.key).toBe(errorCode(o) === 'NETWORK_FAILURE' ? o.before.context.key : null);
      } else if (o.event.type !== 'onramp.acknowledge' && o.event.type !== 'onramp.submit')
        expect(c.key).toBeNull();
      if (o.event.type === 'onramp.widget.status') expect(c.error).not.toBeNull();
      if (after(o, 'done', 'getCharge')) expect(c.error).not.toBeNull();
    },
    // Pay opens one on-ramp charge at the price seen; a retry after no answer reuses its key.
    creating: (o) => {
      const c = o.snapshot.context;
      expect(o.event.type).toBe('onramp.submit');
      expect(c.acknowledged).toBe(true);
      expectWorking(o, 'createCharge', { item: ITEM, price: PRICE, idempotencyKey: c.key });
      const keys = inputsOf(o, 'createCharge').map((i) => (i as { idempotencyKey: string }).idempotencyKey);
      if (repeatsAttempt(o)) expect(keys.at(-1)).toBe(keys.at(-2));
      else expect(keys.slice(0, -1)).not.toContain(keys.at(-1));
    },
    widget: (o) => expect(o.snapshot.context.charge).not.toBeNull(),
    // Paid in the widget: the server is told, best effort; cancelling is no longer possible.
    'widget.reporting': (o) => {
      expect(o.event.type).toBe('onramp.widget.status');
      const txId = (o.event as { txId?: string }).txId;
      expectWorking(o, 'reportStarted', {
        id: CHARGE_ID,
        status: txId ? 'transferStarted' : 'paymentStarted',
      });
      expect(o.snapshot.context.paying).toBe(true);
    },
    // Canceled, or closed before any payment: the charge is canceled and its unit released.
    cancelling: (o) => {
      if (o.event.type === 'onramp.widget.close') expect(o.snapshot.context.paying).toBe(false);
      else expect(o.event).toEqual({ type: 'onramp.widget.status', status: 'canceled' });
      expectWorking(o, 'cancelCharge', { id: CHARGE_ID });
    },
    // A payment under way: the charge is read until it ends, at most so many reads.
    following: (o) => expect(o.snapshot.context.polls).toBeLessThanOrEqual(MODEL_MAX_POLLS),
    'following.reading': (o) => {
      expectWorking(o, 'getCharge', { id: CHARGE_ID });
      if (o.event.type === 'onramp.widget.close') expect(o.before.context.paying).toBe(true);
      if (after(o, 'error', 'cancelCharge') && errorCode(o) === 'wert_cancel_fail')
        expect(o.snapshot.context.error?.code).toBe('wert_cancel_fail');
    },
    'following.waiting': (o) => expect(o.snapshot.context.polls).toBeLessThan(MODEL_MAX_POLLS),
    stillProcessing: (o) => expect(o.snapshot.context.polls).toBe(MODEL_MAX_POLLS),
    // Paid: the charge's purchase-complete page.
    paid: (o) => {
      const read = after(o, 'done', 'getCharge')
        ? (o.event as unknown as { output: WertChargeJson }).output
        : null;
      if (read) expect(read.success).toBe(true);
      else expect(o.event).toEqual({ type: 'onramp.widget.status', status: 'success' });
      const item = (read ?? o.snapshot.context.charge!).order.item as typeof ITEM;
      expectOutput(o, railPaid(wertCharge('created', item).order, 'wert', CHARGE_ID));
    },
    back: (o) => {
      expect(o.event.type).toBe('onramp.back');
      expectOutput(o, { type: 'back' });
    },
  },
};
