/** The checkout's view model (connectCheckout) on the real machine, and the checkout service. */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { CardChargeJson } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import { checkoutMachine } from '../machines/checkout';
import { connectCheckout, paymentRails } from '../machines/checkoutView';
import { createApi } from '../src/services/api';
import { checkoutService } from '../src/services/checkout';
import {
  BLUEPRINT_ITEM,
  CANCELED,
  CHARGE_ID,
  charge,
  FREE_CLAIM,
  FREE_ID,
  LISTING_3,
  LISTING_7,
  REDIRECT_URL,
  SCENARIOS,
} from './checkout.model';
import { start } from './checkout.script';

describe('the checkout view model', () => {
  it('lists the new edition at the item’s price among the listings, in the chosen order', async () => {
    const { settled, view } = start(SCENARIOS.resold);
    await settled();
    const rows = () => view().editions.map((r) => [r.edition, r.price, r.seller]);
    expect(view().sort).toEqual({
      value: 'priceAsc',
      label: 'Sort: Price: low to high',
      options: [
        { value: 'priceAsc', label: 'Price: low to high' },
        { value: 'priceDesc', label: 'Price: high to low' },
        { value: 'edition', label: 'Edition' },
      ],
    });
    expect(rows()).toEqual([
      ['Edition #07', '$18', '@0xe03daebed8ca0615'],
      ['New edition', '$25', 'From the creator'],
      ['Edition #03', '$40', '@ada'],
    ]);
    expect(view().editions.map((r) => r.buyLabel)).toEqual([
      'Buy edition #07 for $18',
      'Buy a new edition for $25',
      'Buy edition #03 for $40',
    ]);
    view().sortBy('edition');
    expect(rows().map(([edition]) => edition)).toEqual(['Edition #03', 'Edition #07', 'New edition']);
  });

  it('hands the dialog prop getters: a row’s Buy picks its edition, a method’s button picks it, Back goes back', async () => {
    const { settled, view, actor } = start(SCENARIOS.resold);
    await settled();
    const newEdition = view().editions.find((r) => r.listingId === null)!;
    const buy = view().getBuyButtonProps(newEdition);
    expect(buy).toMatchObject({
      type: 'button',
      disabled: false,
      'data-state': 'idle',
      'aria-label': 'Buy a new edition for $25',
    });
    expect(view().getBackButtonProps()).toMatchObject({ disabled: true, 'data-state': 'disabled' });
    buy.onClick!();
    expect(view().panel).toBe('selectPaymentMethod');
    const card = view().getMethodButtonProps('creditCard');
    expect(card).toMatchObject({ disabled: false, 'data-state': 'idle' });
    view().getBackButtonProps().onClick!();
    expect(view().panel).toBe('selectEdition');
    expect(view().getDialogProps().showCloseButton).toBe(true);
    view().getDialogProps().onClose();
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('hides the new edition when none can be bought, and offers only the methods that work', async () => {
    const soldOut = start({ ...SCENARIOS.resold, item: { ...BLUEPRINT_ITEM, soldOut: true } });
    await soldOut.settled();
    expect(soldOut.view().editions.map((r) => r.listingId)).toEqual([LISTING_7.id, LISTING_3.id]);
    soldOut.send({ type: 'checkout.edition.select', listingId: null });
    expect(soldOut.view().panel).toBe('selectEdition');
    expect(soldOut.view().methods).toEqual([]);

    // The utility token shows only with its rail (NFM_PAYMENTS), here absent.
    const pack = start(SCENARIOS.pack);
    await pack.settled();
    expect(pack.view().methods).toEqual(paymentRails.filter((r) => r.method !== 'token'));
    const withToken = start({
      ...SCENARIOS.pack,
      token: { chainId: 31337, walletAvailable: false, restore: null },
    });
    await withToken.settled();
    expect(withToken.view().methods.at(-1)).toMatchObject({ method: 'token', note: 'MetaMask required' });
    // Only the rails the server runs are offered, and only they can be chosen.
    const cardOnly = start({ ...SCENARIOS.pack, rails: ['creditCard'] });
    await cardOnly.settled();
    expect(cardOnly.view().methods.map((m) => m.method)).toEqual(['creditCard']);
    cardOnly.send({ type: 'checkout.method.select', method: 'crypto' });
    expect(cardOnly.view().panel).toBe('selectPaymentMethod');
    // A printed item's new edition is not paid from the balance (only its resale listings are).
    const printed = start({ ...SCENARIOS.pack, item: { ...SCENARIOS.pack.item, printed: true } });
    await printed.settled();
    expect(printed.view().methods.map((m) => m.method)).toEqual(
      paymentRails.map((r) => r.method).filter((m) => m !== 'balance' && m !== 'token'),
    );
    printed.send({ type: 'checkout.method.select', method: 'balance' });
    expect(printed.view().panel).toBe('selectPaymentMethod');
  });

  it('resumes an open crypto charge on its payment page, or cancels it and carries on', async () => {
    const { CRYPTO_CHARGE, HOSTED_URL } = await import('./checkout.model');
    const withCrypto = createActor(
      checkoutMachine.provide({
        actors: {
          findPendingCrypto: fromPromise(async (): Promise<CoinbaseChargeJson | null> => CRYPTO_CHARGE),
          findPendingCharge: fromPromise(async (): Promise<CardChargeJson | null> => null),
        },
        actions: { redirectTo: (_, { url }) => redirects.push(url) },
      }),
      { input: SCENARIOS.resold },
    );
    const redirects: string[] = [];
    withCrypto.start();
    await waitFor(withCrypto, (s) => s.matches('cryptoPending'));
    const pending = connectCheckout(withCrypto.getSnapshot(), withCrypto.send);
    expect(pending).toMatchObject({
      panel: 'cryptoPending',
      title: 'Crypto payment in progress',
      pending: { itemTitle: 'Night Market', amount: '$25', card: null },
    });
    expect(pending.getResumeButtonProps()).toMatchObject({ disabled: false, 'data-state': 'idle' });
    expect(pending.getCancelButtonProps()).toMatchObject({ disabled: false, 'data-state': 'idle' });
    withCrypto.send({ type: 'checkout.charge.resume' });
    expect(withCrypto.getSnapshot().output).toEqual({ kind: 'redirecting', url: HOSTED_URL });
    expect(redirects).toEqual([HOSTED_URL]);
  });
});

describe('the checkout service', () => {
  it('reads the first unresolved charge, cancels through the card service and claims a free blueprint', async () => {
    const requests: string[] = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      requests.push(
        `${request.method} ${request.url} ${request.method === 'GET' ? '' : await request.text()}`,
      );
      const body = request.url.includes('unresolved=true')
        ? { results: [charge('challenge'), charge('pending')] }
        : request.url.endsWith('/cancel')
          ? CANCELED
          : FREE_CLAIM;
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const api = createApi({
      baseUrl: 'http://app.test/api',
      getToken: () => 't',
      onUnauthorized: () => {},
      fetch,
    });
    const service = checkoutService(api);
    expect((await service.pendingCharge())?.redirectLink).toBe(REDIRECT_URL);
    expect((await service.cancelCharge(CHARGE_ID)).status).toBe('Canceled');
    expect((await service.claimFree(FREE_ID)).blueprintId).toBe(FREE_ID);
    expect(requests).toEqual([
      'GET http://app.test/api/checkout-com-charges?unresolved=true ',
      `POST http://app.test/api/checkout-com-charges/${CHARGE_ID}/actions/cancel `,
      `POST http://app.test/api/free-blueprint-claims {"blueprintId":"${FREE_ID}"}`,
    ]);
  });
});
