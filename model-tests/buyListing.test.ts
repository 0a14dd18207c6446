import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import type { TopupChargeRequest } from '../machines/balancePayment';
import { buyListingMachine } from '../machines/buyListing';
import { buyListingModel, HOSTED_URL } from './buyListing.model';
import { flushCoverage } from './coverage-store';
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
    await waitFor(actor, (s) => s.matches('insufficientFunds'));
    actor.send({ type: 'buy.topup' });
    await waitFor(
      actor,
      (s) => s.matches('insufficientFunds') && s.context.error?.code === 'NETWORK_FAILURE',
    );
    actor.send({ type: 'buy.topup' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(requests.map((r) => r.amount)).toEqual([700, 700]);
    expect(requests[1]!.idempotencyKey).toBe(requests[0]!.idempotencyKey);
    expect(redirects).toEqual([HOSTED_URL]);
    expect(actor.getSnapshot().output).toEqual({ kind: 'redirect', url: HOSTED_URL });
  });

  it('is not offered where the crypto rail does not run', async () => {
    const { actor, requests } = start(false, async () => ({}));
    await waitFor(actor, (s) => s.matches('insufficientFunds'));
    expect(actor.getSnapshot().can({ type: 'buy.topup' })).toBe(false);
    actor.send({ type: 'buy.topup' });
    expect(actor.getSnapshot().value).toBe('insufficientFunds');
    expect(requests).toEqual([]);
  });
});
