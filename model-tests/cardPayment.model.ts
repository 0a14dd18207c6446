import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { type BillingFormValues, emptyBillingForm } from '#domain/billing';
import type { BillingInfoJson, CardChargeJson, OrderStatus } from '#domain/schemas/checkout';
import {
  type CardPaymentContext,
  type CardPaymentEvent,
  type CardPaymentInput,
  cardPaymentMachine,
} from '../machines/cardPayment';
import { railPaid } from '../machines/railOutcome';
import { after, expectNotCalled, expectOutput, expectWorking, inputsOf } from './expect';
import type { Expectations, MachineModel, Observed } from './harness';

export const ITEM = {
  kind: 'blueprint' as const,
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  title: 'Night Market',
};
export const PRICE = 2500;
export const BUYER_EMAIL = 'grace@example.com';
export const ORDER_ID = '7e6d5c4b-3a29-4817-9f6e-5d4c3b2a1908';
export const CHARGE_ID = '0d9c8b7a-6f5e-4d3c-8b2a-19f8e7d6c5b4';
export const TOKEN = `tok_${'a'.repeat(26)}`;
export const REDIRECT_URL = 'http://127.0.0.1:8790/3ds/sid_ubfj2q76miwundwlk72vxt2i7q';
/** Two years ahead: never expired while the tests run. */
export const EXPIRY_YEAR = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');

function savedCard(id: string, scheme: string, last4: string, month: number): BillingInfoJson {
  return {
    id,
    lastFourDigits: last4,
    scheme,
    expiryMonth: month,
    expiryYear: 2030,
    firstName: 'Grace',
    lastName: 'Hopper',
    addressLine1: '1 Main St',
    addressLine2: null,
    city: 'New York',
    state: 'NY',
    country: 'US',
    zipCode: '10001',
    phoneNumber: { countryCode: '1', number: '2125550123' },
    billingAddress: {
      addressLine1: '1 Main St',
      addressLine2: null,
      zip: '10001',
      city: 'New York',
      state: 'NY',
      country: 'US',
    },
    status: 'verified',
    createdAt: '2026-11-01T10:00:00.000Z',
  };
}
export const VISA_CARD = savedCard('5c2f6a10-8d3e-4b7a-9c1d-2e3f4a5b6c7d', 'VISA', '4242', 4);
export const MASTERCARD_CARD = savedCard('6d3a7b21-9e4f-4c8b-8d2e-3f4a5b6c7d8e', 'MASTERCARD', '6378', 11);
export const SAVED_CARDS = [VISA_CARD, MASTERCARD_CARD];

/** A complete new Visa card with a New York billing address. */
export const VALID_FORM: BillingFormValues = {
  ...emptyBillingForm,
  firstName: 'Grace',
  lastName: 'Hopper',
  addressLine1: '1 Main St',
  city: 'New York',
  country: 'US',
  state: 'NY',
  zipCode: '10001',
  phone: '212 555 0123',
  cardNumber: '4242 4242 4242 4242',
  expiryMonth: '12',
  expiryYear: EXPIRY_YEAR,
  cvv: '123',
};
/** The same with an American Express number: refused. */
export const AMEX_FORM: BillingFormValues = { ...VALID_FORM, cardNumber: '3782 822463 10005' };
/** Form presets by name, for the serialized state. */
export const FORMS: Record<string, BillingFormValues> = {
  empty: emptyBillingForm,
  valid: VALID_FORM,
  validSaved: { ...VALID_FORM, save: true },
  amex: AMEX_FORM,
  amexSaved: { ...AMEX_FORM, save: true },
};
const formName = (values: BillingFormValues) =>
  Object.entries(FORMS).find(([, v]) => JSON.stringify(v) === JSON.stringify(values))?.[0] ??
  JSON.stringify(values);

