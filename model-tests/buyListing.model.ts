import { buyListingMachine } from '../machines/buyListing';
import type { MachineModel } from './harness';

export const HOSTED_URL = 'http://127.0.0.1:8791/charges/XA6G6ZFR';
const LISTING_INPUT = {
  listing: { id: 'l1', blockchainListingId: '99', price: 2500, seller: '0x179b6b1cb6755e31' },
  nft: { flowBlueprintId: '7', seriesNumber: 3 },
  walletAddress: '0x01cf0e2f2f715450',
};
const topup = (hostedUrl: string | null) => ({ id: 'c1', type: 'topup', status: 'NEW', hostedUrl });

export const buyListingModel: MachineModel<typeof buyListingMachine> = {
  machine: buyListingMachine,
  fakes: ['fusdBalance', 'buyListing', 'recordPurchase', 'createTopup'],
  scenarios: [
    { name: 'a $25 listing', input: LISTING_INPUT },
    { name: 'a $25 listing, the crypto rail running', input: { ...LISTING_INPUT, canTopUp: true } },
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
    { type: 'xstate.done.actor.buyListing', output: { transactionId: 'ab'.repeat(32) } },
    { type: 'xstate.error.actor.buyListing', error: { code: 'WALLET_CANCELED' } },
    {
      type: 'xstate.done.actor.recordPurchase',
      output: { id: 'p1', transactionId: 'ab'.repeat(32), purchasedOn: '2026-11-22T10:00:00.000Z' },
    },
    { type: 'xstate.error.actor.recordPurchase', error: { code: 'NETWORK_FAILURE' } },
    { type: 'buy.topup' },
    { type: 'xstate.done.actor.createTopup', output: topup(HOSTED_URL) },
    { type: 'xstate.done.actor.createTopup', output: topup(null) },
    { type: 'xstate.error.actor.createTopup', error: { status: 0, body: { code: 'NETWORK_FAILURE' } } },
    { type: 'xstate.error.actor.createTopup', error: { status: 400, body: { code: 'CHARGE_PENDING' } } },
  ],
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.balance,
      s.context.acknowledged,
      s.context.error?.code ?? null,
      s.context.key ? 'key' : null,
    ]),
};
