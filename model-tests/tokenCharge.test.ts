import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { TokenChargeJson } from '#domain/schemas/token';
import {
  type CreateTokenChargeRequest,
  formatNfm,
  type TokenCheckpoint,
  type TransferCheck,
  tokenChargeMachine,
} from '../machines/tokenCharge';
import { connectTokenCharge } from '../machines/tokenChargeView';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import {
  ACTIVE_ERROR,
  ADDRESS,
  BLOCKER_ID,
  CHAIN_ID,
  CHARGE_ID,
  ESTIMATE,
  ITEM,
  NETWORK_ERROR,
  NOT_CANCELLABLE,
  OTHER_ADDRESS,
  OTHER_ITEM,
  PENDING_ERROR,
  REJECTED,
  SCENARIOS,
  TX_HASH,
  tokenCharge,
  tokenChargeModel,
  tokenChargeRestoreModel,
  WITH_TRANSFER,
} from './tokenCharge.model';

describe('tokenCharge machine paths', () => {
  for (const model of [tokenChargeModel, tokenChargeRestoreModel]) {
    const paths = generatePaths(model);
    it('generates paths', () => expect(paths.length).toBeGreaterThan(20));
    for (const path of paths) it(path.description, () => runPath(model, path));
  }
  afterAll(() => flushCoverage('machine'));
});

