import { fromPromise } from 'xstate';
import { once } from '../lazy';
import type { FlowDeps } from './deps';
import type { SharedFlowParts } from './shared';

/** The flows on an NFT's page and a storefront: list, remove, buy, transfer, report. */
export function nftFlows(deps: FlowDeps, shared: SharedFlowParts) {
  const { flow, nfts, catalog } = deps;
  const { toast, buyListingFlow } = shared;
  return {
    listForSale: once(async () =>
      (await import('../../machines/listForSale')).listForSaleMachine.provide({
        actors: {
          createListing: fromPromise(({ input }) => flow.createListing(input)),
          recordListing: fromPromise(({ input }) => nfts.recordListing(input)),
        },
        actions: { announceListed: () => toast('nft-listed', 'Listed for sale') },
      }),
    ),
    removeListing: once(async () =>
      (await import('../../machines/removeListing')).removeListingMachine.provide({
        actors: {
          removeListing: fromPromise(({ input }) => flow.removeListing(input)),
          cancelListing: fromPromise(({ input }) => nfts.cancelListing(input)),
        },
        actions: { announceRemoved: () => toast('nft-unlisted', 'Removed from the marketplace') },
      }),
    ),
    buyListing: buyListingFlow,
    transferNfts: once(async () =>
      (await import('../../machines/transferNfts')).transferNftsMachine.provide({
        actors: { transferNfts: fromPromise(({ input }) => flow.transferNfts(input)) },
        actions: { announceTransferred: () => toast('nft-transferred', 'Transfer sent') },
      }),
    ),
    storefrontReport: once(async () =>
      (await import('../../machines/storefrontReport')).storefrontReportMachine.provide({
        actors: { submitReport: fromPromise(({ input }) => catalog.report(input)) },
        actions: { announceReported: () => toast('storefront-reported', 'Report sent') },
      }),
    ),
  };
}
