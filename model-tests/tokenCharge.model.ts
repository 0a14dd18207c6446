import { expect } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { OrderStatus } from '#domain/schemas/checkout';
import type { TokenChargeJson, TokenChargeStatus } from '#domain/schemas/token';
import { railPaid } from '../machines/railOutcome';
import {
  type TokenChargeContext,
  type TokenChargeEvent,
  type TokenChargeInput,
  tokenChargeMachine,
} from '../machines/tokenCharge';
import { after, expectOutput, expectWorking, inputsOf } from './expect';
import type { Expectations, MachineModel, Observed } from './harness';

/** Reports of the transfer before the panel offers Check again, in the model (the live machine: 50). */
export const MODEL_MAX_POLLS = 2;

export const ITEM = {
  kind: 'blueprint' as const,
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  title: 'Night Market',
};
export const PRICE = 2500;
export const CHAIN_ID = 31337;
export const ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
export const CHARGE_ID = '5e4d3c2b-1a0f-4e9d-8c7b-6a5f4e3d2c1b';
export const TX_HASH = `0x${'ab'.repeat(32)}`;
export const AMOUNT = '250000000000000000000';

export const OTHER_ITEM = {
  kind: 'blueprint' as const,
  id: '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
  title: 'Harbor Lights',
};
export const OTHER_ADDRESS = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

export function tokenCharge(
  status: TokenChargeStatus,
  orderStatus: OrderStatus | null = 'created',
  options: { item?: typeof ITEM; transactions?: TokenChargeJson['transactions'] } = {},
): TokenChargeJson {
  const item = options.item ?? ITEM;
  return {
    id: CHARGE_ID,
    type: 'directPurchase',
    ethAddress: ADDRESS,
    toCurrency: 'FRR',
    status,
    signature: status === 'created' || status === 'lowFunds' ? null : `0x${'12'.repeat(65)}`,
    tokenPrice: PRICE,
    tokenAmount: AMOUNT,
    chainId: CHAIN_ID,
    tokenAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    paymentsAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    transactions: options.transactions ?? [],
    blueprintId: item.id,
    blueprintPackId: null,
    createdAt: '2026-11-26T10:00:00.000Z',
    order: orderStatus
      ? {
          id: '4d3c2b1a-0f9e-4d8c-9b7a-6f5e4d3c2b1a',
          method: 'token',
          item,
          amount: PRICE,
          currency: 'USD',
          status: orderStatus,
          walletAddress: '0x01cf0e2f2f715450',
          editions: [],
          failure: null,
          events: [],
          createdAt: '2026-11-26T10:00:00.000Z',
        }
      : null,
  };
}
export const ESTIMATE = {
  from: 'USD' as const,
  to: 'FRR' as const,
  rate: '10',
  amount: PRICE,
  value: AMOUNT,
};

const error = (status: number, code: string, message = '') => ({ status, body: { code, message } });
export const NETWORK_ERROR = error(0, 'NETWORK_FAILURE');
export const PENDING_ERROR = error(409, 'TRANSACTION_PENDING');
export const LOW_FUNDS_ERROR = error(400, 'low_funds');
export const BLOCKER_ID = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';
export const ACTIVE_ERROR = {
  status: 409,
  body: { code: 'ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS', message: '', chargeId: BLOCKER_ID },
};
export const TOKEN_NETWORK_ERROR = error(502, 'TOKEN_NETWORK');
export const SOLD_OUT_ERROR = error(409, 'SOLD_OUT');
export const NOT_FOUND = error(404, 'not_found');
/** A charge whose transfer the server holds (found on chain, under 95 %). */
export const WITH_TRANSFER = tokenCharge('signed', 'created', {
  transactions: [{ hash: TX_HASH, value: '1000' }],
});
/** What the wallet service throws: the buyer refused in the wallet. */
export const REJECTED = { code: 'rejected', message: '' };
export const NOT_CANCELLABLE = error(400, 'CHARGE_NOT_CANCELLABLE');

export const SCENARIOS: Record<
  'wallet' | 'noWallet' | 'restoreSigned' | 'restoreSent' | 'restoreOtherItem',
  TokenChargeInput
