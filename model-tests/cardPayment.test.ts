import { afterAll, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { CardChargeJson, CreateCardChargeBody } from '#domain/schemas/checkout';
import {
  type CardPaymentInput,
  type CardToken,
  cardPaymentMachine,
  type TokenizeInput,
} from '../machines/cardPayment';
import { cardPaid } from '../machines/cardPayment/charge';
import { connectCardPayment } from '../machines/cardPaymentView';
import {
  AMEX_FORM,
  BUYER_EMAIL,
  CHARGE_ID,
  cardPaymentModel,
  cardPaymentRestoreModel,
  charge,
  DECLINE_ERROR,
  ITEM,
  MASTERCARD_CARD,
  NETWORK_ERROR,
  ORDER_ID,
  PRICE,
  REDIRECT_URL,
  SAVED_CARDS,
  SCENARIOS,
  SOLD_OUT_ERROR,
  TOKEN,
  VALID_FORM,
  VISA_CARD,
} from './cardPayment.model';
import { flushCoverage } from './coverage-store';
import { flush, generatePaths, runPath } from './harness';

describe('cardPayment machine paths', () => {
  const paths = [...generatePaths(cardPaymentModel), ...generatePaths(cardPaymentRestoreModel)];
  it('generates paths', () => expect(paths.length).toBeGreaterThan(20));
  for (const path of paths)
    it(path.description, () =>
      runPath(path.scenario.input === SCENARIOS.fresh ? cardPaymentModel : cardPaymentRestoreModel, path),
    );
  afterAll(() => flushCoverage('machine'));
});

type Answer<T> = (call: number) => Promise<T>;

/** The real machine with scripted answers; every request is recorded. */
function start(
  input: CardPaymentInput,
  answers: {
    cards?: Answer<typeof SAVED_CARDS>;
    token?: Answer<CardToken>;
    charge?: Answer<CardChargeJson>;
    getCharge?: Answer<CardChargeJson>;
  },
) {
  const calls = {
    tokens: [] as TokenizeInput[],
    charges: [] as CreateCardChargeBody[],
    reads: [] as string[],
    checkpoints: [] as unknown[],
    cleared: 0,
    countries: [] as string[],
  };
  const actor = createActor(
    cardPaymentMachine.provide({
      actors: {
        listBillingInfo: fromPromise(async () => (answers.cards ?? (async () => []))(1)),
        tokenizeCard: fromPromise<CardToken, TokenizeInput>(async ({ input }) => {
          calls.tokens.push(input);
          return (answers.token ?? (async () => ({ token: TOKEN, scheme: 'VISA', last4: '4242' })))(
            calls.tokens.length,
          );
        }),
        createCharge: fromPromise<CardChargeJson, CreateCardChargeBody>(async ({ input }) => {
          calls.charges.push(input);
          return answers.charge!(calls.charges.length);
        }),
        getCharge: fromPromise<CardChargeJson, { id: string }>(async ({ input }) => {
          calls.reads.push(input.id);
          return answers.getCharge!(calls.reads.length);
        }),
      },
      actions: {
        saveCheckpoint: (_, params) => void calls.checkpoints.push(params),
        clearCheckpoint: () => void calls.cleared++,
        rememberCountry: (_, country) => void calls.countries.push(country),
      },
    }),
    { input },
  ).start();
  const send = actor.send.bind(actor);
  const settled = () => waitFor(actor, (s) => !s.hasTag('busy'));
  return { actor, calls, send, settled };
}

const fail = (error: unknown) => async () => {
  throw error;
};

describe('paying with a new card', () => {
  it('starts the form with the account’s name and the remembered country, and remembers the country paid with', async () => {
    const { actor, calls, send, settled } = start(
      { ...SCENARIOS.fresh, prefill: { firstName: ' Ada ', lastName: 'Lovelace', country: 'CA' } },
      { charge: async () => charge('approved') },
    );
    await settled();
    expect(actor.getSnapshot().context.values).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      country: 'CA',
    });
    send({
      type: 'card.change',
      values: { ...VALID_FORM, country: 'GB', state: 'London', phone: '20 7946 0958' },
    });
    send({ type: 'card.acknowledge', value: true });
    send({ type: 'card.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.countries).toEqual(['GB']);
  });

  it('ignores a remembered country cards are not taken from, and a missing name', async () => {
    const { actor, settled } = start(
      { ...SCENARIOS.fresh, prefill: { lastName: null, country: 'KP' } },
      { charge: async () => charge('approved') },
    );
    await settled();
    expect(actor.getSnapshot().context.values).toMatchObject({ firstName: '', lastName: '', country: 'US' });
  });

  it('tokenizes at the provider, then charges with the token, the billing details and one idempotency key', async () => {
    const { actor, calls, send, settled } = start(SCENARIOS.fresh, {
      charge: async () => charge('approved'),
    });
    await settled();
    send({ type: 'card.change', values: { ...VALID_FORM, save: true } });
    send({ type: 'card.acknowledge', value: true });
    send({ type: 'card.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.tokens).toEqual([
      {
        card: {
          number: '4242424242424242',
          expiryMonth: '12',
          expiryYear: VALID_FORM.expiryYear,
          cvv: '123',
        },
        billing: {
          firstName: 'Grace',
          lastName: 'Hopper',
          addressLine1: '1 Main St',
          addressLine2: undefined,
          city: 'New York',
          state: 'NY',
          country: 'US',
          zipCode: '10001',
          phoneNumber: { countryCode: '1', number: '212 555 0123' },
        },
      },
    ]);
    const [body] = calls.charges;
    expect(body).toEqual({
      item: { kind: 'blueprint', id: ITEM.id },
      expectedPrice: PRICE,
      idempotencyKey: expect.stringMatching(/^[\w-]{36}$/),
      billingInfo: { cardToken: TOKEN, ...calls.tokens[0]!.billing, save: true },
    });
    expect(JSON.stringify(body)).not.toContain('4242424242424242');
    expect(actor.getSnapshot().output).toEqual(cardPaid(charge('approved')));
    expect(calls.cleared).toBe(1);
  });

  it('retries an attempt that failed on the network with the same key and token, never charging twice', async () => {
    const { actor, calls, send, settled } = start(SCENARIOS.fresh, {
      charge: async (n) => (n === 1 ? fail(NETWORK_ERROR)() : charge('approved')),
    });
    await settled();
    send({ type: 'card.change', values: VALID_FORM });
    send({ type: 'card.acknowledge', value: true });
    send({ type: 'card.submit' });
    await settled();
    expect(connectCardPayment(actor.getSnapshot(), send).error).toBe(NETWORK_ERROR.body.message);
    send({ type: 'card.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.tokens).toHaveLength(1);
    expect(calls.charges).toHaveLength(2);
    expect(calls.charges[1]).toEqual(calls.charges[0]);
  });

  it('starts a new attempt after a refusal, or when the card changed after a network failure', async () => {
    const { calls, send, settled } = start(SCENARIOS.fresh, {
      charge: async (n) =>
        n === 1 ? fail(SOLD_OUT_ERROR)() : n === 2 ? fail(NETWORK_ERROR)() : charge('approved'),
    });
    await settled();
    send({ type: 'card.change', values: VALID_FORM });
    send({ type: 'card.acknowledge', value: true });
    send({ type: 'card.submit' });
    await settled();
    send({ type: 'card.submit' });
    await settled();
    send({ type: 'card.change', values: { cvv: '321' } });
    send({ type: 'card.submit' });
    await settled();
    const keys = calls.charges.map((c) => c.idempotencyKey);
    expect(new Set(keys).size).toBe(3);
    expect(calls.tokens).toHaveLength(3);
  });

  it('shows the field errors once Pay is pressed, and needs the acknowledgement to pay at all', async () => {
    const { actor, calls, send, settled } = start(SCENARIOS.fresh, {});
    await settled();
    const view = () => connectCardPayment(actor.getSnapshot(), send);
    expect(view().canPay).toBe(false);
    send({ type: 'card.change', values: AMEX_FORM });
    expect(view().form!.errors).toEqual({});
    send({ type: 'card.acknowledge', value: true });
    expect(view().canPay).toBe(true);
    send({ type: 'card.submit' });
    expect(view().form!.errors).toEqual({
      cardNumber: 'This card type is not supported. We accept Visa, Mastercard and Discover.',
      cvv: "Please enter the card's security code (CVV).",
    });
    send({ type: 'card.change', values: { expiryYear: '20' } });
    expect(Object.keys(view().form!.errors)).toEqual(['cardNumber', 'cvv']);
    send({
      type: 'card.change',
      values: { cardNumber: VALID_FORM.cardNumber, expiryYear: VALID_FORM.expiryYear },
    });
    expect(view().form!.errors).toEqual({});
    send({ type: 'card.acknowledge', value: false });
    expect(view().canPay).toBe(false);
    send({ type: 'card.submit' });
    expect(calls.tokens).toEqual([]);
    expect(view().payLabel).toBe('Pay $25');
    expect(view().receipt).toBe(`The receipt goes to ${BUYER_EMAIL}.`);
  });

  it('ends on the failed page of a declined order, and sends the buyer to 3-D Secure with a checkpoint', async () => {
    const declined = start(SCENARIOS.fresh, { charge: fail(DECLINE_ERROR) });
    await declined.settled();
    declined.send({ type: 'card.change', values: VALID_FORM });
    declined.send({ type: 'card.acknowledge', value: true });
    declined.send({ type: 'card.submit' });
    await waitFor(declined.actor, (s) => s.status === 'done');
    expect(declined.actor.getSnapshot().output).toEqual({ type: 'failed', orderId: ORDER_ID });

    const challenged = start(SCENARIOS.fresh, { charge: async () => charge('challenge') });
    await challenged.settled();
    challenged.send({ type: 'card.change', values: VALID_FORM });
    challenged.send({ type: 'card.acknowledge', value: true });
    challenged.send({ type: 'card.submit' });
    await waitFor(challenged.actor, (s) => s.status === 'done');
    expect(challenged.actor.getSnapshot().output).toEqual({ type: 'redirect', url: REDIRECT_URL });
    expect(challenged.calls.checkpoints).toEqual([{ chargeId: CHARGE_ID, step: 'redirect' }]);
    expect(challenged.calls.cleared).toBe(0);
  });
});

describe('paying with a saved card', () => {
  it('lists the saved cards masked, the newest chosen; sends the chosen card and its security code', async () => {
    const { actor, calls, send, settled } = start(SCENARIOS.fresh, {
      cards: async () => SAVED_CARDS,
      charge: async () => charge('approved'),
    });
    await settled();
    const view = () => connectCardPayment(actor.getSnapshot(), send);
    expect(view().savedCards).toEqual([
      { id: VISA_CARD.id, label: 'Visa •••• 4242', expiry: 'Expires 04/2030', selected: true },
      { id: MASTERCARD_CARD.id, label: 'Mastercard •••• 6378', expiry: 'Expires 11/2030', selected: false },
    ]);
    expect(view().cvv).toEqual({ value: '', error: null });
    expect(view().form).toBeNull();
    send({ type: 'card.select', id: MASTERCARD_CARD.id });
    send({ type: 'card.select', id: 'not-a-card' });
    send({ type: 'card.cvv', value: '321' });
    send({ type: 'card.acknowledge', value: true });
    send({ type: 'card.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.tokens).toEqual([]);
    expect(calls.charges).toEqual([
      {
        item: { kind: 'blueprint', id: ITEM.id },
        expectedPrice: PRICE,
        idempotencyKey: expect.any(String),
        savedBillingInfo: { id: MASTERCARD_CARD.id, cvv: '321' },
      },
    ]);
  });
});

describe('the card panel’s prop getters', () => {
  it('choose a saved card, acknowledge the terms and pay through the form; switch cards; go back', async () => {
    const { actor, calls, send, settled } = start(SCENARIOS.fresh, {
      cards: async () => SAVED_CARDS,
      charge: () => new Promise<CardChargeJson>(() => {}),
    });
    await settled();
    const view = () => connectCardPayment(actor.getSnapshot(), send);
    const master = () => view().savedCards[1]!;
    expect(view().getSavedCardProps(master())).toMatchObject({ checked: false, 'data-state': 'unchecked' });
    view().getSavedCardProps(master()).onChange(true);
    expect(view().getSavedCardProps(master())).toMatchObject({ checked: true, 'data-state': 'checked' });
    view().getNewCardButtonProps().onClick!();
    expect(view().method).toBe('new');
    expect(view().getSavedCardButtonProps()).toMatchObject({ disabled: false, 'data-state': 'idle' });
    view().getSavedCardButtonProps().onClick!();
    expect(view().method).toBe('saved');
    send({ type: 'card.cvv', value: '321' });
    expect(view().getPayButtonProps()).toEqual({ type: 'submit', disabled: true, 'data-state': 'disabled' });
    view().getTermsProps().onChange(true);
    expect(view().getTermsProps()['data-state']).toBe('checked');
    expect(view().getPayButtonProps()).toEqual({ type: 'submit', disabled: false, 'data-state': 'idle' });
    let prevented = false;
    view()
      .getFormProps()
      .onSubmit({ preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    await vi.waitFor(() => expect(calls.charges).toHaveLength(1));
    expect(view().getPayButtonProps()).toMatchObject({
      disabled: true,
      'aria-busy': true,
      'data-state': 'busy',
    });
    expect(view().getBackButtonProps()).toMatchObject({ disabled: true });
  });

  it('Back from the form ends the rail with back', async () => {
    const { actor, send, settled } = start(SCENARIOS.fresh, {});
    await settled();
    connectCardPayment(actor.getSnapshot(), send).getBackButtonProps().onClick!();
    expect(actor.getSnapshot().output).toEqual({ type: 'back' });
  });
});

describe('coming back from 3-D Secure', () => {
  it('reads the charge, never creating one: still waiting → redirect again; approved → paid', async () => {
    const waiting = start(SCENARIOS.checkpoint, { getCharge: async () => charge('challenge') });
    await waitFor(waiting.actor, (s) => s.status === 'done');
    expect(waiting.actor.getSnapshot().output).toMatchObject({ type: 'redirect', url: REDIRECT_URL });
    expect(waiting.calls.reads).toEqual([CHARGE_ID]);
    expect(waiting.calls.charges).toEqual([]);

    const approved = start(SCENARIOS.resume, { getCharge: async () => charge('approved') });
    await waitFor(approved.actor, (s) => s.status === 'done');
    expect(approved.actor.getSnapshot().output).toMatchObject({ type: 'paid' });
    expect(approved.calls.cleared).toBe(1);
  });

  it('retries a read that failed, and forgets a checkpoint the server does not know', async () => {
    const { actor, calls, send } = start(SCENARIOS.checkpoint, {
      getCharge: async (n) => (n === 1 ? fail(NETWORK_ERROR)() : charge('declined')),
    });
    await waitFor(actor, (s) => s.matches('restoreFailed'));
    expect(connectCardPayment(actor.getSnapshot(), send)).toMatchObject({
      panel: 'restoreFailed',
      canRetry: true,
    });
    send({ type: 'card.retry' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ type: 'failed', orderId: ORDER_ID });
    expect(calls.reads).toHaveLength(2);

    const gone = start(SCENARIOS.checkpoint, {
      getCharge: fail({ status: 404, body: { code: 'not_found', message: '' } }),
    });
    await flush();
    await gone.settled();
    expect(gone.actor.getSnapshot().matches('form')).toBe(true);
    expect(gone.calls.cleared).toBe(1);
  });
});
