import { expect } from 'vitest';
import { type AnyMachineSnapshot, fromCallback } from 'xstate';
import { railPaid } from '../machines/railOutcome';
import {
  type WalletPaymentContext,
  type WalletPaymentEvent,
  type WalletPaymentInput,
  walletPaymentMachine,
} from '../machines/walletPayment';
import { CHARGE_ID, charge, ITEM, NETWORK_ERROR, ORDER_ID, PRICE, REDIRECT_URL } from './cardPayment.model';
import { after, expectNotCalled, expectOutput, expectWorking, inputsOf } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof walletPaymentMachine>;
const errorCode = (o: O) => (o.event as { error?: { body?: { code: string } } }).error?.body?.code ?? null;
const chargeKeys = (o: O) =>
  inputsOf(o, 'createCharge').map((i) => (i as { idempotencyKey: string }).idempotencyKey);
/**
 * Whether this charge asks again for the one before it: that one got no answer (a network
 * failure), or an answer that was neither paid nor 3-D Secure (the same charge is asked about).
 */
function repeatsCharge(o: O) {
  const last = o.history
    .slice(0, -1)
    .findLast(
      (e) => e.type === 'xstate.error.actor.createCharge' || e.type === 'xstate.done.actor.createCharge',
    );
  if (last?.type === 'xstate.done.actor.createCharge') return true;
  return (last?.error as typeof NETWORK_ERROR | undefined)?.body.code === 'NETWORK_FAILURE';
}

export { charge, ITEM, NETWORK_ERROR, ORDER_ID, PRICE };
export const BUYER_EMAIL = 'grace@example.com';
/** A contact complete by the rules of both wallets (Apple Pay's needs the phone too). */
export const ADDRESS = {
  firstName: 'Grace',
  lastName: 'Hopper',
  addressLine1: '1 Test Street',
  city: 'Arlington',
  state: 'VA',
  zipCode: '22201',
  country: 'US',
  phoneNumber: '+1 703 555 0100',
};
export const AUTHORIZED: WalletPaymentEvent = {
  type: 'wallet.authorized',
  authorization: { tokenData: { version: 'EC_v1' }, billing: ADDRESS },
};
export const NO_ADDRESS: WalletPaymentEvent = {
  type: 'wallet.authorized',
  authorization: {
    tokenData: { version: 'EC_v1' },
    billing: { firstName: 'Grace', phoneNumber: ADDRESS.phoneNumber },
  },
};
export const DECLINED = {
  status: 402,
  body: { code: 'CARD_INSUFFICIENT_FUNDS', message: '', orderId: ORDER_ID },
};
export const SOLD_OUT_ERROR = {
  status: 409,
  body: { code: 'SOLD_OUT', message: 'Sold out! Every edition of this item has been bought.' },
};
export const TOKEN_ERROR = { status: 400, body: { code: 'CHECKOUT_COM_TOKEN', message: '' } };

export const SCENARIOS: Record<'applepay' | 'googlepay', WalletPaymentInput> = {
  applepay: { wallet: 'applepay', item: ITEM, price: PRICE, email: BUYER_EMAIL },
  googlepay: { wallet: 'googlepay', item: ITEM, price: PRICE, email: BUYER_EMAIL },
};

/** What the wallet's own sheet reports (the harness's to raise: it is not our view). */
export const SHEET_EVENTS: WalletPaymentEvent[] = [
  AUTHORIZED,
  NO_ADDRESS,
  { type: 'wallet.canceled' },
  { type: 'wallet.failed', error: new Error('merchant validation refused') },
];

/** What the buyer types into the "Google Pay billing" form: the rest of the address, or a blank city. */
export const REST_OF_ADDRESS = {
  addressLine1: '1 Test Street',
  city: 'Arlington',
  state: 'VA',
  zipCode: '22201',
};
export const BLANK_CITY = { city: '' };

/** User events; a form change only where it changes something (a browser raises no others). */
function userEvents(s: AnyMachineSnapshot): WalletPaymentEvent[] {
  const c = s.context as WalletPaymentContext;
  const events: WalletPaymentEvent[] = [
    { type: 'wallet.acknowledge', value: !c.acknowledged },
    { type: 'wallet.submit' },
    { type: 'wallet.back' },
    { type: 'wallet.billing.submit' },
  ];
  if (s.matches({ paying: 'billing' })) {
    if (c.billing.addressLine1 === '')
      events.push({ type: 'wallet.billing.change', values: REST_OF_ADDRESS });
    if (c.billing.city !== '') events.push({ type: 'wallet.billing.change', values: BLANK_CITY });
  }
  return events;
}

export function serializeWalletPayment(s: AnyMachineSnapshot) {
  const c = s.context as WalletPaymentContext;
  if (s.status === 'done') return JSON.stringify([s.value, s.output]);
  const { addressLine1, city, state, zipCode } = c.billing;
  return JSON.stringify([
    s.value,
    c.acknowledged,
    c.key ? 'key' : null,
    c.error?.code ?? null,
    [addressLine1, city, state, zipCode],
    Object.keys(c.billingErrors).sort(),
    c.authorization?.billing.city ?? null,
  ]);
}

