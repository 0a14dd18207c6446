import { expect } from 'vitest';
import { orderCompleteTarget } from '#domain/purchase';
import { type BuyListingContext, buyListingMachine } from '../machines/buyListing';
import { CHARGE_ID, topupCharge } from './cryptoTopup.model';
import { after, expectNotCalled, expectOutput, expectWorking, inputsOf } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof buyListingMachine>;
const errorCode = (o: O) => (o.event as { error?: { body?: { code: string } } }).error?.body?.code ?? null;
const TX = 'ab'.repeat(32);
const PURCHASED_ON = '2026-11-22T10:00:00.000Z';

export const HOSTED_URL = 'http://127.0.0.1:8791/charges/XA6G6ZFR';
const LISTING_INPUT = {
  listing: { id: 'l1', blockchainListingId: '99', price: 2500, seller: '0x179b6b1cb6755e31' },
  nft: { flowBlueprintId: '7', seriesNumber: 3 },
  walletAddress: '0x01cf0e2f2f715450',
  returnTo: '/nft/4711?listing=l1',
};
/** Reads of a returned top-up before the dialog reads the balance anyway, in the model (the live machine reads 50 times). */
export const MODEL_MAX_TOPUP_READS = 2;
const topup = (hostedUrl: string | null) => ({ id: 'c1', type: 'topup', status: 'NEW', hostedUrl });