> = {
  wallet: { item: ITEM, price: PRICE, walletAvailable: true, chainId: CHAIN_ID },
  noWallet: { item: ITEM, price: PRICE, walletAvailable: false, chainId: CHAIN_ID },
  restoreSigned: {
    item: ITEM,
    price: PRICE,
    walletAvailable: true,
    chainId: CHAIN_ID,
    restore: { chargeId: CHARGE_ID, item: { kind: ITEM.kind, id: ITEM.id } },
  },
  restoreSent: {
    item: ITEM,
    price: PRICE,
    walletAvailable: true,
    chainId: CHAIN_ID,
    restore: { chargeId: CHARGE_ID, item: { kind: ITEM.kind, id: ITEM.id }, transactionHash: TX_HASH },
  },
  /** The tab's checkpoint is of another item's charge: this checkout starts afresh. */
  restoreOtherItem: {
    item: ITEM,
    price: PRICE,
    walletAvailable: true,
    chainId: CHAIN_ID,
    restore: { chargeId: CHARGE_ID, item: { kind: OTHER_ITEM.kind, id: OTHER_ITEM.id } },
  },
};

function userEvents(c: TokenChargeContext): TokenChargeEvent[] {
  return [
    { type: 'token.acknowledge', value: !c.acknowledged },
    { type: 'token.submit' },
    { type: 'token.switch' },
    { type: 'token.retry' },
    { type: 'token.resume' },
    { type: 'token.cancel' },
    { type: 'token.back' },
  ];
}

export function serializeTokenCharge(s: AnyMachineSnapshot) {
  const c = s.context as TokenChargeContext;
  if (s.status === 'done') return JSON.stringify([s.value, s.output?.kind]);
  return JSON.stringify([
    s.value,
    c.acknowledged,
    c.estimate ? 'estimate' : null,
    c.charge?.status ?? null,
    c.charge?.blueprintId === OTHER_ITEM.id ? 'other item' : null,
    c.charge?.transactions.length ? 'transfer known' : null,
    c.blocker ? [c.blocker.status, c.blocker.blueprintId === OTHER_ITEM.id] : null,
    c.restore ? 'restore' : null,
    c.transactionHash ? 'sent' : null,
    c.transferSeen ? 'transfer seen' : null,
    c.polls,
    c.error?.code ?? null,
  ]);
}

/** The outcomes of the machine's actors and timers the paths take. */
const outcomes: (EventObject & Record<string, unknown>)[] = [
  { type: 'xstate.done.actor.estimate', output: ESTIMATE },
  { type: 'xstate.error.actor.estimate', error: NETWORK_ERROR },
  { type: 'xstate.done.actor.connectWallet', output: { address: ADDRESS, chainId: CHAIN_ID } },
  { type: 'xstate.done.actor.connectWallet', output: { address: ADDRESS, chainId: 1 } },
  { type: 'xstate.done.actor.connectWallet', output: { address: OTHER_ADDRESS, chainId: CHAIN_ID } },
  { type: 'xstate.error.actor.connectWallet', error: REJECTED },
  { type: 'xstate.done.actor.switchNetwork', output: { address: ADDRESS, chainId: CHAIN_ID } },
  { type: 'xstate.done.actor.switchNetwork', output: { address: ADDRESS, chainId: 1 } },
  { type: 'xstate.error.actor.switchNetwork', error: REJECTED },
  { type: 'xstate.done.actor.createCharge', output: tokenCharge('created') },
  { type: 'xstate.done.actor.createCharge', output: tokenCharge('lowFunds', null) },
  { type: 'xstate.error.actor.createCharge', error: NETWORK_ERROR },
  { type: 'xstate.error.actor.createCharge', error: ACTIVE_ERROR },
  { type: 'xstate.error.actor.createCharge', error: SOLD_OUT_ERROR },
  { type: 'xstate.done.actor.loadCharge', output: tokenCharge('created') },
  { type: 'xstate.done.actor.loadCharge', output: tokenCharge('signed') },
  { type: 'xstate.done.actor.loadCharge', output: tokenCharge('completed', 'authorized') },
  { type: 'xstate.done.actor.loadCharge', output: tokenCharge('canceled', 'canceled') },
  { type: 'xstate.done.actor.loadCharge', output: WITH_TRANSFER },
  { type: 'xstate.done.actor.loadCharge', output: tokenCharge('signed', 'created', { item: OTHER_ITEM }) },
  { type: 'xstate.error.actor.loadCharge', error: NETWORK_ERROR },
  { type: 'xstate.error.actor.loadCharge', error: NOT_FOUND },
  { type: 'xstate.done.actor.signCharge', output: tokenCharge('signed') },
  { type: 'xstate.error.actor.signCharge', error: REJECTED },
  { type: 'xstate.done.actor.findTransfer', output: { charge: tokenCharge('signed'), pending: false } },
  { type: 'xstate.done.actor.findTransfer', output: { charge: tokenCharge('signed'), pending: true } },
  { type: 'xstate.done.actor.findTransfer', output: { charge: WITH_TRANSFER, pending: false } },
  {
    type: 'xstate.done.actor.findTransfer',
    output: { charge: tokenCharge('completed', 'authorized'), pending: false },
  },
  {
    type: 'xstate.done.actor.findTransfer',
    output: { charge: tokenCharge('expired', 'expired'), pending: false },
  },
  { type: 'xstate.error.actor.findTransfer', error: TOKEN_NETWORK_ERROR },
  { type: 'xstate.done.actor.sendTransfer', output: { hash: TX_HASH } },
  { type: 'xstate.error.actor.sendTransfer', error: REJECTED },
  { type: 'xstate.done.actor.reportTransfer', output: tokenCharge('completed', 'authorized') },
  { type: 'xstate.done.actor.reportTransfer', output: tokenCharge('signed') },
  { type: 'xstate.error.actor.reportTransfer', error: PENDING_ERROR },
  { type: 'xstate.error.actor.reportTransfer', error: NETWORK_ERROR },
  { type: 'xstate.error.actor.reportTransfer', error: LOW_FUNDS_ERROR },
  { type: 'xstate.done.actor.cancelCharge', output: tokenCharge('canceled', 'canceled') },
  { type: 'xstate.error.actor.cancelCharge', error: NOT_CANCELLABLE },
  { type: 'xstate.error.actor.cancelCharge', error: NETWORK_ERROR },
  { type: 'xstate.after.pollInterval.tokenCharge.waiting' },
  { type: 'xstate.after.pollInterval.tokenCharge.transferPending' },
  { type: 'xstate.after.receivedPause.tokenCharge.received' },
];