export const walletPaymentModel: MachineModel<typeof walletPaymentMachine> = {
  machine: walletPaymentMachine,
  fakes: ['tokenizeWallet', 'createCharge'],
  // The sheet's events are the paths' steps (SHEET_EVENTS); the stand-in opens nothing.
  provide: { actors: { sheet: fromCallback(() => {}) } },
  scenarios: [
    { name: 'a buyer paying with Apple Pay', input: SCENARIOS.applepay },
    { name: 'a buyer paying with Google Pay', input: SCENARIOS.googlepay },
  ],
  events: (s) => [
    ...userEvents(s),
    ...SHEET_EVENTS,
    { type: 'xstate.done.actor.tokenizeWallet', output: { token: 'tok_abcdefghijklmnopqrstuvwxyz' } },
    { type: 'xstate.error.actor.tokenizeWallet', error: TOKEN_ERROR },
    { type: 'xstate.done.actor.createCharge', output: charge('approved') },
    { type: 'xstate.done.actor.createCharge', output: charge('challenge') },
    { type: 'xstate.done.actor.createCharge', output: { ...charge('pending'), redirectLink: null } },
    { type: 'xstate.error.actor.createCharge', error: DECLINED },
    { type: 'xstate.error.actor.createCharge', error: NETWORK_ERROR },
    { type: 'xstate.error.actor.createCharge', error: SOLD_OUT_ERROR },
  ],
  serializeState: serializeWalletPayment,
  expect: {
    // The panel: Pay needs the acknowledgement; whatever stopped the payment is shown here.
    review: (o) => {
      const c = o.snapshot.context;
      if (o.event.type === 'wallet.submit') expect(c.acknowledged).toBe(false);
      if (o.event.type === 'wallet.acknowledge') expect(c.acknowledged).toBe(o.event.value);
      if (o.event.type === 'wallet.canceled') expect(c.error?.code).toBe('APPLE_PAY_CANCELED');
      if (o.event.type === 'wallet.failed') expect(c.error?.code).toBe('PROCESSING_ERROR');
      if (after(o, 'error', 'tokenizeWallet')) expect(c.error?.code).toBe('CHECKOUT_COM_TOKEN');
      if (after(o, 'done', 'createCharge')) expect(c.error?.code).toBe('PROCESSING_ERROR');
      if (after(o, 'error', 'createCharge')) {
        expect(c.error?.code).toBe(errorCode(o));
        expect(c.key).toBe(errorCode(o) === 'NETWORK_FAILURE' ? o.before.context.key : null);
      }
      // Apple Pay without the whole contact: APPLE_PAY_ADDRESS, naming the missing field.
      if (o.event.type === 'wallet.authorized') {
        expect(c.wallet).toBe('applepay');
        expect(c.error).toMatchObject({ code: 'APPLE_PAY_ADDRESS', field: 'addressLine1' });
      }
    },
    'paying.sheet': (o) => {
      const c = o.snapshot.context;
      expect(o.event.type).toBe('wallet.submit');
      expect(c.acknowledged).toBe(true);
      expect(c.key).not.toBeNull();
      expect(c.error).toBeNull();
    },
    // Google Pay without the whole address: the billing form, filled with what Google shared.
    'paying.billing': (o) => {
      const c = o.snapshot.context;
      expect(c.wallet).toBe('googlepay');
      if (o.event.type === 'wallet.authorized') {
        expect(c.billing).toMatchObject({ firstName: 'Grace', addressLine1: '', country: 'US' });
        expect(c.billingErrors).toEqual({});
      }
      if (o.event.type === 'wallet.billing.submit')
        expect(c.billingErrors.city ?? c.billingErrors.addressLine1).toBeTruthy();
      expectNotCalled(o, 'createCharge');
    },
    // A whole contact: the wallet's token is exchanged for a card token at the provider.
    'paying.tokenizing': (o) => {
      const c = o.snapshot.context;
      expectWorking(o, 'tokenizeWallet', { wallet: c.wallet, tokenData: { version: 'EC_v1' } });
      expect(c.authorization?.billing).toMatchObject({
        addressLine1: '1 Test Street',
        city: 'Arlington',
        zipCode: '22201',
      });
    },
    // Charged like a card, with the wallet's card token and contact; one key per attempt.
    'paying.charging': (o) => {
      const c = o.snapshot.context;
      expectWorking(o, 'createCharge');
      expect(inputsOf(o, 'createCharge').at(-1)).toMatchObject({
        item: { kind: ITEM.kind, id: ITEM.id },
        expectedPrice: PRICE,
        idempotencyKey: c.key,
        billingInfo: {
          wallet: c.wallet,
          cardToken: 'tok_abcdefghijklmnopqrstuvwxyz',
          addressLine1: '1 Test Street',
          city: 'Arlington',
          zipCode: '22201',
          country: 'US',
        },
      });
      const keys = chargeKeys(o);
      if (repeatsCharge(o)) expect(keys.at(-1)).toBe(keys.at(-2));
      else expect(keys.slice(0, -1)).not.toContain(keys.at(-1));
    },
    paid: (o) => {
      expect(after(o, 'done', 'createCharge')).toBe(true);
      expectOutput(o, railPaid(charge('approved').order, 'creditCard', CHARGE_ID));
    },
    redirect: (o) => expectOutput(o, { type: 'redirect', url: REDIRECT_URL }),
    failed: (o) => {
      expect(errorCode(o)).toBe('CARD_INSUFFICIENT_FUNDS');
      expectOutput(o, { type: 'failed', orderId: ORDER_ID });
    },
    back: (o) => {
      expect(o.event.type).toBe('wallet.back');
      expectOutput(o, { type: 'back' });
    },
  },
};
