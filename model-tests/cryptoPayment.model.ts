import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import {
  type CryptoPaymentContext,
  type CryptoPaymentEvent,
  type CryptoPaymentInput,
  cryptoPaymentMachine,
} from '../machines/cryptoPayment';
import { after, expectOutput, expectWorking, inputsOf } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof cryptoPaymentMachine>;
const errorCode = (o: O) => (o.event as { error?: typeof NETWORK_ERROR }).error?.body.code ?? null;
const keys = (o: O) =>
  inputsOf(o, 'createCharge').map((i) => (i as { idempotencyKey: string }).idempotencyKey);
/**
 * Whether this Pay repeats the attempt before it: the last charge got no answer (a network
 * failure) and the acknowledgement has not changed since.
 */
function repeatsAttempt(o: O) {
  const last = o.history
    .slice(0, -1)
    .findLast(
      (e) =>
        e.type === 'crypto.acknowledge' || (e.type.startsWith('xstate.') && e.type.endsWith('.createCharge')),
    );
  return (
    last?.type === 'xstate.error.actor.createCharge' &&
    (last.error as typeof NETWORK_ERROR).body.code === 'NETWORK_FAILURE'
  );
}

export const ITEM = {
  kind: 'blueprint' as const,
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  title: 'Night Market',
};
export const PACK = {
  kind: 'pack' as const,
  id: '3f2e1d0c-9b8a-4796-8584-736251403f2e',
  title: 'Night Market Pack',
};
export const PRICE = 2500;
export const BUYER_EMAIL = 'grace@example.com';
export const ORDER_ID = '7e6d5c4b-3a29-4817-9f6e-5d4c3b2a1908';
export const CHARGE_ID = '1e0d9c8b-7a6f-4e5d-9c3b-2a1f0e9d8c7b';
export const OTHER_CHARGE_ID = '2f1e0d9c-8b7a-4f6e-8d4c-3b2a1f0e9d8c';
export const HOSTED_URL = 'http://127.0.0.1:8791/pay/CHRG4K7Q';

/** A crypto charge of a direct purchase: open on its hosted page, or without one. */
export function charge(kind: 'open' | 'noHostedPage'): CoinbaseChargeJson {
  const open = kind === 'open';
  return {
    id: CHARGE_ID,
    type: 'directPurchase',
    status: 'NEW',
    context: null,
    hostedUrl: open ? HOSTED_URL : null,
    code: open ? 'CHRG4K7Q' : null,
    amount: PRICE,
    paid: 0,
    unresolved: open,
    success: false,
    walletAddress: '0x01cf0e2f2f715450',
    fusdTransactionId: null,
    expiresAt: '2026-11-22T11:00:00.000Z',
    createdAt: '2026-11-22T10:00:00.000Z',
    order: {
      id: ORDER_ID,
      method: 'coinbase',
      item: ITEM,
      amount: PRICE,
      currency: 'USD',
      status: 'created',
      walletAddress: '0x01cf0e2f2f715450',
      editions: [],
      failure: null,
      events: [],
      createdAt: '2026-11-22T10:00:00.000Z',
    },
  };
}

export const NETWORK_ERROR = {
  status: 0,
  body: {
    code: 'NETWORK_FAILURE',
    message: 'Unknown connection error. Please check your connection and try again.',
  },
};
export const CHARGE_PENDING_ERROR = {
  status: 409,
  body: { code: 'CHARGE_PENDING', message: '', chargeId: OTHER_CHARGE_ID },
};
export const SOLD_OUT_ERROR = {
  status: 409,
  body: { code: 'SOLD_OUT', message: 'Sold out! Every edition of this item has been bought.' },
};
export const PROVIDER_ERROR = {
  status: 502,
  body: { code: 'CRYPTO_PROVIDER', message: '' },
};

export const SCENARIOS: Record<'blueprint', CryptoPaymentInput> = {
  blueprint: { item: ITEM, price: PRICE, email: BUYER_EMAIL },
};

/**
 * The user events the paths explore: ticking or unticking the acknowledgement (a click flips the
 * box: only the other value is offered), Pay and Back. The harness offers only those the machine
 * takes (Pay needs the acknowledgement).
 */
function userEvents(c: CryptoPaymentContext): CryptoPaymentEvent[] {
  return [
    { type: 'crypto.acknowledge', value: !c.acknowledged },
    { type: 'crypto.submit' },
    { type: 'crypto.back' },
  ];
}

/** Only what the state shows: value, acknowledgement, whether an attempt is pending, the error. */
export function serializeCryptoPayment(s: AnyMachineSnapshot) {
  const c = s.context as CryptoPaymentContext;
  if (s.status === 'done') return JSON.stringify([s.value, s.output]);
  return JSON.stringify([s.value, c.acknowledged, c.attempt ? 'key' : null, c.error?.code ?? null]);
}

export const cryptoPaymentModel: MachineModel<typeof cryptoPaymentMachine> = {
  machine: cryptoPaymentMachine,
  fakes: ['createCharge'],
  scenarios: [{ name: 'a buyer paying for a blueprint with crypto', input: SCENARIOS.blueprint }],
  events: (s) => [
    ...userEvents(s.context as CryptoPaymentContext),
    { type: 'xstate.done.actor.createCharge', output: charge('open') },
    { type: 'xstate.done.actor.createCharge', output: charge('noHostedPage') },
    { type: 'xstate.error.actor.createCharge', error: NETWORK_ERROR },
    { type: 'xstate.error.actor.createCharge', error: CHARGE_PENDING_ERROR },
  ],
  serializeState: serializeCryptoPayment,
  expect: {
    // Without the acknowledgement there is no Pay; a refusal is shown here, and only no answer keeps the attempt.
    review: (o) => {
      const c = o.snapshot.context;
      if (o.event.type === 'crypto.submit') expect(c.acknowledged).toBe(false);
      if (o.event.type === 'crypto.acknowledge') {
        expect(c.acknowledged).toBe(o.event.value);
        expect(c.attempt).toBeNull();
      }
      if (after(o, 'error', 'createCharge')) {
        expect(c.error?.code).toBe(errorCode(o));
        expect(c.attempt).toEqual(errorCode(o) === 'NETWORK_FAILURE' ? o.before.context.attempt : null);
      }
      // A charge without a hosted page cannot be paid.
      if (after(o, 'done', 'createCharge')) {
        expect(c.error?.code).toBe('CREATE_COINBASE_CHARGE');
        expect(c.attempt).toBeNull();
      }
    },
    // Pay opens one hosted charge for the item at the price seen; a retry after no answer reuses its key.
    creating: (o) => {
      const c = o.snapshot.context;
      expect(o.event.type).toBe('crypto.submit');
      expect(c.acknowledged).toBe(true);
      expect(c.error).toBeNull();
      expectWorking(o, 'createCharge', { item: ITEM, price: PRICE, idempotencyKey: c.attempt?.key });
      const all = keys(o);
      if (repeatsAttempt(o)) expect(all.at(-1)).toBe(all.at(-2));
      else expect(all.slice(0, -1)).not.toContain(all.at(-1));
    },
    // The hosted page ends the flow: the checkout sends the browser there.
    redirect: (o) => {
      expect(after(o, 'done', 'createCharge')).toBe(true);
      expectOutput(o, { type: 'redirect', url: HOSTED_URL });
    },
    back: (o) => {
      expect(o.event.type).toBe('crypto.back');
      expectOutput(o, { type: 'back' });
    },
  },
};
