import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { BillingInfoJson, CreateBillingInfoBody } from '#domain/schemas/checkout';
import type { CardToken, TokenizeInput } from '../machines/cardPayment';
import { connectSavedCards, savedCardsMachine } from '../machines/savedCards';
import { AMEX_FORM, MASTERCARD_CARD, TOKEN, VALID_FORM, VISA_CARD } from './cardPayment.model';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { DUPLICATE_ERROR, savedCardsModel } from './savedCards.model';

describe('savedCards machine paths', () => {
  const paths = generatePaths(savedCardsModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(10));
  for (const path of paths) it(path.description, () => runPath(savedCardsModel, path));
  afterAll(() => flushCoverage('machine'));
});

function start(answers: { save?: () => Promise<BillingInfoJson>; remove?: () => Promise<void> } = {}) {
  let cards = [VISA_CARD];
  const calls = {
    tokens: [] as TokenizeInput[],
    saved: [] as CreateBillingInfoBody[],
    removed: [] as string[],
  };
  const announced: string[] = [];
  const actor = createActor(
    savedCardsMachine.provide({
      actors: {
        listBillingInfo: fromPromise(async () => cards),
        tokenizeCard: fromPromise<CardToken, TokenizeInput>(async ({ input }) => {
          calls.tokens.push(input);
          return { token: TOKEN, scheme: 'MASTERCARD', last4: '6378' };
        }),
        saveBillingInfo: fromPromise<BillingInfoJson, CreateBillingInfoBody>(async ({ input }) => {
          calls.saved.push(input);
          const saved = await (answers.save ?? (async () => MASTERCARD_CARD))();
          cards = [saved, ...cards];
          return saved;
        }),
        deleteBillingInfo: fromPromise<void, { id: string }>(async ({ input }) => {
          calls.removed.push(input.id);
          await (answers.remove ?? (async () => {}))();
          cards = cards.filter((c) => c.id !== input.id);
        }),
      },
      actions: {
        announceAdded: () => void announced.push('added'),
        announceRemoved: () => void announced.push('removed'),
      },
    }),
  ).start();
  const send = actor.send.bind(actor);
  const view = () => connectSavedCards(actor.getSnapshot(), send);
  const settled = () => waitFor(actor, (s) => !s.hasTag('busy'));
  return { actor, calls, announced, send, view, settled };
}

describe('saved cards', () => {
  it('lists the cards masked to their last four digits', async () => {
    const { view, settled } = start();
    expect(view().panel).toBe('loading');
    await settled();
    expect(view()).toMatchObject({
      panel: 'list',
      cards: [{ id: VISA_CARD.id, label: 'Visa •••• 4242', expiry: 'Expires 04/2030' }],
      form: null,
      canAdd: true,
    });
  });

  it('adds a card: the rules first, then a token from the provider, then POST billing-info', async () => {
    const { calls, announced, send, view, settled } = start();
    await settled();
    send({ type: 'cards.add' });
    send({ type: 'cards.change', values: AMEX_FORM });
    send({ type: 'cards.submit' });
    expect(view().form!.errors.cardNumber).toBe(
      'This card type is not supported. We accept Visa, Mastercard and Discover.',
    );
    expect(calls.tokens).toEqual([]);
    send({ type: 'cards.change', values: { cardNumber: '5436 0310 3060 6378' } });
    send({ type: 'cards.submit' });
    await settled();
    expect(calls.saved).toEqual([{ cardToken: TOKEN, ...calls.tokens[0]!.billing }]);
    expect(calls.tokens[0]!.card.number).toBe('5436031030606378');
    expect(JSON.stringify(calls.saved)).not.toContain('5436031030606378');
    expect(announced).toEqual(['added']);
    expect(view().cards.map((c) => c.label)).toEqual(['Mastercard •••• 6378', 'Visa •••• 4242']);
    expect(view().form).toBeNull();
  });

  it('keeps the form open with the duplicate message when the last four digits are saved already', async () => {
    const { send, view, settled } = start({
      save: async () => {
        throw DUPLICATE_ERROR;
      },
    });
    await settled();
    send({ type: 'cards.add' });
    send({ type: 'cards.change', values: VALID_FORM });
    send({ type: 'cards.submit' });
    await settled();
    expect(view().form).not.toBeNull();
    expect(view().error).toBe('A card with the same last four digits is already saved.');
  });

  it('removes a card only after confirming', async () => {
    const { calls, announced, send, view, settled } = start();
    await settled();
    send({ type: 'cards.remove', id: 'unknown' });
    expect(view().confirmRemove).toBeNull();
    send({ type: 'cards.remove', id: VISA_CARD.id });
    expect(view().confirmRemove).toEqual({
      id: VISA_CARD.id,
      label: 'Visa •••• 4242',
      expiry: 'Expires 04/2030',
    });
    send({ type: 'cards.close' });
    expect(calls.removed).toEqual([]);
    send({ type: 'cards.remove', id: VISA_CARD.id });
    send({ type: 'cards.remove.confirm' });
    await settled();
    expect(calls.removed).toEqual([VISA_CARD.id]);
    expect(announced).toEqual(['removed']);
    expect(view().cards).toEqual([]);
  });
});
