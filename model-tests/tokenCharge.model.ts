import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { OrderStatus } from '#domain/schemas/checkout';
import type { TokenChargeJson, TokenChargeStatus } from '#domain/schemas/token';
import {
  type TokenChargeContext,
  type TokenChargeEvent,
  type TokenChargeInput,
  tokenChargeMachine,
} from '../machines/tokenCharge';
import type { MachineModel } from './harness';

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
