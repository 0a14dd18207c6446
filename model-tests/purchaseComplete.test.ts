import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { followCard, followOrder } from '#domain/chargeProgress';
import { timings } from '#domain/constants';
import type { PurchaseJson, PurchaseLookup } from '#domain/purchase';
import type { OrderStatus } from '#domain/schemas/checkout';
import { type PurchaseCompleteInput, purchaseCompleteMachine } from '../machines/purchaseComplete';
import { connectPurchaseComplete } from '../machines/purchaseCompleteView';
import { flushCoverage } from './coverage-store';
import { flush, generatePaths, runPath } from './harness';
import {
  BLUEPRINT_ID,
  BOUGHT_AT,
  BUYER_EMAIL,
  BUYER_WALLET,
  CARD_PURCHASE,
  CHARGE_ID,
  CRYPTO_CHARGE_ID,
  cardCharge,
  followed,
  LINK_TIME,
  LISTING_ID,
  ONRAMP_CHARGE_ID,
  ORDER_ID,
  paidOrder,
  purchaseCompleteModel,
  RESALE,
  type RefundCase,
  SESSION_ID,
} from './purchaseComplete.model';

describe('purchaseComplete machine paths', () => {
  const paths = generatePaths(purchaseCompleteModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
  for (const path of paths) it(path.description, () => runPath(purchaseCompleteModel, path));
  afterAll(() => flushCoverage('machine'));
});

const input: PurchaseCompleteInput = {
  id: LISTING_ID,
  kind: 'nftSaleListing',
  time: LINK_TIME,
  serial: '3',
  type: 'saleListing',
  email: BUYER_EMAIL,
  walletAddress: BUYER_WALLET,
};

/** The real machine on a simulated clock, its lookups answered by `answer` (call number from 1). */
function start(answer: (call: number) => Promise<PurchaseJson | null>) {
  const lookups: PurchaseLookup[] = [];
  const clock = new SimulatedClock();
  const actor = createActor(
    purchaseCompleteMachine.provide({
      actors: {
        findPurchase: fromPromise(async ({ input }) => {
          lookups.push(input);
          return answer(lookups.length);
        }),
      },
    }),
    { input, clock },
  ).start();
  /** Lets `ticks` ticks pass, settling each lookup as it comes. */
  const tick = async (ticks: number) => {
    for (let i = 0; i < ticks; i++) {
      clock.increment(timings.purchaseCompletePollMs);
      await flush();
    }
  };
  return { actor, lookups, tick };
}

describe('purchaseComplete for a card purchase', () => {
  it('syncs the charge first, reads it every tick, and is complete with its order on the tick it is minted (no lookup)', async () => {
    const calls: string[] = [];
    const clock = new SimulatedClock();
    let minted = false;
    const actor = createActor(
      purchaseCompleteMachine.provide({
        actors: {
          syncCharge: fromPromise(async ({ input }) => {
            calls.push(`sync ${input.rail} ${input.ckoSessionId}`);
            return followCard(cardCharge('authorized'));
          }),
          follow: fromPromise(async ({ input }) => {
            calls.push(`charge ${input.charge?.rail}`);
            return followCard(cardCharge(minted ? 'minted' : 'authorized'));
          }),
          findPurchase: fromPromise(async () => {
            calls.push('lookup');
            return minted ? CARD_PURCHASE : null;
          }),
        },
      }),
      {
        input: {
          ...input,
          id: BLUEPRINT_ID,
          kind: 'blueprint',
          type: 'creditCard',
          charge: { rail: 'card', id: CHARGE_ID, ckoSessionId: SESSION_ID },
        },
        clock,
      },
    ).start();
    await flush();
    expect(calls).toEqual([`sync card ${SESSION_ID}`]);
    clock.increment(timings.purchaseCompletePollMs);
    await flush();
    expect(calls.slice(1)).toEqual(['charge card']);
    minted = true;
    clock.increment(timings.purchaseCompletePollMs);
    await flush();
    // Tick 2: the charge's order is minted; the receipt is that order, no lookup among purchases.
    expect(calls.slice(2)).toEqual(['charge card']);
    expect(actor.getSnapshot().value).toBe('complete');
    expect(actor.getSnapshot().output).toEqual({ purchase: null, order: cardCharge('minted').order });
  });

  it('ends with the reason when the charge failed, at the sync or at a later tick', async () => {
    const declined = createActor(
      purchaseCompleteMachine.provide({
        actors: { syncCharge: fromPromise(async () => followCard(cardCharge('declined'))) },
      }),
      { input: { ...input, charge: { rail: 'card', id: CHARGE_ID, ckoSessionId: SESSION_ID } } },
    ).start();
    await flush();
    expect(declined.getSnapshot().context.failure).toBe('paymentFailed');
    expect(connectPurchaseComplete(declined.getSnapshot())).toMatchObject({
      title: 'Purchase Failed',
      text: 'Purchase Failed. Your card was not charged.',
    });
  });
});

describe('purchaseComplete for a crypto or on-ramp purchase', () => {
  /** The machine following a charge of `rail`, whose reads answer `reads` in turn (the last repeats). */
  function follow(rail: 'crypto' | 'onramp', sync: RefundCase, reads: RefundCase[]) {
    const clock = new SimulatedClock();
    const calls: string[] = [];
    const id = rail === 'crypto' ? CRYPTO_CHARGE_ID : ONRAMP_CHARGE_ID;
    let n = 0;
    const actor = createActor(
      purchaseCompleteMachine.provide({
        actors: {
          syncCharge: fromPromise(async ({ input }) => {
            calls.push(`sync ${input.rail} ${input.id}`);
            return followed(rail, sync);
          }),
          follow: fromPromise(async ({ input }) => {
            calls.push(`read ${input.charge?.rail} ${input.charge?.id}`);
            return followed(rail, reads[Math.min(n++, reads.length - 1)]!);
          }),
          findPurchase: fromPromise<PurchaseJson | null, PurchaseLookup>(async () => {
            calls.push('lookup');
            return null;
          }),
        },
      }),
      {
        input: {
          ...input,
          id: BLUEPRINT_ID,
          kind: 'blueprint',
          type: rail === 'crypto' ? 'coinbase' : 'wert',
          charge: { rail, id, ckoSessionId: null },
        },
        clock,
      },
    ).start();
    /** Lets the sync settle, then `ticks` ticks pass, settling each read as it comes. */
    const tick = async (ticks: number) => {
      await flush();
      for (let i = 0; i < ticks; i++) {
        clock.increment(timings.purchaseCompletePollMs);
        await flush();
      }
    };
    return { actor, calls, tick, id };
  }
  const dateTime = (minutes: number) =>
    new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(BOUGHT_AT + minutes * 60_000),
    );

  it('a payment that arrived after the order ended is waited for until its FUSD went back, then told with the timeline', async () => {
    for (const rail of ['crypto', 'onramp'] as const) {
      const { actor, calls, tick, id } = follow(rail, 'paidLate', ['paidLate', 'paidLate', 'refunded']);
      await flush();
      expect(calls).toEqual([`sync ${rail} ${id}`]);
      await tick(2);
      expect(actor.getSnapshot().status).toBe('active');
      expect(connectPurchaseComplete(actor.getSnapshot()).panel).toBe('pending');
      await tick(1);
      expect(calls.filter((c) => c.startsWith('read'))).toEqual(Array(3).fill(`read ${rail} ${id}`));
      expect(actor.getSnapshot().value).toBe('refunded');
      expect(actor.getSnapshot().output).toBeNull();
      expect(connectPurchaseComplete(actor.getSnapshot())).toEqual({
        panel: 'refund',
        title: 'Payment Refunded',
        text: 'Your payment arrived after the order ended, when this edition was no longer held for you, so nothing was minted. $25 was refunded as FUSD to your wallet.',
        busy: false,
        alert: false,
        itemId: BLUEPRINT_ID,
        timeline: [
          { label: 'Order placed', detail: null, time: dateTime(0), dateTime: expect.any(String) },
          {
            label: 'Order expired',
            detail: 'The payment was not made in time.',
            time: dateTime(60),
            dateTime: expect.any(String),
          },
          {
            label: 'Paid after the order ended',
            detail: 'Your payment arrived after the order ended: it is refunded as FUSD to your wallet.',
            time: dateTime(62),
            dateTime: expect.any(String),
          },
          {
            label: 'Refunded as FUSD',
            detail: '$25 was sent back as FUSD to your wallet.',
            time: dateTime(63),
            dateTime: expect.any(String),
          },
        ],
      });
    }
  });

  it('a refund already sent when the buyer comes back ends at the sync; a refused one asks the buyer to write to support', async () => {
    const sent = follow('crypto', 'refunded', ['open']);
    await flush();
    expect(sent.actor.getSnapshot().value).toBe('refunded');
    expect(sent.calls).toHaveLength(1);

    const refused = follow('onramp', 'open', ['refundFailed']);
    await refused.tick(1);
    const view = connectPurchaseComplete(refused.actor.getSnapshot());
    expect(view).toMatchObject({
      panel: 'refund',
      title: 'Refund Delayed',
      text: 'Your payment arrived after the order ended, when this edition was no longer held for you, so nothing was minted. We could not send the $25 you paid back as FUSD to your wallet yet.',
      alert: true,
      help: { supportEmail: 'support@vitrine.market' },
    });
    expect(view.timeline!.map((e) => e.label)).toEqual([
      'Order placed',
      'Order expired',
      'Paid after the order ended',
    ]);
  });

  it('out of time while the payment is on its way back: the page says it is coming, not that something went wrong', async () => {
    const { actor, tick } = follow('crypto', 'open', ['paidLate']);
    await tick(timings.purchaseCompleteMaxTicks);
    expect(actor.getSnapshot().value).toBe('refunded');
    expect(connectPurchaseComplete(actor.getSnapshot())).toMatchObject({
      panel: 'refund',
      title: 'Refund on Its Way',
      text: 'Your payment arrived after the order ended, when this edition was no longer held for you, so nothing was minted. The $25 you paid is being sent back as FUSD to your wallet.',
      alert: false,
    });
  });

  it('an order that ended unpaid tells its reason at once; a minted one is complete on that tick', async () => {
    const declined = follow('onramp', 'canceled', []);
    await flush();
    expect(connectPurchaseComplete(declined.actor.getSnapshot())).toMatchObject({
      panel: 'error',
      title: 'Purchase Failed',
      text: 'The card payment did not go through. You were not charged.',
      help: { text: 'Nothing was minted. You can try again from the item page.' },
    });
    const minted = follow('crypto', 'open', ['minted']);
    await minted.tick(1);
    expect(minted.calls.slice(1)).toEqual([`read crypto ${CRYPTO_CHARGE_ID}`]);
    expect(minted.actor.getSnapshot().value).toBe('complete');
  });

  it('reads a card charge refunded by the provider as refunded to the card', () => {
    expect(followed('card', 'refunded')).toMatchObject({
      stage: 'refunded',
      refund: { cents: 2500, to: 'card' },
    });
  });
});