export const buyListingModel: MachineModel<typeof buyListingMachine> = {
  machine: buyListingMachine,
  fakes: ['fusdBalance', 'buyListing', 'recordPurchase', 'createTopup', 'getTopup'],
  provide: { guards: { topupReadsLeft: ({ context }) => context.topupReads < MODEL_MAX_TOPUP_READS } },
  scenarios: [
    { name: 'a $25 listing', input: LISTING_INPUT },
    { name: 'a $25 listing, the crypto rail running', input: { ...LISTING_INPUT, canTopUp: true } },
    {
      name: 'back from a top-up’s payment page',
      input: { ...LISTING_INPUT, canTopUp: true, returnedTopup: CHARGE_ID },
    },
  ],
  events: () => [
    { type: 'xstate.done.actor.fusdBalance', output: 3000 },
    { type: 'xstate.done.actor.fusdBalance', output: 2499 },
    { type: 'xstate.error.actor.fusdBalance', error: { code: 'NETWORK_FAILURE' } },
    { type: 'buy.acknowledge', value: true },
    { type: 'buy.acknowledge', value: false },
    { type: 'buy.submit' },
    { type: 'buy.retry' },
    { type: 'buy.close' },
    { type: 'xstate.done.actor.buyListing', output: { transactionId: TX } },
    { type: 'xstate.error.actor.buyListing', error: { code: 'WALLET_CANCELED' } },
    {
      type: 'xstate.done.actor.recordPurchase',
      output: { id: 'p1', transactionId: TX, purchasedOn: PURCHASED_ON },
    },
    { type: 'xstate.error.actor.recordPurchase', error: { code: 'NETWORK_FAILURE' } },
    { type: 'buy.topup' },
    { type: 'xstate.done.actor.createTopup', output: topup(HOSTED_URL) },
    { type: 'xstate.done.actor.createTopup', output: topup(null) },
    { type: 'xstate.error.actor.createTopup', error: { status: 0, body: { code: 'NETWORK_FAILURE' } } },
    { type: 'xstate.error.actor.createTopup', error: { status: 400, body: { code: 'CHARGE_PENDING' } } },
    { type: 'xstate.done.actor.getTopup', output: topupCharge('SEND_FUSD_SUCCEEDED') },
    { type: 'xstate.done.actor.getTopup', output: topupCharge('SEND_FUSD_FAILED') },
    { type: 'xstate.done.actor.getTopup', output: topupCharge('CANCELED') },
    { type: 'xstate.done.actor.getTopup', output: topupCharge('PENDING') },
    { type: 'xstate.error.actor.getTopup', error: { status: 0, body: { code: 'NETWORK_FAILURE' } } },
    { type: 'xstate.after.topupPollInterval.buyListing.awaitingTopup.waiting' },
  ],
  // A returned top-up shows by its status (its note) and, while it is awaited, by the reads so far.
  serializeState: (s) => {
    const c = s.context as BuyListingContext;
    return JSON.stringify([
      s.value,
      c.balance,
      c.acknowledged,
      c.error?.code ?? null,
      c.key ? 'key' : null,
      c.topup?.status ?? null,
      s.matches('awaitingTopup') ? c.topupReads : null,
    ]);
  },
  expect: {
    // Back from a top-up's page: its charge is followed, at most so many reads, before the balance.
    awaitingTopup: (o) => {
      expect(o.snapshot.context.topupReads).toBeLessThanOrEqual(MODEL_MAX_TOPUP_READS);
      expectNotCalled(o, 'fusdBalance');
    },
    'awaitingTopup.reading': (o) => expectWorking(o, 'getTopup', { id: CHARGE_ID }),
    'awaitingTopup.waiting': (o) => {
      if (after(o, 'done', 'getTopup'))
        expect((o.event as unknown as { output: { status: string } }).output.status).toBe('PENDING');
      else expect(after(o, 'error', 'getTopup')).toBe(true);
    },
    checkingBalance: (o) => {
      expectWorking(o, 'fusdBalance', { address: LISTING_INPUT.walletAddress });
      if (after(o, 'error', 'getTopup')) expect(o.snapshot.context.topupReads).toBe(MODEL_MAX_TOPUP_READS);
    },
    balanceFailed: (o) => expect(o.snapshot.context.error?.code).toBe('NETWORK_FAILURE'),
    // Below the price: "Insufficient funds", a top-up of the shortfall where the crypto rail runs.
    insufficientFunds: (o) => {
      const c = o.snapshot.context;
      expect(c.balance!).toBeLessThan(LISTING_INPUT.listing.price);
      if (after(o, 'done', 'fusdBalance')) expect(c.error?.code).toBe('INSUFFICIENT_FUNDS');
      if (after(o, 'done', 'createTopup')) expect(c.error?.code).toBe('CREATE_COINBASE_CHARGE');
      if (after(o, 'error', 'createTopup')) {
        expect(c.error?.code).toBe(errorCode(o));
        expect(c.key).toBe(errorCode(o) === 'NETWORK_FAILURE' ? o.before.context.key : null);
      }
      expectNotCalled(o, 'buyListing');
    },
    // One top-up charge per attempt, of the shortfall, returning to this listing's page.
    toppingUp: (o) => {
      const c = o.snapshot.context;
      expect(c.canTopUp).toBe(true);
      expectWorking(o, 'createTopup', {
        amount: 100,
        idempotencyKey: c.key,
        returnTo: LISTING_INPUT.returnTo,
      });
      const keys = inputsOf(o, 'createTopup').map((i) => (i as { idempotencyKey: string }).idempotencyKey);
      const last = o.history
        .slice(0, -1)
        .findLast((e) => /^xstate\.(done|error)\.actor\.createTopup$/.test(e.type));
      const noAnswer =
        (last?.error as { body?: { code: string } } | undefined)?.body?.code === 'NETWORK_FAILURE';
      if (noAnswer) expect(keys.at(-1)).toBe(keys.at(-2));
      else expect(keys.slice(0, -1)).not.toContain(keys.at(-1));
    },
    // Signing needs the purchase agreement and terms acknowledged.
    confirming: (o) => {
      const c = o.snapshot.context;
      expect(c.balance!).toBeGreaterThanOrEqual(LISTING_INPUT.listing.price);
      if (o.event.type === 'buy.submit') {
        expect(c.acknowledged).toBe(false);
        expect(c.error).toMatchObject({ code: 'INVALID_VALUE', field: 'terms' });
      }
      if (o.event.type === 'buy.acknowledge')
        expect(c).toMatchObject({ acknowledged: o.event.value, error: null });
      if (after(o, 'error', 'buyListing')) expect(c.error?.code).toBe('WALLET_CANCELED');
    },
    signing: (o) => {
      expect(o.event.type).toBe('buy.submit');
      expect(o.snapshot.context.acknowledged).toBe(true);
      const { walletAddress, listing } = LISTING_INPUT;
      expectWorking(o, 'buyListing', {
        address: walletAddress,
        seller: listing.seller,
        blockchainListingId: listing.blockchainListingId,
      });
    },
    // Bought on chain: the purchase is recorded (and recorded again on retry, never bought twice).
    recording: (o) => {
      expectWorking(o, 'recordPurchase', {
        transactionId: TX,
        walletAddress: LISTING_INPUT.walletAddress,
        flowBlueprintId: '7',
        nftSeriesNumber: '3',
        type: 'saleListing',
        blockchainListingId: '99',
      });
      expect(inputsOf(o, 'buyListing').length).toBe(
        o.history.filter((e) => e.type === 'xstate.done.actor.buyListing').length +
          o.history.filter((e) => e.type === 'xstate.error.actor.buyListing').length,
      );
    },
    recordFailed: (o) => {
      expect(o.snapshot.context.transactionId).toBe(TX);
      expect(o.snapshot.context.error?.code).toBe('NETWORK_FAILURE');
    },
    // Paid: the listing's purchase-complete page, looking for the purchase since the one recorded.
    purchased: (o) =>
      expectOutput(o, {
        type: 'paid',
        target: orderCompleteTarget({
          id: 'l1',
          kind: 'nftSaleListing',
          startedAt: Date.parse(PURCHASED_ON),
          type: 'saleListing',
          serial: 3,
        }),
      }),
    // Closed after a failed record: the NFT was bought, so the flow ends paid, its page looking for
    // the purchase from when the wallet was asked to sign (moments ago).
    unrecorded: (o) => {
      expect(o.event.type).toBe('buy.close');
      expect(o.before.value).toBe('recordFailed');
      const signedFrom = o.snapshot.context.signedFrom!;
      expect(Date.now() - signedFrom).toBeGreaterThanOrEqual(0);
      expect(Date.now() - signedFrom).toBeLessThan(60_000);
      expectOutput(o, {
        type: 'paid',
        target: orderCompleteTarget({
          id: 'l1',
          kind: 'nftSaleListing',
          startedAt: signedFrom,
          type: 'saleListing',
          serial: 3,
        }),
      });
    },
    redirect: (o) => expectOutput(o, { type: 'redirect', url: HOSTED_URL }),
    // Closed before anything was bought: back.
    closed: (o) => {
      expect(o.event.type).toBe('buy.close');
      expect(o.snapshot.context.transactionId).toBeNull();
      expectOutput(o, { type: 'back' });
    },
  },
};