/** A card charge in one of its states. */
export function charge(kind: 'approved' | 'challenge' | 'declined' | 'pending'): CardChargeJson {
  const status: Record<typeof kind, [CardChargeJson['status'], OrderStatus]> = {
    approved: ['Authorized', 'authorized'],
    challenge: ['Pending', 'created'],
    declined: ['Declined', 'declined'],
    pending: ['Pending', 'created'],
  };
  return {
    id: CHARGE_ID,
    orderId: ORDER_ID,
    status: status[kind][0],
    redirectLink: kind === 'challenge' ? REDIRECT_URL : null,
    success: kind === 'approved',
    unresolved: kind === 'challenge' || kind === 'pending',
    last4: '4242',
    order: {
      id: ORDER_ID,
      method: 'creditCard',
      item: ITEM,
      amount: PRICE,
      currency: 'USD',
      status: status[kind][1],
      walletAddress: '0x01cf0e2f2f715450',
      editions: [],
      failure: kind === 'declined' ? { code: 'CARD_DECLINED', message: 'Your card was not charged.' } : null,
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
export const DECLINE_ERROR = {
  status: 402,
  body: { code: 'CARD_DECLINED', message: 'Purchase Failed. Your card was not charged.', orderId: ORDER_ID },
};
export const SOLD_OUT_ERROR = {
  status: 409,
  body: { code: 'SOLD_OUT', message: 'Sold out! Every edition of this item has been bought.' },
};
export const CARD_TYPE_ERROR = {
  status: 400,
  body: {
    code: 'CARD_TYPE',
    field: 'cardNumber',
    message: 'This card type is not supported. We accept Visa, Mastercard and Discover.',
  },
};
export const NOT_FOUND_ERROR = {
  status: 404,
  body: { code: 'not_found', message: "We couldn't find what you're looking for" },
};

const base: CardPaymentInput = { item: ITEM, price: PRICE, email: BUYER_EMAIL };
export const SCENARIOS = {
  fresh: base,
  checkpoint: { ...base, checkpoint: { chargeId: CHARGE_ID, step: 'redirect' as const } },
  resume: { ...base, resume: charge('challenge') },
};

/**
 * The user events the paths explore. Gestures that commute (typing, choosing, ticking) are explored
 * in one order, which keeps the graph small while every transition is still taken: the saved card is
 * switched and "Use a new card" pressed only on the untouched form, the security code is typed short
 * first and then in full, the acknowledgement is ticked once something is entered (unticking is a
 * unit test), and the new-card form is explored without saved cards (with them, only "Use a saved
 * card" is). Only events that change something are offered: a browser raises no others.
 */
function userEvents(c: CardPaymentContext): CardPaymentEvent[] {
  const form = formName(c.values);
  const untouched = !c.acknowledged && c.cvv === '' && form === 'empty' && !c.attempt && !c.error;
  const events: CardPaymentEvent[] = [{ type: 'card.submit' }, { type: 'card.retry' }];
  if (untouched) events.push({ type: 'card.back' });
  if (c.method === 'saved') {
    if (untouched && c.selectedId === VISA_CARD.id)
      events.push({ type: 'card.select', id: MASTERCARD_CARD.id });
    if (untouched) events.push({ type: 'card.new' });
    if (c.cvv === '') events.push({ type: 'card.cvv', value: '12' });
    if (c.cvv === '12') events.push({ type: 'card.cvv', value: '123' });
    if (!c.acknowledged && c.cvv !== '') events.push({ type: 'card.acknowledge', value: true });
    return events;
  }
  if (c.cards.length > 0) return [...events, { type: 'card.saved' }];
  if (form === 'empty' || form === 'amex') events.push({ type: 'card.change', values: VALID_FORM });
  if (form === 'valid') {
    events.push({ type: 'card.change', values: { cardNumber: AMEX_FORM.cardNumber } });
    events.push({ type: 'card.change', values: { save: true } });
  }
  if (!c.acknowledged) events.push({ type: 'card.acknowledge', value: true });
  return events;
}

/** Only what the state shows: value, the card chosen, the form preset, errors, acknowledgement, attempt. */
export function serializeCardPayment(s: AnyMachineSnapshot) {
  const c = s.context as CardPaymentContext;
  if (s.status === 'done') return JSON.stringify([s.value, s.output]);
  return JSON.stringify([
    s.value,
    c.cards.length,
    c.method,
    c.selectedId?.slice(0, 4) ?? null,
    c.cvv,
    formName(c.values),
    Object.keys(c.errors).sort(),
    c.acknowledged,
    c.attempt ? (c.attempt.token ?? 'key') : null,
    c.error?.code ?? null,
  ]);
}

type O = Observed<typeof cardPaymentMachine>;
const ctx = (o: O) => o.snapshot.context as CardPaymentContext;
const errorCode = (o: O) =>
  ((o.event as { error?: typeof NETWORK_ERROR }).error?.body.code ?? null) as string | null;
/** Gestures that change the card, its details or the choice of card: each starts a new attempt. */
const CHANGES = ['card.change', 'card.select', 'card.cvv', 'card.new', 'card.saved'];
/**
 * Whether this charge repeats the attempt before it: the last thing that happened to the attempt
 * was a charge that got no answer (a network failure), and the buyer changed nothing since.
 */
function repeatsAttempt(o: O) {
  const earlier = o.history.slice(0, -1);
  const last = earlier.findLast(
    (e) =>
      CHANGES.includes(e.type) ||
      e.type === 'xstate.error.actor.createCharge' ||
      e.type === 'xstate.error.actor.tokenizeCard',
  );
  return (
    last?.type === 'xstate.error.actor.createCharge' &&
    (last.error as typeof NETWORK_ERROR).body.code === 'NETWORK_FAILURE'
  );
}

/** What the rules say of the card rail (docs/checkout.md, the machines table, the form's texts). */
const cardPaymentExpect: Expectations<typeof cardPaymentMachine> = {
  // Coming back with a charge: it is read, never created again.
  restoring: (o) => {
    expectWorking(o, 'getCharge', { id: CHARGE_ID });
    expectNotCalled(o, 'createCharge');
  },
  restoreFailed: (o) => {
    expectNotCalled(o, 'createCharge');
    expect(ctx(o).error).not.toBeNull();
    if (after(o, 'done', 'getCharge')) expect(ctx(o).error?.code).toBe('CHARGE_PROCESSING');
    else expect(ctx(o).error?.code).toBe('NETWORK_FAILURE');
  },
  // Paying afresh: at the start, or when the remembered charge is one the server does not know.
  loading: (o) => {
    expectWorking(o, 'listBillingInfo');
    expect(after(o, 'done', 'getCharge')).toBe(false);
    if (after(o, 'error', 'getCharge')) expect(errorCode(o)).toBe('not_found');
    expect(ctx(o).attempt).toBeNull();
  },
  form: (o) => {
    const c = ctx(o);
    // Saved cards first, the newest chosen; none or unreadable: the new-card form.
    if (after(o, 'done', 'listBillingInfo')) {
      const cards = (o.event as unknown as { output: typeof SAVED_CARDS }).output;
      expect(c.method).toBe(cards.length > 0 ? 'saved' : 'new');
      expect(c.selectedId).toBe(cards[0]?.id ?? null);
    }
    if (after(o, 'error', 'listBillingInfo')) expect(c).toMatchObject({ method: 'new', cards: [] });
    // A refusal comes back to the form with its message; only no answer keeps the attempt.
    if (after(o, 'error', 'createCharge') || after(o, 'error', 'tokenizeCard')) {
      expect(c.error?.code).toBe(errorCode(o));
      if (errorCode(o) === 'NETWORK_FAILURE') expect(c.attempt).toEqual(o.before.context.attempt);
      else expect(c.attempt).toBeNull();
    }
    if (CHANGES.includes(o.event.type)) expect(c.attempt).toBeNull();
    // Without the acknowledgement there is no Pay.
    if (o.event.type === 'card.submit') {
      expect(!c.acknowledged || Object.keys(c.errors).length > 0).toBe(true);
    }
  },
  'form.saved': (o) => {
    expect(ctx(o).method).toBe('saved');
    expect(ctx(o).cards.map((card) => card.id)).toContain(ctx(o).selectedId);
    if (o.event.type === 'card.submit' && ctx(o).acknowledged) expect(ctx(o).errors.cvv).toBeTruthy();
  },
  'form.newCard': (o) => {
    expect(ctx(o).method).toBe('new');
    if (o.event.type === 'card.submit' && ctx(o).acknowledged)
      expect(Object.keys(ctx(o).errors).length).toBeGreaterThan(0);
  },
  paying: (o) => {
    expect(ctx(o).acknowledged).toBe(true);
    expect(ctx(o)).toMatchObject({ errors: {}, error: null });
  },
  // A new card is tokenized at the provider before the charge, its number never sent to the server.
  'paying.tokenizing': (o) => {
    const c = ctx(o);
    expect(c.method).toBe('new');
    expect(o.event.type).toBe('card.submit');
    expectWorking(o, 'tokenizeCard');
    const input = inputsOf(o, 'tokenizeCard').at(-1) as { card: { number: string } };
    expect(input.card.number.replaceAll(' ', '')).toBe(c.values.cardNumber.replaceAll(' ', ''));
  },
  // One charge per attempt: a retry after no answer sends the same key (and token) again.
  'paying.charging': (o) => {
    const c = ctx(o);
    const keys = inputsOf(o, 'createCharge').map((i) => (i as { idempotencyKey: string }).idempotencyKey);
    const body = inputsOf(o, 'createCharge').at(-1) as Record<string, unknown>;
    expectWorking(o, 'createCharge');
    expect(body).toMatchObject({ item: { kind: ITEM.kind, id: ITEM.id }, expectedPrice: PRICE });
    if (c.method === 'saved') {
      expect(body.savedBillingInfo).toEqual({ id: c.selectedId, cvv: c.cvv });
      expect(c.cvv).toBe('123');
    } else {
      expect(body.billingInfo).toMatchObject({ cardToken: TOKEN, save: c.values.save });
      expect(JSON.stringify(body)).not.toContain('4242 4242');
    }
    if (repeatsAttempt(o)) expect(keys.at(-1)).toBe(keys.at(-2));
    else expect(keys.slice(0, -1)).not.toContain(keys.at(-1));
  },
  paid: (o) => {
    const read = after(o, 'done', 'getCharge');
    expect(read || after(o, 'done', 'createCharge')).toBe(true);
    expectOutput(o, railPaid(charge('approved').order, 'creditCard', CHARGE_ID));
  },
  // 3-D Secure: off to the provider's page.
  redirect: (o) => expectOutput(o, { type: 'redirect', url: REDIRECT_URL }),
  // Declined: the order's failure page.
  failed: (o) => {
    expectOutput(o, { type: 'failed', orderId: ORDER_ID });
    if (after(o, 'error', 'createCharge')) expect(errorCode(o)).toBe('CARD_DECLINED');
  },
  back: (o) => {
    expect(o.event.type).toBe('card.back');
    expectOutput(o, { type: 'back' });
  },
};

export const cardPaymentModel: MachineModel<typeof cardPaymentMachine> = {
  machine: cardPaymentMachine,
  fakes: ['listBillingInfo', 'tokenizeCard', 'createCharge', 'getCharge'],
  scenarios: [{ name: 'a buyer paying for a blueprint', input: SCENARIOS.fresh }],
  events: (s) => {
    const c = s.context as CardPaymentContext;
    return [
      { type: 'xstate.done.actor.listBillingInfo', output: SAVED_CARDS },
      { type: 'xstate.done.actor.listBillingInfo', output: [] },
      { type: 'xstate.error.actor.listBillingInfo', error: NETWORK_ERROR },
      ...userEvents(c),
      { type: 'xstate.done.actor.tokenizeCard', output: { token: TOKEN, scheme: 'VISA', last4: '4242' } },
      { type: 'xstate.error.actor.tokenizeCard', error: NETWORK_ERROR },
      { type: 'xstate.error.actor.tokenizeCard', error: CARD_TYPE_ERROR },
      { type: 'xstate.done.actor.createCharge', output: charge('approved') },
      { type: 'xstate.done.actor.createCharge', output: charge('challenge') },
      { type: 'xstate.done.actor.createCharge', output: charge('declined') },
      { type: 'xstate.error.actor.createCharge', error: DECLINE_ERROR },
      { type: 'xstate.error.actor.createCharge', error: NETWORK_ERROR },
      { type: 'xstate.error.actor.createCharge', error: SOLD_OUT_ERROR },
    ];
  },
  serializeState: serializeCardPayment,
  expect: cardPaymentExpect,
};

/**
 * Coming back from 3-D Secure, or resuming a charge: the charge is read, never created. A charge
 * the server does not know leads to the form, whose paths the model above explores.
 */
export const cardPaymentRestoreModel: MachineModel<typeof cardPaymentMachine> = {
  machine: cardPaymentMachine,
  fakes: ['listBillingInfo', 'getCharge'],
  scenarios: [
    { name: 'back from 3-D Secure', input: SCENARIOS.checkpoint },
    { name: 'resuming a charge waiting for 3-D Secure', input: SCENARIOS.resume },
  ],
  events: () => [
    { type: 'xstate.done.actor.getCharge', output: charge('approved') },
    { type: 'xstate.done.actor.getCharge', output: charge('declined') },
    { type: 'xstate.done.actor.getCharge', output: charge('challenge') },
    { type: 'xstate.done.actor.getCharge', output: charge('pending') },
    { type: 'xstate.error.actor.getCharge', error: NOT_FOUND_ERROR },
    { type: 'xstate.error.actor.getCharge', error: NETWORK_ERROR },
    { type: 'card.retry' },
    { type: 'card.back' },
  ],
  serializeState: serializeCardPayment,
  expect: cardPaymentExpect,
};
