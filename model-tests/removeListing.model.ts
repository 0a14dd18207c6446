import { removeListingMachine } from '../machines/removeListing';
import type { MachineModel } from './harness';

export const removeListingModel: MachineModel<typeof removeListingMachine> = {
  machine: removeListingMachine,
  fakes: ['removeListing', 'cancelListing'],
  scenarios: [
    { name: 'a listed NFT', input: { blockchainListingId: '99', walletAddress: '0x01cf0e2f2f715450' } },
  ],
  events: () => [
    { type: 'listing.remove.confirm' },
    { type: 'listing.retry' },
    { type: 'listing.close' },
    { type: 'xstate.done.actor.removeListing', output: {} },
    { type: 'xstate.error.actor.removeListing', error: { code: 'TRANSACTION' } },
    { type: 'xstate.error.actor.removeListing', error: { code: 'WALLET_CANCELED' } },
    { type: 'xstate.done.actor.cancelListing', output: {} },
    { type: 'xstate.error.actor.cancelListing', error: { code: 'NETWORK_FAILURE' } },
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.error?.code ?? null]),
};
