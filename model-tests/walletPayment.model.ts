import { type AnyMachineSnapshot, fromCallback } from 'xstate';
import {
  type WalletPaymentContext,
  type WalletPaymentEvent,
  type WalletPaymentInput,
  walletPaymentMachine,
} from '../machines/walletPayment';
import { charge, ITEM, NETWORK_ERROR, ORDER_ID, PRICE } from './cardPayment.model';
import type { MachineModel } from './harness';

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
};