type O = Observed<typeof tokenChargeMachine>;
const ctx = (o: O) => o.snapshot.context as TokenChargeContext;
const errorCode = (o: O) => (o.event as { error?: { body?: { code: string } } }).error?.body?.code ?? null;
const outputOf = <T>(o: O) => (o.event as unknown as { output: T }).output;
/** Whether this charge repeats the attempt before it: that one got no answer (a network failure). */
function repeatsAttempt(o: O) {
  const last = o.history
    .slice(0, -1)
    .findLast(
      (e) => e.type === 'xstate.error.actor.createCharge' || e.type === 'xstate.done.actor.createCharge',
    );
  return (last?.error as typeof NETWORK_ERROR | undefined)?.body.code === 'NETWORK_FAILURE';
}

/** What the rules say of the utility-token rail (docs/checkout.md, the machines table, the panel's texts). */
const tokenChargeExpect: Expectations<typeof tokenChargeMachine> = {
  // Without a browser wallet: "MetaMask required", and only Back.
  noWallet: (o) => {
    expect(ctx(o).walletAvailable).toBe(false);
    expect(ctx(o).error?.code).toBe('METAMASK_REQUIRED');
  },
  estimating: (o) => expectWorking(o, 'estimate', { cents: PRICE }),
  review: (o) => {
    const c = ctx(o);
    if (o.event.type === 'token.submit') expect(c.acknowledged).toBe(false);
    if (o.event.type === 'token.acknowledge') expect(c.acknowledged).toBe(o.event.value);
    if (after(o, 'done', 'estimate')) expect(c.estimate).toEqual(ESTIMATE);
    // A refused charge: its message; only no answer keeps the attempt's key.
    if (after(o, 'error', 'createCharge')) {
      expect(c.error?.code).toBe(errorCode(o));
      expect(c.key).toBe(errorCode(o) === 'NETWORK_FAILURE' ? o.before.context.key : null);
    }
    expect(c.transactionHash).toBeNull();
  },
  // The wallet's account and network before anything is created, signed or paid.
  connecting: (o) => {
    expect(['token.submit', 'token.retry']).toContain(o.event.type);
    expectWorking(o, 'connectWallet');
  },
  wrongNetwork: (o) => {
    expect(ctx(o).error).not.toBeNull();
    if (after(o, 'error', 'switchNetwork')) expect(ctx(o).error?.code).toBe('rejected');
    else {
      expect(ctx(o).error?.code).toBe('chainId');
      expect(outputOf<{ chainId: number }>(o).chainId).not.toBe(CHAIN_ID);
    }
  },
  switching: (o) => {
    expect(o.event.type).toBe('token.switch');
    expectWorking(o, 'switchNetwork', { chainId: CHAIN_ID });
  },
  // One charge per attempt, from the connected address on the right network.
  creating: (o) => {
    const c = ctx(o);
    expect(c.account?.chainId).toBe(CHAIN_ID);
    expectWorking(o, 'createCharge', {
      item: ITEM,
      price: PRICE,
      ethAddress: c.account!.address,
      idempotencyKey: c.key,
    });
    const keys = inputsOf(o, 'createCharge').map((i) => (i as { idempotencyKey: string }).idempotencyKey);
    if (repeatsAttempt(o)) expect(keys.at(-1)).toBe(keys.at(-2));
    else expect(keys.slice(0, -1)).not.toContain(keys.at(-1));
  },
  // The address has a charge waiting: it is read, to resume or cancel it.
  findingBlocker: (o) => {
    expect(errorCode(o)).toBe('ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS');
    expectWorking(o, 'loadCharge', { id: BLOCKER_ID });
  },
  blocked: (o) => expect(ctx(o).blocker).not.toBeNull(),
  cancelingBlocker: (o) => {
    expect(o.event.type).toBe('token.cancel');
    expectWorking(o, 'cancelCharge', { id: ctx(o).blocker!.id });
  },
  // Less NFM than the price: nothing is held; Check again creates anew.
  lowFunds: (o) => {
    expect(ctx(o).charge?.status).toBe('lowFunds');
    expect(ctx(o).key).toBeNull();
  },
  signing: (o) => {
    expect(ctx(o).charge?.signature).toBeNull();
    expectWorking(o, 'signCharge', { charge: ctx(o).charge });
  },
  awaitingSignature: (o) => {
    expect(ctx(o).charge?.signature).toBeNull();
    expect(ctx(o).transactionHash).toBeNull();
  },
  // A transfer is never sent twice: only once the chain shows none of the charge and none unmined.
  transferring: (o) => {
    const c = ctx(o);
    expect(c.charge?.signature).not.toBeNull();
    expect(c.transactionHash).toBeNull();
    // A transfer the server saw (it refused the cancel) is never sent again.
    expect(c.transferSeen).toBe(false);
    expectWorking(o, 'sendTransfer', { charge: c.charge });
    expect(o.history.some((e) => e.type === 'xstate.done.actor.sendTransfer')).toBe(false);
    if (!after(o, 'done', 'signCharge')) {
      expect(after(o, 'done', 'findTransfer')).toBe(true);
      const found = outputOf<{ charge: TokenChargeJson; pending: boolean }>(o);
      expect(found.pending).toBe(false);
      expect(found.charge.transactions).toEqual([]);
    }
  },
  // Looked for on chain: a signed charge, or one whose cancel the server refused (its NFM is there).
  // A refused cancel is no failure: the transfer the server saw is followed, no error shown.
  checkingTransfer: (o) => {
    if (after(o, 'error', 'cancelCharge')) {
      expect(errorCode(o)).toBe('CHARGE_NOT_CANCELLABLE');
      expect(ctx(o)).toMatchObject({ transferSeen: true, error: null });
    }
    expectWorking(o, 'findTransfer', { charge: ctx(o).charge });
  },
  // A transaction of the address unmined, or a transfer the server saw (it refused the cancel)
  // that the read does not show yet: waited for.
  transferPending: (o) => {
    expect(after(o, 'done', 'findTransfer')).toBe(true);
    const { pending, charge } = outputOf<{ pending: boolean; charge: TokenChargeJson }>(o);
    if (!pending) {
      expect(ctx(o).transferSeen).toBe(true);
      expect(charge.transactions).toEqual([]);
    }
    expect(ctx(o).polls).toBeLessThan(MODEL_MAX_POLLS);
  },
  // Nothing on chain: Try again (through the wallet's checks) or Cancel; after a refused cancel
  // (a read or the wallet failed), Try again only: Cancel is not offered again.
  awaitingTransfer: (o) => {
    expect(ctx(o).transactionHash).toBeNull();
    if (after(o, 'error', 'findTransfer')) expect(ctx(o).error?.code).toBe('TOKEN_NETWORK');
    if (ctx(o).transferSeen) expect(o.snapshot.can({ type: 'token.cancel' })).toBe(false);
  },
  validating: (o) => {
    expectWorking(o, 'reportTransfer', { id: CHARGE_ID, transactionHash: TX_HASH });
    expect(ctx(o).polls).toBeLessThanOrEqual(MODEL_MAX_POLLS);
  },
  waiting: (o) => {
    expect(after(o, 'done', 'reportTransfer') || after(o, 'error', 'reportTransfer')).toBe(true);
    expect(ctx(o).polls).toBeLessThan(MODEL_MAX_POLLS);
  },
  // Still not seen after every poll: Check again looks again, never sends.
  unconfirmed: (o) => expect(ctx(o).polls).toBe(MODEL_MAX_POLLS),
  // The transfer does not pay the charge, or the charge ended: for good.
  rejected: (o) => {
    expect(ctx(o).error).not.toBeNull();
    if (after(o, 'error', 'reportTransfer')) expect(errorCode(o)).toBe('low_funds');
    else expect(outputOf<{ charge: TokenChargeJson }>(o).charge.status).toBe('expired');
  },
  // Cancel ends the charge until its transfer is sent.
  canceling: (o) => {
    expect(o.event.type).toBe('token.cancel');
    expect(ctx(o).transactionHash).toBeNull();
    expectWorking(o, 'cancelCharge', { id: CHARGE_ID });
  },
  restoring: (o) => {
    expect(ctx(o).restore?.item).toEqual({ kind: ITEM.kind, id: ITEM.id });
    expectWorking(o, 'loadCharge', { id: CHARGE_ID });
  },
  restoreFailed: (o) => expect(ctx(o).error?.code).toBe('NETWORK_FAILURE'),
  // "received payment": the charge completed; the flow ends paid after a pause.
  received: (o) => {
    expect(ctx(o).charge?.status).toBe('completed');
    expect(ctx(o).error).toBeNull();
  },
  paid: (o) => {
    expect(o.event.type).toBe('xstate.after.receivedPause.tokenCharge.received');
    expectOutput(o, railPaid(tokenCharge('completed', 'authorized').order!, 'token'));
  },
  back: (o) => {
    expect(o.event.type === 'token.back' || after(o, 'done', 'cancelCharge')).toBe(true);
    expectOutput(o, { type: 'back' });
  },
};

