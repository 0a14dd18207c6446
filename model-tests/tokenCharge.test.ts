import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  type CreateTokenChargeRequest,
  connectTokenCharge,
  formatNfm,
  type TokenCheckpoint,
  tokenChargeMachine,
} from '../machines/tokenCharge';
import type { TokenChargeJson } from '../src/domain/schemas/token';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import {
  ADDRESS,
  CHAIN_ID,
  ESTIMATE,
  PENDING_ERROR,
  REJECTED,
  SCENARIOS,
  TX_HASH,
  tokenCharge,
  tokenChargeModel,
} from './tokenCharge.model';

describe('tokenCharge machine paths', () => {
  const paths = generatePaths(tokenChargeModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(20));
  for (const path of paths) it(path.description, () => runPath(tokenChargeModel, path));
  afterAll(() => flushCoverage('machine'));
});

/** A live actor with scripted wallet and API answers. */
function start(
  input = SCENARIOS.wallet,
  script: {
    chainId?: number;
    sign?: () => Promise<TokenChargeJson>;
    send?: () => Promise<{ hash: string }>;
    report?: (n: number) => Promise<TokenChargeJson>;
  } = {},
) {
  const calls = { creates: [] as CreateTokenChargeRequest[], sends: 0, reports: 0, switches: 0 };
  const checkpoints: (TokenCheckpoint | null)[] = [];
  let chainId = script.chainId ?? CHAIN_ID;
  const actor = createActor(
    tokenChargeMachine.provide({
      actors: {
        estimate: fromPromise(async () => ESTIMATE),
        connectWallet: fromPromise(async () => ({ address: ADDRESS, chainId })),
        switchNetwork: fromPromise(async ({ input }) => {
          calls.switches++;
          chainId = input.chainId;
          return { address: ADDRESS, chainId };
        }),
        createCharge: fromPromise(async ({ input }) => {
          calls.creates.push(input);
          return tokenCharge('created');
        }),
        loadCharge: fromPromise(async () => tokenCharge('signed')),
        signCharge: fromPromise(script.sign ?? (async () => tokenCharge('signed'))),
        sendTransfer: fromPromise(async () => {
          calls.sends++;
          return (script.send ?? (async () => ({ hash: TX_HASH })))();
        }),
        reportTransfer: fromPromise(async () => {
          calls.reports++;
          return (script.report ?? (async () => tokenCharge('completed', 'authorized')))(calls.reports);
        }),
        cancelCharge: fromPromise(async () => tokenCharge('canceled', 'canceled')),
      },
      delays: { pollInterval: 5, receivedPause: 5 },
      actions: {
        saveCheckpoint: (_, checkpoint) => checkpoints.push(checkpoint),
        clearCheckpoint: () => checkpoints.push(null),
      },
    }),
    { input },
  ).start();
  const send = actor.send.bind(actor);
  const view = () => connectTokenCharge(actor.getSnapshot(), send);
  return { actor, view, calls, checkpoints };
}

describe('paying in NFM', () => {
  it('shows the estimate, then creates, signs, transfers once and ends paid: pending, then received', async () => {
    const { actor, view, calls, checkpoints } = start(SCENARIOS.wallet, {
      report: async (n) => {
        if (n === 1) throw PENDING_ERROR;
        return tokenCharge('completed', 'authorized');
      },
    });
    await waitFor(actor, (s) => s.matches('review'));
    expect(view()).toMatchObject({
      panel: 'review',
      estimate: '≈ 250.00 NFM',
      payLabel: 'Pay $25 in NFM',
      canPay: false,
    });
    view().acknowledge(true);
    view().pay();
    await waitFor(actor, (s) => s.matches('received'));
    expect(view()).toMatchObject({ panel: 'paying', status: 'received payment', busy: false });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.creates).toEqual([
      { item: SCENARIOS.wallet.item, price: 2500, ethAddress: ADDRESS, idempotencyKey: expect.any(String) },
    ]);
    expect(calls.sends).toBe(1);
    expect(calls.reports).toBe(2);
    expect(checkpoints).toEqual([
      { chargeId: tokenCharge('created').id },
      { chargeId: tokenCharge('created').id, transactionHash: TX_HASH },
      null,
    ]);
    expect(actor.getSnapshot().output).toMatchObject({ kind: 'paid' });
    expect(view().status).toBe('received payment');
  });

  it('asks a wallet on another network to switch, then goes on', async () => {
    const { actor, view, calls } = start(SCENARIOS.wallet, { chainId: 1 });
    await waitFor(actor, (s) => s.matches('review'));
    view().acknowledge(true);
    view().pay();
    await waitFor(actor, (s) => s.matches('wrongNetwork'));
    expect(view()).toMatchObject({
      panel: 'network',
      canSwitch: true,
      error: 'Your wallet is on another network. Switch to the test network to pay.',
    });
    view().switchNetwork();
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.switches).toBe(1);
  });

  it('a refusal in the wallet comes back with its message; after the transfer, no cancel', async () => {
    const { actor, view, calls } = start(SCENARIOS.wallet, {
      send: async () => {
        throw REJECTED;
      },
    });
    await waitFor(actor, (s) => s.matches('review'));
    view().acknowledge(true);
    view().pay();
    await waitFor(actor, (s) => s.matches('awaitingTransfer'));
    expect(view()).toMatchObject({
      error: 'You rejected the request in your wallet. Nothing was paid.',
      canRetry: true,
      canCancel: true,
      nonCancelable: null,
    });
    view().cancel();
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ kind: 'back' });
    expect(calls.sends).toBe(1);

    const sent = start(SCENARIOS.restoreSent, { report: async () => tokenCharge('signed') });
    await waitFor(sent.actor, (s) => s.matches('waiting'));
    expect(sent.view()).toMatchObject({
      canCancel: false,
      status: 'pending payment',
      nonCancelable: 'The NFM transfer was sent: this payment can no longer be canceled.',
    });
    expect(sent.calls.sends).toBe(0);
  });

  it('says MetaMask required without a browser wallet', () => {
    const { view } = start(SCENARIOS.noWallet);
    expect(view()).toMatchObject({
      panel: 'noWallet',
      error: 'MetaMask required. Install a browser wallet to pay with NFM.',
      canPay: false,
      canBack: true,
    });
  });

  it('formats NFM with 2 decimals', () => {
    expect(formatNfm('250000000000000000000')).toBe('250.00 NFM');
    expect(formatNfm('1234567890000000000000')).toBe('1,234.57 NFM');
    expect(formatNfm('4999999999999999')).toBe('0.00 NFM');
  });
});