describe('purchaseComplete for an order no charge paid (balance, token, free claim)', () => {
  /** The machine following the order `ORDER_ID`, whose reads answer `reads` in turn (the last repeats). */
  function followOrderLink(reads: OrderStatus[], time: string | undefined = LINK_TIME) {
    const clock = new SimulatedClock();
    const calls: string[] = [];
    let n = 0;
    const actor = createActor(
      purchaseCompleteMachine.provide({
        actors: {
          follow: fromPromise(async ({ input }) => {
            calls.push(`order ${input.order} ${input.charge}`);
            return followOrder(paidOrder(reads[Math.min(n++, reads.length - 1)]!));
          }),
          findPurchase: fromPromise<PurchaseJson | null, PurchaseLookup>(async () => {
            calls.push('lookup');
            return null;
          }),
        },
      }),
      {
        input: { ...input, id: BLUEPRINT_ID, kind: 'blueprint', type: 'fusd', time, order: ORDER_ID },
        clock,
      },
    ).start();
    const tick = async (ticks: number) => {
      for (let i = 0; i < ticks; i++) {
        clock.increment(timings.purchaseCompletePollMs);
        await flush();
      }
    };
    return { actor, calls, tick };
  }

  it('reads the order every tick and is complete with its minted editions as the receipt; never looks up by time', async () => {
    const { actor, calls, tick } = followOrderLink(['authorized', 'minting', 'minted']);
    await tick(2);
    expect(calls).toEqual([`order ${ORDER_ID} null`, `order ${ORDER_ID} null`]);
    expect(connectPurchaseComplete(actor.getSnapshot()).panel).toBe('pending');
    await tick(1);
    expect(calls).toHaveLength(3);
    expect(actor.getSnapshot().value).toBe('complete');
    expect(actor.getSnapshot().output).toEqual({ purchase: null, order: paidOrder('minted') });
    expect(connectPurchaseComplete(actor.getSnapshot())).toMatchObject({
      panel: 'success',
      title: 'Purchase Complete',
      details: {
        itemLabel: 'Item',
        title: 'Night Market',
        previewImageUrl: '/media/seed/night-market.png',
        edition: '#05',
        partner: 'Pixel Garden',
        total: '$25',
        walletAddress: BUYER_WALLET,
        email: BUYER_EMAIL,
      },
    });
    await tick(8);
    expect(calls).toHaveLength(3);
  });

  it('needs no purchase time; an order refunded to the wallet, or ended unpaid, ends the wait', async () => {
    const refunded = followOrderLink(['refunded'], undefined);
    await refunded.tick(1);
    expect(refunded.actor.getSnapshot().value).toBe('refunded');
    expect(connectPurchaseComplete(refunded.actor.getSnapshot())).toMatchObject({
      title: 'Payment Refunded',
      text: 'This purchase could not be completed, so nothing was minted. $25 was refunded as FUSD to your wallet.',
    });
    const expired = followOrderLink(['expired']);
    await expired.tick(1);
    expect(expired.actor.getSnapshot().context.failure).toBe('paymentFailed');
  });
});