export const tokenChargeModel: MachineModel<typeof tokenChargeMachine> = {
  machine: tokenChargeMachine,
  fakes: [
    'estimate',
    'connectWallet',
    'switchNetwork',
    'createCharge',
    'loadCharge',
    'signCharge',
    'findTransfer',
    'sendTransfer',
    'reportTransfer',
    'cancelCharge',
  ],
  provide: { guards: { pollsDone: ({ context }) => context.polls >= MODEL_MAX_POLLS } },
  scenarios: [
    { name: 'a buyer with a browser wallet', input: SCENARIOS.wallet },
    { name: 'a buyer without a browser wallet', input: SCENARIOS.noWallet },
  ],
  events: (s) => [...userEvents(s.context as TokenChargeContext), ...outcomes],
  serializeState: serializeTokenCharge,
  expect: tokenChargeExpect,
};

/**
 * Back after a reload: the checkpoint's charge is read and the flow resumes where it stood. A
 * checkpoint that is not resumed leads to the review, whose paths the model above explores (Pay is
 * not pressed here).
 */
export const tokenChargeRestoreModel: MachineModel<typeof tokenChargeMachine> = {
  ...tokenChargeModel,
  scenarios: [
    { name: 'back after a reload, the charge signed', input: SCENARIOS.restoreSigned },
    { name: 'back after a reload, the transfer sent', input: SCENARIOS.restoreSent },
    { name: 'back after a reload, on another item', input: SCENARIOS.restoreOtherItem },
  ],
  events: (s) => [
    ...userEvents(s.context as TokenChargeContext).filter(
      (e) => e.type !== 'token.submit' && e.type !== 'token.acknowledge',
    ),
    ...outcomes,
  ],
};
