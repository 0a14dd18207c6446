/** The purchase-complete page's view model, the purchased item and the purchase links. */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { type FollowedCharge, followCrypto } from '#domain/chargeProgress';
import { timings } from '#domain/constants';
import {
  orderCompleteTarget,
  type PurchaseJson,
  type PurchaseLookup,
  parseOrderCompleteSearch,
  parsePurchaseTime,
  purchasedItem,
  purchaseMatches,
  queryText,
} from '#domain/purchase';
import {
  type ChargeRef,
  type PurchaseCompleteInput,
  purchaseCompleteMachine,
} from '../machines/purchaseComplete';
import { connectPurchaseComplete, formatTotal } from '../machines/purchaseCompleteView';
import { flush } from './harness';
import {
  BLUEPRINT_ID,
  BOUGHT_AT,
  BUYER_EMAIL,
  BUYER_WALLET,
  CRYPTO_CHARGE_ID,
  cryptoCharge,
  FREE_CLAIM,
  LINK_TIME,
  LISTING_ID,
  PACK_ID,
  PACK_PURCHASE,
  RESALE,
} from './purchaseComplete.model';

/** A resale purchase's link. */
const input: PurchaseCompleteInput = {
  id: LISTING_ID,
  kind: 'nftSaleListing',
  time: LINK_TIME,
  serial: '3',
  type: 'saleListing',
  email: BUYER_EMAIL,
  walletAddress: BUYER_WALLET,
};

describe('purchased item', () => {
  it('names an NFT no blueprint of ours describes by its own metadata', () => {
    const nft = { id: '7', seriesNumber: 1, blueprint: null };
    expect(
      purchasedItem({ nft: { ...nft, metadata: { name: 'Harbor Lights', image: '/media/x.png' } } }),
    ).toEqual({
      title: 'Harbor Lights',
      previewImageUrl: '/media/x.png',
    });
    expect(purchasedItem({ nft: { ...nft, metadata: {} } })).toEqual({
      title: 'Collectible',
      previewImageUrl: null,
    });
  });
});

describe('purchaseComplete view model', () => {
  it('says it waits for the network while a crypto payment is seen but not confirmed', async () => {
    const seen = { ...cryptoCharge('open'), status: 'PENDING' as const, paid: 2500, unresolved: false };
    expect(followCrypto(seen).stage).toBe('confirming');
    const actor = createActor(
      purchaseCompleteMachine.provide({
        actors: {
          findPurchase: fromPromise<PurchaseJson | null, PurchaseLookup>(async () => null),
          syncCharge: fromPromise<FollowedCharge, ChargeRef>(async () => followCrypto(seen)),
        },
      }),
      {
        input: {
          id: BLUEPRINT_ID,
          kind: 'blueprint',
          time: LINK_TIME,
          type: 'coinbase',
          email: BUYER_EMAIL,
          walletAddress: BUYER_WALLET,
          charge: { rail: 'crypto', id: CRYPTO_CHARGE_ID, ckoSessionId: null },
        },
        clock: new SimulatedClock(),
      },
    ).start();
    await flush();
    expect(connectPurchaseComplete(actor.getSnapshot())).toMatchObject({
      panel: 'pending',
      title: 'Almost there',
      text: 'Waiting for the network to confirm your payment. Your collectible is minted as soon as it is.',
    });
  });

  it('shows the item, edition, storefront, total, time, email and wallet of the purchase', async () => {
    const clock = new SimulatedClock();
    const actor = createActor(
      purchaseCompleteMachine.provide({
        actors: { findPurchase: fromPromise<PurchaseJson | null, PurchaseLookup>(async () => RESALE) },
      }),
      { input, clock },
    ).start();
    expect(connectPurchaseComplete(actor.getSnapshot())).toEqual({
      panel: 'pending',
      title: 'Almost there',
      text: "We're confirming your purchase. It may take a couple of minutes.",
      busy: true,
      alert: false,
    });
    for (let i = 0; i < 4; i++) {
      clock.increment(timings.purchaseCompletePollMs);
      await flush();
    }
    const view = connectPurchaseComplete(actor.getSnapshot());
    expect(view).toEqual({
      panel: 'success',
      title: 'Purchase Complete',
      text: 'Thank you! The collectible is yours.',
      busy: false,
      alert: false,
      details: {
        itemLabel: 'Item',
        title: 'Night Market',
        previewImageUrl: '/media/seed/night-market.png',
        // The edition as everywhere: padded to two digits.
        edition: '#03',
        cards: [],
        partner: 'Pixel Garden',
        total: '$40',
        purchasedOn: new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' }).format(
          new Date(BOUGHT_AT + 4_000),
        ),
        email: BUYER_EMAIL,
        walletAddress: BUYER_WALLET,
      },
    });
    expect(view.details!.purchasedOn).toMatch(/^November 2[12], 2026 at \d{1,2}:\d{2}\s[AP]M$/);
    actor.stop();
  });

  it('shows a pack as bought: the pack, its whole price and every card it minted with its edition', async () => {
    const clock = new SimulatedClock();
    const actor = createActor(
      purchaseCompleteMachine.provide({
        actors: { findPurchase: fromPromise<PurchaseJson | null, PurchaseLookup>(async () => PACK_PURCHASE) },
      }),
      { input: { ...input, id: PACK_ID, kind: 'blueprintPack', serial: null, type: 'creditCard' }, clock },
    ).start();
    for (let i = 0; i < 4; i++) {
      clock.increment(timings.purchaseCompletePollMs);
      await flush();
    }
    const view = connectPurchaseComplete(actor.getSnapshot());
    expect(view).toMatchObject({
      panel: 'success',
      title: 'Purchase Complete',
      text: 'Thank you! The 3 collectibles are yours.',
    });
    expect(view.details).toMatchObject({
      itemLabel: 'Pack',
      title: 'Booster Pack: Series 1',
      previewImageUrl: '/media/seed/pack.png',
      edition: null,
      total: '$15',
      cards: [
        { title: 'Card A', edition: '#01', nftId: '4801', previewImageUrl: '/media/seed/a.png' },
        { title: 'Card B', edition: '#01', nftId: '4802', previewImageUrl: '/media/seed/b.png' },
        { title: 'Card C', edition: '#07', nftId: '4803', previewImageUrl: '/media/seed/c.png' },
      ],
    });
    actor.stop();
  });

  it('reads Free for nothing, cents when there are some, and the link’s edition when the record has none', () => {
    expect(formatTotal(0)).toBe('Free');
    expect(formatTotal(1250)).toBe('$12.50');
    expect(formatTotal(100_000)).toBe('$1,000');
    const snapshot = purchaseCompleteMachine.resolveState({
      value: 'complete',
      context: {
        ...createActor(purchaseCompleteMachine, { input }).getSnapshot().context,
        serial: '7',
        email: null,
        purchase: FREE_CLAIM,
      },
    });
    expect(connectPurchaseComplete(snapshot).details).toMatchObject({
      edition: '#07',
      total: 'Free',
      email: null,
      walletAddress: FREE_CLAIM.walletAddress,
    });
  });

  it('asks a buyer whose purchase failed to check the collection and write to support', () => {
    const actor = createActor(purchaseCompleteMachine, { input: { ...input, time: undefined } }).start();
    expect(connectPurchaseComplete(actor.getSnapshot())).toEqual({
      panel: 'error',
      title: 'Uh Oh',
      text: "Something went wrong. We're looking into it!",
      busy: false,
      alert: true,
      help: {
        text: 'Please check your collection, and contact support if you were charged and nothing arrives within an hour.',
        supportEmail: 'support@vitrine.market',
      },
    });
  });
});

