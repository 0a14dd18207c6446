import { fromPromise } from 'xstate';
import { FAVORITES_PAGE_MAX } from '#domain/schemas/favorites';
import { once } from '../lazy';
import type { FlowDeps } from './deps';
import type { SharedFlowParts } from './shared';

/** The flows on an NFT's page and a storefront: list, remove, buy, transfer, report. */
export function nftFlows(deps: FlowDeps, shared: SharedFlowParts) {
  const { flow, nfts, catalog, api, session, ui } = deps;
  // The signed-in user's favorite ids, read once per user and kept as hearts save.
  let ids: { userId: string; ids: Promise<Set<string>> } | null = null;
  const favoriteIds = (): Promise<Set<string>> => {
    const userId = session.getSnapshot().context.user?.id;
    if (!userId) return Promise.resolve(new Set());
    if (ids?.userId !== userId) {
      const read = api.get('/users/me/favorites/ids').then((r) => new Set(r.results));
      ids = { userId, ids: read };
      read.catch(() => {
        if (ids?.ids === read) ids = null;
      });
    }
    return ids.ids;
  };
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
    favoriteIds,
    /** One page of the user's saved items (FAVORITES_PAGE_MAX a page), newest first. */
    favoritesPage: (page: number) => {
      const from = (page - 1) * FAVORITES_PAGE_MAX + 1;
      return api.get('/users/me/favorites', {
        query: { from: String(from), to: String(from + FAVORITES_PAGE_MAX - 1) },
      });
    },
    /** The activity feed (GET activity, a page at a time) with the tab's filters. */
    activityFeed: once(async () =>
      (await import('../../machines/activityFeed')).activityFeedMachine.provide({
        actors: {
          fetchPage: fromPromise(({ input: { kinds, from, to, ...ids } }) =>
            api.get('/activity', {
              query: { ...ids, kinds: kinds?.length ? kinds.join(',') : undefined, from, to },
            }),
          ),
        },
      }),
    ),
    favorite: once(async () =>
      (await import('../../machines/favorite')).favoriteMachine.provide({
        actors: {
          saveFavorite: fromPromise(({ input }) =>
            input.favorited
              ? api.put('/users/me/favorites/{blueprintId}', { params: { blueprintId: input.blueprintId } })
              : api.delete('/users/me/favorites/{blueprintId}', {
                  params: { blueprintId: input.blueprintId },
                }),
          ),
        },
        actions: {
          promptSignIn: () => ui.send({ type: 'ui.signup.show' }),
          announceSaved: (_, { blueprintId, favorited }) =>
            void favoriteIds().then((set) => (favorited ? set.add(blueprintId) : set.delete(blueprintId))),
        },
      }),
    ),
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