describe('purchaseComplete polling', () => {
  it('looks up every 4th tick of 750 ms for the item bought since the link’s time, and outputs it', async () => {
    const { actor, lookups, tick } = start(async (call) => (call === 3 ? RESALE : null));
    await tick(3);
    expect(lookups).toEqual([]);
    await tick(1);
    expect(lookups).toEqual([{ id: LISTING_ID, kind: 'nftSaleListing', since: Number(LINK_TIME) }]);
    expect(connectPurchaseComplete(actor.getSnapshot()).panel).toBe('pending');
    await tick(7);
    expect(lookups).toHaveLength(2);
    await tick(1);
    expect(lookups).toHaveLength(3);
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().value).toBe('complete');
    expect(actor.getSnapshot().output).toEqual({ purchase: RESALE, order: null });
    await tick(8);
    expect(lookups).toHaveLength(3);
  });

  it('gives up after 500 ticks: 125 lookups, then failed', async () => {
    const { actor, lookups, tick } = start(async () => null);
    await tick(timings.purchaseCompleteMaxTicks - 1);
    expect(actor.getSnapshot().status).toBe('active');
    expect(lookups).toHaveLength(124);
    await tick(1);
    expect(lookups).toHaveLength(125);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.failure).toBe('timedOut');
    expect(actor.getSnapshot().output).toBeNull();
    expect(connectPurchaseComplete(actor.getSnapshot()).panel).toBe('error');
  });

  it('fails at once without a usable purchase time, and on a failed lookup', async () => {
    for (const time of [undefined, null, '', 'yesterday', '-5', '1.5e12']) {
      const actor = createActor(purchaseCompleteMachine, { input: { ...input, time } }).start();
      expect(actor.getSnapshot().value, String(time)).toBe('failed');
      expect(actor.getSnapshot().context.failure).toBe('invalidTime');
    }
    const { actor, tick } = start(async () => {
      throw new Error('offline');
    });
    await tick(4);
    expect(actor.getSnapshot().context.failure).toBe('lookupFailed');
  });
});
