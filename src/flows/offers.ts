import { fromPromise } from 'xstate';
import { once } from '../lazy';
import { signedInUser } from '../routes/-guards';
import type { FlowDeps } from './deps';
import type { SharedFlowParts } from './shared';

/** Which offers to read: an NFT's, those made to an owner, or those a buyer made. */
interface OfferQuery {
  nftId?: string;
  ownerId?: string;
  buyerId?: string;
}

/**
 * The offer flows (make, accept, cancel) with their chain transactions and the record call, and
 * the offers' read (GET offers, newest first, the first page of 50).
 */
export function offerFlows(deps: FlowDeps, shared: SharedFlowParts) {
  const { flow, api, session } = deps;
  const { toast } = shared;
  /** POST offers/actions/record: the server reads the sealed transaction and records what it says. */
  const record = (input: { transactionId: string }) => api.post('/offers/actions/record', { json: input });
  const offers = (query: OfferQuery) =>
    api.get('/offers', { query: { nftId: query.nftId, ownerId: query.ownerId, buyerId: query.buyerId } });
  return {
    offers,
    /** The signed-in user's offers: received on their NFTs and made by them (none for a visitor). */
    myOffers: async () => {
      const user = await signedInUser(session);
      if (!user) return { received: [], made: [] };
      const [received, made] = await Promise.all([
        offers({ ownerId: user.id }),
        offers({ buyerId: user.id }),
      ]);
      return { received: received.results, made: made.results };
    },
    makeOffer: once(async () =>
      (await import('../../machines/makeOffer')).makeOfferMachine.provide({
        actors: {
          readBalance: fromPromise(({ input }) => flow.fusdBalance(input.address)),
          makeOffer: fromPromise(({ input }) => flow.makeOffer(input)),
          recordOffer: fromPromise(({ input }) => record(input)),
        },
        actions: { announceMade: () => toast('offer-made', 'Offer made') },
      }),
    ),
    acceptOffer: once(async () =>
      (await import('../../machines/acceptOffer')).acceptOfferMachine.provide({
        actors: {
          acceptOffer: fromPromise(({ input }) => flow.acceptOffer(input)),
          recordOffer: fromPromise(({ input }) => record(input)),
        },
        actions: { announceAccepted: () => toast('offer-accepted', 'Offer accepted: sold') },
      }),
    ),
    cancelOffer: once(async () =>
      (await import('../../machines/cancelOffer')).cancelOfferMachine.provide({
        actors: {
          cancelOffer: fromPromise(({ input }) => flow.cancelOffer(input)),
          recordOffer: fromPromise(({ input }) => record(input)),
        },
        actions: { announceCanceled: () => toast('offer-canceled', 'Offer canceled') },
      }),
    ),
  };
}
