import type { AnyMachineSnapshot } from 'xstate';
import {
  type TokenChargeContext,
  type TokenChargeEvent,
  type TokenChargeInput,
  tokenChargeMachine,
} from '../machines/tokenCharge';
import type { OrderStatus } from '../src/domain/schemas/checkout';
import type { TokenChargeJson, TokenChargeStatus } from '../src/domain/schemas/token';
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

export function tokenCharge(
  status: TokenChargeStatus,
  orderStatus: OrderStatus | null = 'created',
): TokenChargeJson {
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
    transactions: [],
    blueprintId: ITEM.id,
    blueprintPackId: null,
    createdAt: '2026-11-26T10:00:00.000Z',
    order: orderStatus
      ? {
          id: '4d3c2b1a-0f9e-4d8c-9b7a-6f5e4d3c2b1a',
          method: 'token',
          item: ITEM,
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
export const ACTIVE_ERROR = error(409, 'ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS');
/** What the wallet service throws: the buyer refused in the wallet. */
export const REJECTED = { code: 'rejected', message: '' };
export const NOT_CANCELLABLE = error(400, 'CHARGE_NOT_CANCELLABLE');

export const SCENARIOS: Record<'wallet' | 'noWallet' | 'restoreSigned' | 'restoreSent', TokenChargeInput> = {
  wallet: { item: ITEM, price: PRICE, walletAvailable: true, chainId: CHAIN_ID },
  noWallet: { item: ITEM, price: PRICE, walletAvailable: false, chainId: CHAIN_ID },
  restoreSigned: {
    item: ITEM,
    price: PRICE,
    walletAvailable: true,
    chainId: CHAIN_ID,
    restore: { chargeId: CHARGE_ID },
  },
  restoreSent: {
    item: ITEM,
    price: PRICE,
    walletAvailable: true,
    chainId: CHAIN_ID,
    restore: { chargeId: CHARGE_ID, transactionHash: TX_HASH },
  },
};

function userEvents(c: TokenChargeContext): TokenChargeEvent[] {
  return [
    { type: 'token.acknowledge', value: !c.acknowledged },
    { type: 'token.submit' },
    { type: 'token.switch' },
    { type: 'token.retry' },
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
    c.account?.chainId ?? null,
    c.key ? 'key' : null,
    c.charge?.status ?? null,
    c.transactionHash ? 'sent' : null,
    c.polls,
    c.error?.code ?? null,
  ]);
}

export const tokenChargeModel: MachineModel<typeof tokenChargeMachine> = {
  machine: tokenChargeMachine,
  fakes: [
    'estimate',
    'connectWallet',
    'switchNetwork',
    'createCharge',
    'loadCharge',
    'signCharge',
    'sendTransfer',
    'reportTransfer',
    'cancelCharge',
  ],
  provide: { guards: { pollsDone: ({ context }) => context.polls >= MODEL_MAX_POLLS } },
  scenarios: [
    { name: 'a buyer with a browser wallet', input: SCENARIOS.wallet },
    { name: 'a buyer without a browser wallet', input: SCENARIOS.noWallet },
    { name: 'back after a reload, the charge signed', input: SCENARIOS.restoreSigned },
    { name: 'back after a reload, the transfer sent', input: SCENARIOS.restoreSent },
  ],
  events: (s) => [
    ...userEvents(s.context as TokenChargeContext),
    { type: 'xstate.done.actor.estimate', output: ESTIMATE },
    { type: 'xstate.error.actor.estimate', error: NETWORK_ERROR },
    { type: 'xstate.done.actor.connectWallet', output: { address: ADDRESS, chainId: CHAIN_ID } },
    { type: 'xstate.done.actor.connectWallet', output: { address: ADDRESS, chainId: 1 } },
    { type: 'xstate.error.actor.connectWallet', error: REJECTED },
    { type: 'xstate.done.actor.switchNetwork', output: { address: ADDRESS, chainId: CHAIN_ID } },
    { type: 'xstate.done.actor.switchNetwork', output: { address: ADDRESS, chainId: 1 } },
    { type: 'xstate.error.actor.switchNetwork', error: REJECTED },
    { type: 'xstate.done.actor.createCharge', output: tokenCharge('created') },
    { type: 'xstate.done.actor.createCharge', output: tokenCharge('lowFunds', null) },
    { type: 'xstate.error.actor.createCharge', error: NETWORK_ERROR },
    { type: 'xstate.error.actor.createCharge', error: ACTIVE_ERROR },
    { type: 'xstate.done.actor.loadCharge', output: tokenCharge('created') },
    { type: 'xstate.done.actor.loadCharge', output: tokenCharge('signed') },
    { type: 'xstate.done.actor.loadCharge', output: tokenCharge('completed', 'authorized') },
    { type: 'xstate.done.actor.loadCharge', output: tokenCharge('canceled', 'canceled') },
    { type: 'xstate.error.actor.loadCharge', error: NETWORK_ERROR },
    { type: 'xstate.done.actor.signCharge', output: tokenCharge('signed') },
    { type: 'xstate.error.actor.signCharge', error: REJECTED },
    { type: 'xstate.done.actor.sendTransfer', output: { hash: TX_HASH } },
    { type: 'xstate.error.actor.sendTransfer', error: REJECTED },
    { type: 'xstate.done.actor.reportTransfer', output: tokenCharge('completed', 'authorized') },
    { type: 'xstate.done.actor.reportTransfer', output: tokenCharge('signed') },
    { type: 'xstate.error.actor.reportTransfer', error: PENDING_ERROR },
    { type: 'xstate.error.actor.reportTransfer', error: NETWORK_ERROR },
    { type: 'xstate.error.actor.reportTransfer', error: LOW_FUNDS_ERROR },
    { type: 'xstate.done.actor.cancelCharge', output: tokenCharge('canceled', 'canceled') },
    { type: 'xstate.error.actor.cancelCharge', error: NOT_CANCELLABLE },
    { type: 'xstate.after.pollInterval.tokenCharge.waiting' },
    { type: 'xstate.after.receivedPause.tokenCharge.received' },
  ],
  serializeState: serializeTokenCharge,
};