describe('purchase links and matching', () => {
  it('reads the purchase time as whole epoch milliseconds only', () => {
    expect(parsePurchaseTime('1763805585000')).toBe(1_763_805_585_000);
    expect(parsePurchaseTime('0')).toBe(0);
    for (const t of [undefined, null, '', ' 1', '1e3', '-1', '1.5', 'now', '9'.repeat(16)])
      expect(parsePurchaseTime(t), String(t)).toBeNull();
  });

  it('matches the item of the link’s kind bought at or after the time', () => {
    const since = Date.parse(RESALE.purchasedOn as string);
    expect(purchaseMatches(RESALE, { id: LISTING_ID, kind: 'nftSaleListing', since })).toBe(true);
    expect(purchaseMatches(RESALE, { id: LISTING_ID, kind: 'nftSaleListing', since: since + 1 })).toBe(false);
    expect(purchaseMatches(RESALE, { id: BLUEPRINT_ID, kind: 'blueprint', since })).toBe(true);
    expect(purchaseMatches(RESALE, { id: BLUEPRINT_ID, kind: 'nftSaleListing', since })).toBe(false);
    expect(purchaseMatches(RESALE, { id: LISTING_ID, kind: 'blueprint', since })).toBe(false);
    expect(
      purchaseMatches({ ...RESALE, blueprintPackId: 'p1' }, { id: 'p1', kind: 'blueprintPack', since }),
    ).toBe(true);
    expect(purchaseMatches(RESALE, { id: LISTING_ID, kind: 'other', since })).toBe(false);
    // Dates revived by the API client match as well as ISO text.
    expect(
      purchaseMatches(
        { ...RESALE, purchasedOn: new Date(RESALE.purchasedOn) },
        { id: LISTING_ID, kind: 'nftSaleListing', since },
      ),
    ).toBe(true);
  });

  it('sends a purchase started on our pages to /ordercomplete with its time 15 s earlier', () => {
    expect(
      orderCompleteTarget({
        id: LISTING_ID,
        kind: 'nftSaleListing',
        startedAt: BOUGHT_AT,
        type: 'saleListing',
        serial: 3,
      }),
    ).toEqual({
      to: '/ordercomplete/$id',
      params: { id: LISTING_ID },
      search: { e: 'nftSaleListing', t: Number(LINK_TIME), type: 'saleListing', serial: 3 },
    });
    expect(
      orderCompleteTarget({ id: BLUEPRINT_ID, kind: 'blueprint', startedAt: BOUGHT_AT, type: 'creditCard' })
        .search,
    ).toEqual({ e: 'blueprint', t: Number(LINK_TIME), type: 'creditCard' });
  });

  it('reads the query: kind and method as text, time and edition as text or numbers', () => {
    const link = { e: 'nftSaleListing', t: Number(LINK_TIME), serial: 3, type: 'saleListing' };
    expect(parseOrderCompleteSearch(link)).toEqual(link);
    expect(parseOrderCompleteSearch({ t: LINK_TIME, serial: '0012', other: 'x' })).toEqual({
      t: LINK_TIME,
      serial: '0012',
    });
    expect(
      parseOrderCompleteSearch({ e: 7, t: { at: 1 }, serial: Number.NaN, type: true, other: 'x' }),
    ).toEqual({});
    expect(queryText(3)).toBe('3');
    expect(queryText(undefined)).toBeUndefined();
  });
});
