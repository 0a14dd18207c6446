import { listForSaleMachine } from '../machines/listForSale';
import type { MachineModel } from './harness';

const input = (kycApproved: boolean) => ({
  nft: { id: '42', flowBlueprintId: '7', seriesNumber: 3 },
  walletAddress: '0x01cf0e2f2f715450',
  kycApproved,
  royaltyPercent: 10,
  platformFeePercent: 5,
});

export const listForSaleModel: MachineModel<typeof listForSaleMachine> = {
  machine: listForSaleMachine,
  fakes: ['createListing', 'recordListing'],
  scenarios: [
    { name: 'a verified owner', input: input(true) },
    { name: 'an owner without KYC', input: input(false) },
  ],
  events: () => [
    { type: 'listing.price.change', value: '12.50' },
    { type: 'listing.price.change', value: '0' },
    { type: 'listing.submit' },
    { type: 'listing.retry' },
    { type: 'listing.close' },
    { type: 'xstate.done.actor.createListing', output: { blockchainListingId: '99' } },
    { type: 'xstate.error.actor.createListing', error: { code: 'WALLET_CANCELED' } },
    // Sent, not sealed in time: the next submit waits for the same listing, at the price sent.
    { type: 'xstate.error.actor.createListing', error: { code: 'SEAL_TIMEOUT' } },
    { type: 'xstate.done.actor.recordListing', output: {} },
    { type: 'xstate.error.actor.recordListing', error: { code: 'NETWORK_FAILURE' } },
  ],
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.price, s.context.error?.code ?? null, s.context.error?.field ?? null]),
};
