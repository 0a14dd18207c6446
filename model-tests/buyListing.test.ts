import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { WAITING_FOR_NETWORK } from '#domain/chargeProgress';
import { PURCHASE_CLOCK_SKEW_MS } from '#domain/purchase';
import type { CoinbaseChargeJson, CoinbaseChargeStatus } from '#domain/schemas/crypto';
import type { TopupChargeRequest } from '../machines/balancePayment';
import { buyListingMachine, type PurchaseRecord } from '../machines/buyListing';
import { connectBuyListing } from '../machines/buyListingView';
import { topupTimings } from '../machines/cryptoTopup';
import { buyListingModel, HOSTED_URL } from './buyListing.model';
import { flushCoverage } from './coverage-store';
import { CHARGE_ID, topupCharge } from './cryptoTopup.model';
import { generatePaths, runPath } from './harness';

describe('buyListing machine paths', () => {
  const paths = generatePaths(buyListingModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(buyListingModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('a short balance topped up with crypto', () => {
  const input = {
    listing: { id: 'l1', blockchainListingId: '99', price: 2500, seller: '0x179b6b1cb6755e31' },
    nft: { flowBlueprintId: '7', seriesNumber: 3 },
    walletAddress: '0x01cf0e2f2f715450',
    returnTo: '/nft/4711?listing=l1',
  };
  function start(canTopUp: boolean, createTopup: (n: number) => Promise<unknown>) {
    const requests: TopupChargeRequest[] = [];
    const redirects: string[] = [];
    const actor = createActor(
      buyListingMachine.provide({
        actors: {
          fusdBalance: fromPromise(async () => 1800),
          createTopup: fromPromise<CoinbaseChargeJson, TopupChargeRequest>(async ({ input }) => {
            requests.push(input);
            return (await createTopup(requests.length)) as CoinbaseChargeJson;
          }),
        },
        actions: { redirectTo: (_, { url }) => redirects.push(url) },
      }),
      { input: { ...input, canTopUp } },
    ).start();
    return { actor, requests, redirects };
  }

  it('tops up the shortfall on the crypto page; a network failure keeps the attempt’s key', async () => {
    const { actor, requests, redirects } = start(true, async (n) => {
      if (n === 1) throw { status: 0, body: { code: 'NETWORK_FAILURE', message: '' } };
      return { id: 'c1', type: 'topup', status: 'NEW', hostedUrl: HOSTED_URL };
    });
    const view = () => connectBuyListing(actor.getSnapshot(), (event) => actor.send(event));
    await waitFor(actor, (s) => s.matches('insufficientFunds'));
    // The dialog's controls: the top-up and "Check balance again" take the machine's events.
    expect(view().getTopupButtonProps()).toMatchObject({ disabled: false, 'data-state': 'idle' });
    expect(view().getRetryButtonProps()).toMatchObject({ disabled: false, 'data-state': 'idle' });
    expect(view().getDialogProps().showCloseButton).toBe(true);
    view().getTopupButtonProps().onClick!();
    expect(view().getTopupButtonProps()).toMatchObject({
      disabled: true,
      'aria-busy': true,
      'data-state': 'busy',
    });
    await waitFor(
      actor,
      (s) => s.matches('insufficientFunds') && s.context.error?.code === 'NETWORK_FAILURE',
    );
    view().getTopupButtonProps().onClick!();
    await waitFor(actor, (s) => s.status === 'done');
    expect(requests.map((r) => r.amount)).toEqual([700, 700]);
    // The payment page sends the buyer back to this listing's page, the dialog open on it.
    expect(requests.map((r) => r.returnTo)).toEqual(['/nft/4711?listing=l1', '/nft/4711?listing=l1']);
    expect(requests[1]!.idempotencyKey).toBe(requests[0]!.idempotencyKey);
    expect(redirects).toEqual([HOSTED_URL]);
    expect(actor.getSnapshot().output).toEqual({ type: 'redirect', url: HOSTED_URL });
  });

  it('is not offered where the crypto rail does not run', async () => {
    const { actor, requests } = start(false, async () => ({}));
    await waitFor(actor, (s) => s.matches('insufficientFunds'));
    expect(actor.getSnapshot().can({ type: 'buy.topup' })).toBe(false);
    actor.send({ type: 'buy.topup' });
    expect(actor.getSnapshot().value).toBe('insufficientFunds');
    expect(requests).toEqual([]);
  });

  it('Close (the button or the dialog’s own) ends the purchase', async () => {
    const { actor } = start(false, async () => ({}));
    await waitFor(actor, (s) => s.matches('insufficientFunds'));
    const view = connectBuyListing(actor.getSnapshot(), (event) => actor.send(event));
    expect(view.getTopupButtonProps()).toMatchObject({ disabled: true, 'data-state': 'disabled' });
    view.getDialogProps().onClose();
    expect(actor.getSnapshot().status).toBe('done');
  });
});

describe('back from a top-up’s payment page', () => {
  const input = {
    listing: { id: 'l1', blockchainListingId: '99', price: 2500, seller: '0x179b6b1cb6755e31' },
    nft: { flowBlueprintId: '7', seriesNumber: 3 },
    walletAddress: '0x01cf0e2f2f715450',
    returnTo: '/nft/4711?listing=l1',
    canTopUp: true,
    returnedTopup: CHARGE_ID,
  };
  /** The dialog with a top-up answering `statuses` in turn (the last one from then on) and a balance read. */
  function start(statuses: CoinbaseChargeStatus[], balances: number[]) {
    const reads: string[] = [];
    const balanceReads: number[] = [];
    const clock = new SimulatedClock();
    const actor = createActor(
      buyListingMachine.provide({
        actors: {
          getTopup: fromPromise<CoinbaseChargeJson, { id: string }>(async ({ input }) => {
            reads.push(input.id);
            return topupCharge(statuses[Math.min(reads.length, statuses.length) - 1]!);
          }),
          fusdBalance: fromPromise(async () => {
            balanceReads.push(balanceReads.length);
            return balances[Math.min(balanceReads.length, balances.length) - 1]!;
          }),
        },
      }),
      { input, clock },
    ).start();
    return { actor, reads, balanceReads, clock };
  }

  it('awaits the top-up’s FUSD before it reads the balance, then offers the purchase', async () => {
    const { actor, reads, balanceReads, clock } = start(
      ['PENDING', 'COMPLETED', 'SEND_FUSD_SUCCEEDED'],
      [3300],
    );
    await waitFor(actor, (s) => s.matches({ awaitingTopup: 'waiting' }));
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(connectBuyListing(actor.getSnapshot(), () => {}).status).toBe(WAITING_FOR_NETWORK);
    expect(balanceReads).toEqual([]);
    clock.increment(topupTimings.pollMs);
    await waitFor(actor, (s) => s.matches({ awaitingTopup: 'waiting' }) && s.context.topupReads === 2);
    clock.increment(topupTimings.pollMs);
    await waitFor(actor, (s) => s.matches('confirming'));
    expect(reads).toEqual([CHARGE_ID, CHARGE_ID, CHARGE_ID]);
    expect(balanceReads).toEqual([0]);
    expect(connectBuyListing(actor.getSnapshot(), () => {}).topupNote).toBe('Added $25 to your balance.');
  });

  it('reads the balance once the top-up was not paid, and says so beside the top-up offer', async () => {
    const { actor, reads } = start(['CANCELED'], [0]);
    await waitFor(actor, (s) => s.matches('insufficientFunds'));
    expect(reads).toEqual([CHARGE_ID]);
    const view = connectBuyListing(actor.getSnapshot(), () => {});
    expect(view.topupNote).toBe('The top-up was not paid.');
    expect(view.topupButton).toMatchObject({ label: 'Add $25 with crypto', enabled: true });
  });

  it('stops awaiting after 50 reads and reads the balance: the payment is still being confirmed', async () => {
    const { actor, reads, balanceReads, clock } = start(['PENDING'], [0]);
    for (let n = 1; n < topupTimings.maxPolls; n++) {
      await waitFor(actor, (s) => s.matches({ awaitingTopup: 'waiting' }) && s.context.topupReads === n);
      clock.increment(topupTimings.pollMs);
    }
    await waitFor(actor, (s) => s.matches('insufficientFunds'));
    expect(reads).toHaveLength(50);
    expect(balanceReads).toEqual([0]);
    expect(connectBuyListing(actor.getSnapshot(), () => {}).topupNote).toMatch(/still being confirmed/);
  });
});

describe('a purchase whose record failed', () => {
  it('ends paid when the buyer closes: the money moved, the page follows the purchase from the signature', async () => {
    const signed = Date.now();
    const actor = createActor(
      buyListingMachine.provide({
        actors: {
          fusdBalance: fromPromise(async () => 3000),
          buyListing: fromPromise(async () => ({ transactionId: 'ab'.repeat(32) })),
          recordPurchase: fromPromise(async (): Promise<PurchaseRecord> => {
            throw { status: 0, body: { code: 'NETWORK_FAILURE', message: '' } };
          }),
        },
      }),
      {
        input: {
          listing: { id: 'l1', blockchainListingId: '99', price: 2500, seller: '0x179b6b1cb6755e31' },
          nft: { flowBlueprintId: '7', seriesNumber: 3 },
          walletAddress: '0x01cf0e2f2f715450',
          returnTo: '/nft/4711?listing=l1',
        },
      },
    ).start();
    const view = () => connectBuyListing(actor.getSnapshot(), (event) => actor.send(event));
    await waitFor(actor, (s) => s.matches('confirming'));
    view().getTermsProps().onChange(true);
    view().getPayButtonProps().onClick!();
    await waitFor(actor, (s) => s.matches('recordFailed'));
    expect(view().note).toMatch(/in your wallet/);
    view().getCloseButtonProps().onClick!();
    const output = actor.getSnapshot().output!;
    expect(output.type).toBe('paid');
    const { search, params } = (output as Extract<typeof output, { type: 'paid' }>).target;
    expect(params).toEqual({ id: 'l1' });
    expect(search).toMatchObject({ e: 'nftSaleListing', type: 'saleListing', serial: 3 });
    // Looked for from (the clock skew before) the moment the wallet was asked to sign.
    expect(search.t).toBeGreaterThanOrEqual(signed - PURCHASE_CLOCK_SKEW_MS);
    expect(search.t).toBeLessThanOrEqual(Date.now() - PURCHASE_CLOCK_SKEW_MS);
    expect(view().panel).toBe('done');
  });
});