/** A live actor with scripted wallet and API answers. */
function start(
  input = SCENARIOS.wallet,
  script: {
    chainId?: number;
    address?: string;
    sign?: () => Promise<TokenChargeJson>;
    send?: () => Promise<{ hash: string }>;
    report?: (n: number) => Promise<TokenChargeJson>;
    /** What the chain shows of the transfer, the n-th time it is looked at. */
    find?: (n: number) => Promise<TransferCheck>;
    load?: (id: string) => Promise<TokenChargeJson>;
    create?: () => Promise<TokenChargeJson>;
    cancel?: (id: string) => Promise<TokenChargeJson>;
  } = {},
) {
  const calls = {
    creates: [] as CreateTokenChargeRequest[],
    sends: 0,
    reports: 0,
    switches: 0,
    finds: 0,
    loads: [] as string[],
    cancels: [] as string[],
  };
  const checkpoints: (TokenCheckpoint | null)[] = [];
  let chainId = script.chainId ?? CHAIN_ID;
  const actor = createActor(
    tokenChargeMachine.provide({
      actors: {
        estimate: fromPromise(async () => ESTIMATE),
        connectWallet: fromPromise(async () => ({ address: script.address ?? ADDRESS, chainId })),
        switchNetwork: fromPromise(async ({ input }) => {
          calls.switches++;
          chainId = input.chainId;
          return { address: ADDRESS, chainId };
        }),
        createCharge: fromPromise(async ({ input }) => {
          calls.creates.push(input);
          return (script.create ?? (async () => tokenCharge('created')))();
        }),
        loadCharge: fromPromise(async ({ input }) => {
          calls.loads.push(input.id);
          return (script.load ?? (async () => tokenCharge('signed')))(input.id);
        }),
        signCharge: fromPromise(script.sign ?? (async () => tokenCharge('signed'))),
        findTransfer: fromPromise(async () => {
          calls.finds++;
          return (script.find ?? (async () => ({ charge: tokenCharge('signed'), pending: false })))(
            calls.finds,
          );
        }),
        sendTransfer: fromPromise(async () => {
          calls.sends++;
          return (script.send ?? (async () => ({ hash: TX_HASH })))();
        }),
        reportTransfer: fromPromise(async () => {
          calls.reports++;
          return (script.report ?? (async () => tokenCharge('completed', 'authorized')))(calls.reports);
        }),
        cancelCharge: fromPromise(async ({ input }) => {
          calls.cancels.push(input.id);
          return (script.cancel ?? (async () => tokenCharge('canceled', 'canceled')))(input.id);
        }),
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
    expect(view().getPayButtonProps()).toEqual({ type: 'submit', disabled: true, 'data-state': 'disabled' });
    view().getTermsProps().onChange(true);
    expect(view().getTermsProps()['data-state']).toBe('checked');
    expect(view().getPayButtonProps()).toEqual({ type: 'submit', disabled: false, 'data-state': 'idle' });
    view().submit();
    await waitFor(actor, (s) => s.matches('received'));
    expect(view()).toMatchObject({ panel: 'paying', status: 'received payment', busy: false });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.creates).toEqual([
      { item: SCENARIOS.wallet.item, price: 2500, ethAddress: ADDRESS, idempotencyKey: expect.any(String) },
    ]);
    expect(calls.sends).toBe(1);
    expect(calls.reports).toBe(2);
    const item = { kind: ITEM.kind, id: ITEM.id };
    expect(checkpoints).toEqual([
      { chargeId: CHARGE_ID, item },
      { chargeId: CHARGE_ID, item, transactionHash: TX_HASH },
      null,
    ]);
    // Nothing failed: the chain was not asked before the one send.
    expect(calls.finds).toBe(0);
    expect(actor.getSnapshot().output).toMatchObject({ type: 'paid' });
    expect(view().status).toBe('received payment');
  });

  it('asks a wallet on another network to switch, then goes on', async () => {
    const { actor, view, calls } = start(SCENARIOS.wallet, { chainId: 1 });
    await waitFor(actor, (s) => s.matches('review'));
    view().getTermsProps().onChange(true);
    view().submit();
    await waitFor(actor, (s) => s.matches('wrongNetwork'));
    expect(view()).toMatchObject({
      panel: 'network',
      canSwitch: true,
      error: 'Your wallet is on another network. Switch to the test network to pay.',
    });
    expect(view().getSwitchButtonProps()).toEqual({ type: 'submit', disabled: false, 'data-state': 'idle' });
    view().submit();
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
    view().getTermsProps().onChange(true);
    view().submit();
    await waitFor(actor, (s) => s.matches('awaitingTransfer'));
    expect(view()).toMatchObject({
      error: 'You rejected the request in your wallet. Nothing was paid.',
      canRetry: true,
      canCancel: true,
      nonCancelable: null,
    });
    // Retry and cancel are offered only once the chain showed no transfer.
    expect(calls.finds).toBe(1);
    view().getCancelButtonProps().onClick!();
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ type: 'back' });
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

  it('never sends a second transfer: a send lost on the way is found on chain and validated', async () => {
    const { actor, view, calls } = start(SCENARIOS.wallet, {
      // The wallet broadcast the transfer, then the answer was lost.
      send: async () => {
        throw new Error('connection lost');
      },
      find: async () => ({ charge: WITH_TRANSFER, pending: false }),
      report: async () => tokenCharge('completed', 'authorized'),
    });
    await waitFor(actor, (s) => s.matches('review'));
    view().getTermsProps().onChange(true);
    view().submit();
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toMatchObject({ type: 'paid' });
    expect(calls.sends).toBe(1);
    expect(calls.reports).toBe(1);
  });

  it('waits for a transaction of the address still unmined, then validates it; Try again looks again first', async () => {
    const pending = start(SCENARIOS.wallet, {
      send: async () => {
        throw REJECTED;
      },
      find: async (n) =>
        n < 3 ? { charge: tokenCharge('signed'), pending: true } : { charge: WITH_TRANSFER, pending: false },
    });
    await waitFor(pending.actor, (s) => s.matches('review'));
    pending.view().getTermsProps().onChange(true);
    pending.view().submit();
    await waitFor(pending.actor, (s) => s.matches('transferPending'));
    expect(pending.view()).toMatchObject({
      status: 'A transaction from your wallet is waiting to be confirmed…',
      canRetry: false,
      canCancel: false,
    });
    await waitFor(pending.actor, (s) => s.matches('validating') || s.status === 'done');
    expect(pending.calls.finds).toBe(3);
    expect(pending.calls.sends).toBe(1);

    // Nothing on chain after a refusal: Try again checks the wallet and the chain, then sends.
    const retried = start(SCENARIOS.wallet, {
      send: async () => {
        if (retried.calls.sends === 1) throw REJECTED;
        return { hash: TX_HASH };
      },
      find: async (n) =>
        n === 1
          ? { charge: tokenCharge('signed'), pending: false }
          : { charge: WITH_TRANSFER, pending: false },
    });
    await waitFor(retried.actor, (s) => s.matches('review'));
    retried.view().getTermsProps().onChange(true);
    retried.view().submit();
    await waitFor(retried.actor, (s) => s.matches('awaitingTransfer'));
    retried.view().submit();
    // Meanwhile the first transfer reached the chain after all: it is validated, not sent again.
    await waitFor(retried.actor, (s) => s.status === 'done');
    expect(retried.calls.finds).toBe(2);
    expect(retried.calls.sends).toBe(1);
  });

  it('restores only a checkpoint of this item, and a charge of this item', async () => {
    const other = start(SCENARIOS.restoreOtherItem);
    await waitFor(other.actor, (s) => s.matches('review'));
    expect(other.calls.loads).toEqual([]);
    expect(other.checkpoints).toEqual([]);

    // An older checkpoint without its item: the charge read says which item it pays.
    const unnamed = start(
      { ...SCENARIOS.restoreSigned, restore: { chargeId: CHARGE_ID } },
      { load: async () => tokenCharge('signed', 'created', { item: OTHER_ITEM }) },
    );
    await waitFor(unnamed.actor, (s) => s.matches('review'));
    expect(unnamed.calls.loads).toEqual([CHARGE_ID]);
    // The other item's checkout still resumes it.
    expect(unnamed.checkpoints).toEqual([]);
    expect(unnamed.view()).toMatchObject({ panel: 'review', canPay: false });
  });

  it('after a reload, Try again connects the wallet and checks its network and account before sending', async () => {
    const { actor, view, calls } = start(SCENARIOS.restoreSigned, { chainId: 1 });
    await waitFor(actor, (s) => s.matches('awaitingTransfer'));
    expect(calls.finds).toBe(1);
    expect(view()).toMatchObject({ panel: 'paying', canRetry: true, canCancel: true, error: null });
    view().submit();
    await waitFor(actor, (s) => s.matches('wrongNetwork'));
    expect(calls.sends).toBe(0);
    view().submit();
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.switches).toBe(1);
    expect(calls.finds).toBe(2);
    expect(calls.sends).toBe(1);

    const otherAccount = start(SCENARIOS.restoreSigned, { address: OTHER_ADDRESS });
    await waitFor(otherAccount.actor, (s) => s.matches('awaitingTransfer'));
    otherAccount.view().submit();
    await waitFor(otherAccount.actor, (s) => s.matches('awaitingTransfer') && s.context.error !== null);
    expect(otherAccount.view().error).toBe(
      `This payment belongs to the wallet ${ADDRESS.slice(0, 6)}…${ADDRESS.slice(-4)}. Switch to that account in your wallet.`,
    );
    expect(otherAccount.calls.sends).toBe(0);
  });

  it('a cancel that fails leaves the panel where it was; one refused for a transfer on chain validates it', async () => {
    const unsigned = start(SCENARIOS.wallet, {
      sign: async () => {
        throw REJECTED;
      },
      cancel: async () => {
        throw NETWORK_ERROR;
      },
    });
    await waitFor(unsigned.actor, (s) => s.matches('review'));
    unsigned.view().getTermsProps().onChange(true);
    unsigned.view().submit();
    await waitFor(unsigned.actor, (s) => s.matches('awaitingSignature'));
    unsigned.view().getCancelButtonProps().onClick!();
    await waitFor(unsigned.actor, (s) => s.matches('awaitingSignature') && s.context.error !== null);
    expect(unsigned.view()).toMatchObject({ canRetry: true, canCancel: true });

    const onChain = start(SCENARIOS.restoreSigned, {
      cancel: async () => {
        throw NOT_CANCELLABLE;
      },
      find: async (n) =>
        n === 1
          ? { charge: tokenCharge('signed'), pending: false }
          : { charge: WITH_TRANSFER, pending: false },
      report: async () => tokenCharge('completed', 'authorized'),
    });
    await waitFor(onChain.actor, (s) => s.matches('awaitingTransfer'));
    onChain.view().getCancelButtonProps().onClick!();
    await waitFor(onChain.actor, (s) => s.status === 'done');
    expect(onChain.actor.getSnapshot().output).toMatchObject({ type: 'paid' });
    expect(onChain.calls.sends).toBe(0);
  });

  it('a cancel refused for a transfer the server saw goes on to paid, even while a read does not show it yet', async () => {
    const { actor, view, calls } = start(SCENARIOS.restoreSigned, {
      cancel: async () => {
        throw NOT_CANCELLABLE;
      },
      // Before the cancel: nothing on chain; after it, one read still without the transfer.
      find: async (n) =>
        n <= 2
          ? { charge: tokenCharge('signed'), pending: false }
          : { charge: WITH_TRANSFER, pending: false },
      report: async () => tokenCharge('completed', 'authorized'),
    });
    await waitFor(actor, (s) => s.matches('awaitingTransfer'));
    view().getCancelButtonProps().onClick!();
    const errors: (string | null)[] = [];
    const seen = actor.subscribe(() => errors.push(view().error));
    // Not offered Try again (a second send) nor Cancel again: the flow waits, then ends paid.
    await waitFor(actor, (s) => s.status === 'done' || s.matches('awaitingTransfer'));
    seen.unsubscribe();
    expect(actor.getSnapshot().output).toMatchObject({ type: 'paid' });
    expect(calls.cancels).toHaveLength(1);
    expect(calls.sends).toBe(0);
    // The refusal is not shown as an error: the payment goes on.
    expect(errors.filter(Boolean)).toEqual([]);
  });

  it('another payment of the address waits: resume it for this item, or cancel it and pay anew', async () => {
    const blocking = async () => {
      throw ACTIVE_ERROR;
    };
    const resume = start(SCENARIOS.wallet, {
      create: blocking,
      load: async () => tokenCharge('created'),
    });
    await waitFor(resume.actor, (s) => s.matches('review'));
    resume.view().getTermsProps().onChange(true);
    resume.view().submit();
    await waitFor(resume.actor, (s) => s.matches('blocked'));
    expect(resume.calls.loads).toEqual([BLOCKER_ID]);
    expect(resume.view()).toMatchObject({
      panel: 'blocked',
      blocker: 'Your payment of 250.00 NFM for this item is waiting.',
      error: 'You already have a payment in NFM waiting. Finish or cancel it first.',
      canResume: true,
      canCancel: true,
      cancelLabel: 'Cancel that payment',
    });
    resume.view().submit();
    await waitFor(resume.actor, (s) => s.status === 'done');
    expect(resume.actor.getSnapshot().output).toMatchObject({ type: 'paid' });
    expect(resume.checkpoints[0]).toEqual({ chargeId: CHARGE_ID, item: { kind: ITEM.kind, id: ITEM.id } });
    expect(resume.calls.sends).toBe(1);

    let creates = 0;
    const cancel = start(SCENARIOS.wallet, {
      create: async () => {
        if (++creates === 1) throw ACTIVE_ERROR;
        return tokenCharge('created');
      },
      load: async () => tokenCharge('signed', 'created', { item: OTHER_ITEM }),
    });
    await waitFor(cancel.actor, (s) => s.matches('review'));
    cancel.view().getTermsProps().onChange(true);
    cancel.view().submit();
    await waitFor(cancel.actor, (s) => s.matches('blocked'));
    expect(cancel.view()).toMatchObject({
      blocker: 'Your payment of 250.00 NFM for “Harbor Lights” is waiting.',
      canResume: false,
      canCancel: true,
    });
    cancel.view().getCancelButtonProps().onClick!();
    await waitFor(cancel.actor, (s) => s.status === 'done');
    expect(cancel.calls.cancels).toEqual([CHARGE_ID]);
    expect(cancel.calls.creates).toHaveLength(2);
    expect(cancel.calls.creates[0]!.idempotencyKey).not.toBe(cancel.calls.creates[1]!.idempotencyKey);
    expect(cancel.actor.getSnapshot().output).toMatchObject({ type: 'paid' });
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
