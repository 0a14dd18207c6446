import { afterAll, describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';
import { cardPaid } from '../machines/cardPayment/charge';
import type { CheckoutInput } from '../machines/checkout';
import { railBack, railRedirect } from '../machines/railOutcome';
import {
  BOUGHT,
  BUYER,
  BUYER_PREFILL,
  CARD_OUTCOMES,
  CHARGE_ID,
  CLAIM_ERROR,
  charge,
  checkoutModel,
  FREE_CLAIM,
  FREE_ID,
  ITEM,
  LISTING_3,
  NETWORK_ERROR,
  NEW_WALLET,
  NOT_CANCELLABLE,
  ONRAMP_CHARGE_ID,
  ONRAMP_OUTCOMES,
  ORDER_ID,
  PACK_ID,
  PRICE,
  REDIRECT_URL,
  SCENARIOS,
  TOPUP_CHARGE_ID,
  TOPUP_URL,
} from './checkout.model';
import { type Script, start } from './checkout.script';
import { flushCoverage } from './coverage-store';
import { makeUser } from './fixtures';
import { generatePaths, runPath } from './harness';

describe('checkout machine paths', () => {
  const paths = generatePaths(checkoutModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(20));
  for (const path of paths) it(path.description, () => runPath(checkoutModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('pressing buy', () => {
  it('asks a visitor to sign up, before looking anything up', async () => {
    const { calls, done } = start(SCENARIOS.visitor);
    expect(await done()).toEqual({ kind: 'signUp' });
    expect(calls.pending).toBe(0);
  });

  it('offers a charge waiting for 3-D Secure first; canceling it goes on without looking again', async () => {
    const { calls, send, settled, view } = start(SCENARIOS.resold, {
      pending: async () => charge('challenge'),
    });
    await settled();
    expect(view()).toMatchObject({
      panel: 'cardPending',
      title: 'Payment in progress',
      pending: { itemTitle: 'Night Market', amount: '$25', card: 'Card •••• 4242' },
      canClose: true,
    });
    expect(view().getResumeButtonProps()).toMatchObject({ disabled: false, 'data-state': 'idle' });
    send({ type: 'checkout.charge.cancel' });
    expect(view()).toMatchObject({ busy: true, status: 'Canceling your payment…', canClose: false });
    await settled();
    expect(calls.cancels).toEqual([CHARGE_ID]);
    expect(calls.pending).toBe(1);
    expect(view().panel).toBe('selectEdition');
  });

  it('shows why a charge could not be canceled, and resumes it without paying again', async () => {
    const { calls, send, settled, view, done } = start(SCENARIOS.free, {
      pending: async () => charge('challenge'),
      cancel: async () => {
        throw NOT_CANCELLABLE;
      },
      card: async () => CARD_OUTCOMES.paid,
    });
    await settled();
    send({ type: 'checkout.charge.cancel' });
    await settled();
    expect(view()).toMatchObject({ panel: 'cardPending', error: NOT_CANCELLABLE.body.message });
    send({ type: 'checkout.charge.resume' });
    await done();
    // The charge's own item and amount, whatever page the buyer pressed buy on.
    expect(calls.cards).toEqual([
      { item: ITEM, price: PRICE, email: BUYER.email, resume: charge('challenge') },
    ]);
    expect(calls.checks).toEqual([]);
  });

  it('goes on when the pending charges cannot be read: the server refuses a second one with its reason', async () => {
    const { view, settled } = start(SCENARIOS.pack, {
      pending: async () => {
        throw NETWORK_ERROR;
      },
    });
    await settled();
    expect(view()).toMatchObject({ panel: 'selectPaymentMethod', canBack: true, text: 'Starter Pack · $60' });
  });

  it('claims a free item after the collection check, and ends on its purchase-complete page', async () => {
    const { calls, done } = start(SCENARIOS.free);
    expect(await done()).toEqual({
      kind: 'purchased',
      target: {
        to: '/ordercomplete/$id',
        params: { id: FREE_ID },
        search: {
          e: 'blueprint',
          t: Date.parse(String(FREE_CLAIM.order.createdAt)) - 15_000,
          type: 'freeBlueprintClaim',
          order: ORDER_ID,
        },
      },
    });
    expect(calls.checks).toEqual([BUYER.walletAddress]);
    expect(calls.claims).toEqual([FREE_ID]);
  });

  it('shows a refused claim with its reason and Close, and no Try again: a retry would be refused too', async () => {
    const { send, settled, view, calls } = start(SCENARIOS.free, {
      claim: async () => {
        throw CLAIM_ERROR;
      },
    });
    await settled();
    expect(view()).toMatchObject({
      panel: 'claimFailed',
      error: 'You have already claimed this item.',
      canRetry: false,
      canClose: true,
    });
    send({ type: 'checkout.retry' });
    await settled();
    expect(calls.claims).toHaveLength(1);
  });

  it('offers Try again after a claim that did not reach the server, and claims again', async () => {
    let attempts = 0;
    const { send, settled, view, calls } = start(SCENARIOS.free, {
      claim: async () => {
        if (++attempts === 1) throw NETWORK_ERROR;
        return FREE_CLAIM;
      },
    });
    await settled();
    expect(view()).toMatchObject({ panel: 'claimFailed', canRetry: true, canClose: true });
    send({ type: 'checkout.retry' });
    await settled();
    expect(calls.claims).toHaveLength(2);
    expect(view().panel).toBe('done');
  });
});

describe('the on-ramp rail', () => {
  it('gives the buyer to the on-ramp, and a paid charge ends on the page that follows it', async () => {
    const run = start(SCENARIOS.resold, { onramp: async () => ONRAMP_OUTCOMES.paid });
    await run.settled();
    run.send({ type: 'checkout.edition.select', listingId: null });
    run.send({ type: 'checkout.method.select', method: 'onramp' });
    expect(await run.done()).toEqual({
      kind: 'purchased',
      target: {
        to: '/ordercomplete/$id',
        params: { id: ITEM.id },
        search: {
          e: 'blueprint',
          t: Date.parse('2026-11-22T10:00:00.000Z') - 15_000,
          type: 'wert',
          order: ORDER_ID,
          charge: ONRAMP_CHARGE_ID,
        },
      },
    });
    expect(run.calls.onramps).toEqual([{ userId: BUYER.id, item: ITEM, price: PRICE, email: BUYER.email }]);
  });
});

describe('the card rail', () => {
  async function payNewEdition(input: CheckoutInput, card: Script['card']) {
    const run = start(input, { card });
    await run.settled();
    if (input.listings.length > 0) run.send({ type: 'checkout.edition.select', listingId: null });
    run.send({ type: 'checkout.method.select', method: 'creditCard' });
    return run;
  }

  it('pays the item at its price with the buyer’s email; paid ends on the page that reads the charge', async () => {
    const { calls, done } = await payNewEdition(SCENARIOS.resold, async () => CARD_OUTCOMES.paid);
    expect(await done()).toEqual({
      kind: 'purchased',
      target: {
        to: '/ordercomplete/$id',
        params: { id: ITEM.id },
        search: {
          e: 'blueprint',
          t: Date.parse('2026-11-22T10:00:00.000Z') - 15_000,
          type: 'creditCard',
          order: ORDER_ID,
          charge: CHARGE_ID,
        },
      },
    });
    expect(calls.cards).toEqual([
      { item: ITEM, price: PRICE, email: BUYER.email, checkpoint: null, prefill: BUYER_PREFILL },
    ]);
  });

  it('names a pack’s purchase blueprintPack', () => {
    const paid = charge('approved');
    const outcome = cardPaid({
      ...paid,
      order: { ...paid.order, item: { ...paid.order.item, kind: 'pack' } },
    });
    expect(outcome).toMatchObject({ type: 'paid', target: { search: { e: 'blueprintPack' } } });
  });

  it('leaves for 3-D Secure; a declined order ends on its failed page', async () => {
    const redirect = await payNewEdition(SCENARIOS.resold, async () => CARD_OUTCOMES.redirect);
    expect(await redirect.done()).toEqual({ kind: 'redirecting', url: REDIRECT_URL });
    expect(redirect.calls.redirects).toEqual([REDIRECT_URL]);
    expect(redirect.view()).toMatchObject({ panel: 'redirecting', busy: true, canClose: false });

    const failed = await payNewEdition(SCENARIOS.resold, async () => CARD_OUTCOMES.failed);
    expect(await failed.done()).toEqual({ kind: 'failed', orderId: ORDER_ID });
    expect(failed.calls.redirects).toEqual([]);
  });

  it('goes back to the methods; the collection is checked once per checkout', async () => {
    const { actor, calls, send } = await payNewEdition(SCENARIOS.resold, async () => CARD_OUTCOMES.back);
    await waitFor(actor, (s) => s.matches('selectPaymentMethod'));
    send({ type: 'checkout.method.select', method: 'creditCard' });
    await waitFor(actor, (s) => s.matches('selectPaymentMethod'));
    expect(calls.cards).toHaveLength(2);
    expect(calls.checks).toHaveLength(1);
  });

  it('a charge still waiting for 3-D Secure shows as pending though the tab remembers it', async () => {
    const { calls, settled, view } = start(SCENARIOS.checkpoint, {
      pending: async () => charge('challenge'),
    });
    await settled();
    expect(view().panel).toBe('cardPending');
    expect(calls.cards).toEqual([]);
  });

  it('restores a charge cut off while being created before asking the server for pending ones', async () => {
    const { actor, calls } = start(SCENARIOS.charging, { card: async () => CARD_OUTCOMES.paid });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.pending).toBe(0);
    expect(calls.cards).toEqual([
      {
        item: ITEM,
        price: PRICE,
        email: BUYER.email,
        checkpoint: SCENARIOS.charging.checkpoint,
        prefill: BUYER_PREFILL,
      },
    ]);
  });

  it('reads a remembered charge that ended meanwhile; back from it leads where pressing buy leads, to pay afresh', async () => {
    const { actor, calls, send, view } = start(SCENARIOS.checkpoint, {
      card: async () => CARD_OUTCOMES.back,
    });
    await waitFor(actor, (s) => s.matches('selectPaymentMethod'));
    expect(calls.cards).toEqual([
      {
        item: ITEM,
        price: PRICE,
        email: BUYER.email,
        checkpoint: SCENARIOS.checkpoint.checkpoint,
        prefill: BUYER_PREFILL,
      },
    ]);
    expect(calls.pending).toBe(1);
    expect(view().panel).toBe('selectPaymentMethod');
    send({ type: 'checkout.method.select', method: 'creditCard' });
    await waitFor(actor, () => calls.cards.length === 2);
    expect(calls.cards[1]).toEqual({
      item: ITEM,
      price: PRICE,
      email: BUYER.email,
      checkpoint: null,
      prefill: BUYER_PREFILL,
    });
  });
});

describe('resale listings', () => {
  it('buys the chosen listing with the balance flow and ends on the listing’s purchase-complete page', async () => {
    const { calls, send, settled, done } = start(SCENARIOS.resold, { buy: async () => BOUGHT });
    await settled();
    send({ type: 'checkout.edition.select', listingId: LISTING_3.id });
    expect(await done()).toEqual({
      kind: 'purchased',
      target: {
        to: '/ordercomplete/$id',
        params: { id: LISTING_3.activeSaleListing.id },
        search: {
          e: 'nftSaleListing',
          t: Date.parse('2026-11-22T10:00:30.000Z') - 15_000,
          type: 'saleListing',
          serial: 3,
        },
      },
    });
    expect(calls.buys).toEqual([
      {
        listing: { ...LISTING_3.activeSaleListing, seller: LISTING_3.owner.wallet.walletAddress },
        nft: { flowBlueprintId: '1042', seriesNumber: 3 },
        walletAddress: BUYER.walletAddress,
        // The crypto rail runs: a short balance can be topped up on the crypto page, which returns
        // to the item page with the checkout open on this listing.
        canTopUp: true,
        returnTo: `/nft/${ITEM.id}?listing=${LISTING_3.activeSaleListing.id}`,
        returnedTopup: null,
      },
    ]);
  });

  it('back from a top-up of a listing’s purchase: opens on that listing, following the top-up, past the open-charge checks', async () => {
    const { calls, settled, view } = start(SCENARIOS.reopenListing, { buy: () => new Promise(() => {}) });
    await settled();
    expect(view().panel).toBe('buyingListing');
    expect(calls.pending).toBe(0);
    expect(calls.checks).toEqual([BUYER.walletAddress]);
    expect(calls.buys).toEqual([
      expect.objectContaining({
        listing: expect.objectContaining({ id: LISTING_3.activeSaleListing.id }),
        returnTo: `/nft/${ITEM.id}?listing=${LISTING_3.activeSaleListing.id}`,
        returnedTopup: TOPUP_CHARGE_ID,
      }),
    ]);
  });

  it('closing the reopened purchase returns to the editions; choosing the listing again does not follow the top-up again', async () => {
    let closes = 1;
    const { calls, send, view } = start(SCENARIOS.reopenListing, {
      buy: async () => (closes-- > 0 ? railBack : new Promise(() => {})),
    });
    await vi.waitFor(() => expect(view().panel).toBe('selectEdition'));
    send({ type: 'checkout.edition.select', listingId: LISTING_3.id });
    await vi.waitFor(() => expect(calls.buys).toHaveLength(2));
    expect(calls.buys.map((b) => b.returnedTopup)).toEqual([TOPUP_CHARGE_ID, null]);
  });

  it('a listing sold meanwhile is not reopened: the checkout starts as pressing buy does', async () => {
    const { settled, view } = start({
      ...SCENARIOS.reopenListing,
      reopen: { listing: '00000000-0000-4000-8000-00000000dead', topup: TOPUP_CHARGE_ID },
    });
    await settled();
    expect(view().panel).toBe('selectEdition');
  });

  it('ends redirecting when the listing’s buyer left for a crypto top-up', async () => {
    const { send, settled, done } = start(SCENARIOS.resold, {
      buy: async () => railRedirect(TOPUP_URL),
    });
    await settled();
    send({ type: 'checkout.edition.select', listingId: LISTING_3.id });
    expect(await done()).toEqual({ kind: 'redirecting', url: TOPUP_URL });
  });

  it('returns to the editions when the purchase is closed; an unknown listing is no choice', async () => {
    const { actor, calls, send, settled, view } = start(SCENARIOS.resold, { buy: async () => railBack });
    await settled();
    send({ type: 'checkout.edition.select', listingId: 'not-a-listing' });
    expect(view().panel).toBe('selectEdition');
    send({ type: 'checkout.edition.select', listingId: LISTING_3.id });
    await waitFor(actor, (s) => s.matches('buyingListing'));
    await waitFor(actor, (s) => s.matches('selectEdition'));
    expect(calls.buys).toHaveLength(1);
  });
});

describe('back from a top-up of the balance rail', () => {
  it('opens on the balance rail, which follows the top-up and returns to the item page', async () => {
    const { actor, calls, settled } = start(SCENARIOS.reopenBalance);
    await settled();
    expect(actor.getSnapshot().value).toBe('balance');
    expect(calls.pending).toBe(0);
    const rail = actor.getSnapshot().children.balancePayment!.getSnapshot();
    expect(rail.context).toMatchObject({
      returnedTopup: TOPUP_CHARGE_ID,
      returnTo: `/nft/${ITEM.id}?buy=balance`,
    });
  });

  it('where the balance rail is not offered (a printed item), the checkout starts as pressing buy does', async () => {
    const { actor, settled } = start({
      ...SCENARIOS.reopenBalance,
      item: { ...SCENARIOS.reopenBalance.item, printed: true },
    });
    await settled();
    expect(actor.getSnapshot().value).toEqual({ selectPaymentMethod: 'shown' });
  });
});

describe('collection required', () => {
  it('offers "Set up collection" when the setup right after connecting is refused in the wallet', async () => {
    const { calls, send, settled, view } = start(SCENARIOS.pack, {
      wallet: async () => ({ user: makeUser({ wallet: { walletAddress: NEW_WALLET } }) }),
      collection: async () => ({ ready: false }),
      setup: async () => {
        throw { code: 'WALLET_CANCELED', message: 'Declined in the wallet' };
      },
    });
    await settled();
    send({ type: 'checkout.method.select', method: 'creditCard' });
    send({ type: 'checkout.wallet.connect' });
    await settled();
    expect(calls.setups).toEqual([NEW_WALLET]);
    expect(view()).toMatchObject({
      panel: 'collectionRequired',
      action: { label: 'Set up collection', enabled: true },
    });
    // Pressed, it asks the wallet again; the automatic setup is not repeated on its own.
    send({ type: 'checkout.collection.setup' });
    await settled();
    expect(calls.setups).toEqual([NEW_WALLET, NEW_WALLET]);
  });

  it('asks a wallet that was already linked for its setup only when the buyer presses the button', async () => {
    const { calls, send, settled, view } = start(
      { ...SCENARIOS.pack, user: { ...SCENARIOS.pack.user!, walletAddress: NEW_WALLET } },
      { collection: async () => ({ ready: false }) },
    );
    await settled();
    send({ type: 'checkout.method.select', method: 'creditCard' });
    await settled();
    expect(view()).toMatchObject({ action: { label: 'Set up collection', enabled: true } });
    expect(calls.setups).toEqual([]);
  });

  it('connects a wallet, sets up its collection, then goes on to where the buyer was going', async () => {
    const { calls, send, settled, view, done } = start(SCENARIOS.pack, {
      wallet: async () => ({ user: makeUser({ wallet: { walletAddress: NEW_WALLET } }) }),
      collection: async (n) => ({ ready: n > 1 }),
      card: async () => CARD_OUTCOMES.failed,
    });
    await settled();
    send({ type: 'checkout.method.select', method: 'creditCard' });
    expect(view()).toMatchObject({
      panel: 'collectionRequired',
      title: 'Collection required',
      text: 'Connect a Flow wallet first: the editions you buy are minted to it.',
      action: { label: 'Connect wallet', event: 'checkout.wallet.connect', enabled: true },
    });
    send({ type: 'checkout.wallet.connect' });
    expect(view()).toMatchObject({ busy: true, action: { enabled: false }, canClose: false });
    await settled();
    expect(calls.linked.map((u) => u.wallet.walletAddress)).toEqual([NEW_WALLET]);
    // The wallet just connected has no collection: its setup starts at once, no second button.
    expect(await done()).toEqual({ kind: 'failed', orderId: ORDER_ID });
    expect(calls.setups).toEqual([NEW_WALLET]);
    expect(calls.checks).toEqual([NEW_WALLET, NEW_WALLET]);
    expect(calls.cards).toEqual([
      {
        item: { kind: 'pack', id: PACK_ID, title: 'Starter Pack' },
        price: 6000,
        email: BUYER.email,
        checkpoint: null,
        prefill: BUYER_PREFILL,
      },
    ]);
  });
});
