import { type BuyListingContext, buyListingMachine } from '../machines/buyListing';
import { CHARGE_ID, topupCharge } from './cryptoTopup.model';
import type { MachineModel } from './harness';

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
};
