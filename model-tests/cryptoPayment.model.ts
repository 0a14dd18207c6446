import type { AnyMachineSnapshot } from 'xstate';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import {
  type CryptoPaymentContext,
  type CryptoPaymentEvent,
  type CryptoPaymentInput,
  cryptoPaymentMachine,
} from '../machines/cryptoPayment';
import type { MachineModel } from './harness';

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
};
