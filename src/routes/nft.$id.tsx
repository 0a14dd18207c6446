import { createFileRoute } from '@tanstack/react-router';
import { itemHead, nftHead } from '#domain/pageHead';
import { parseItemPageSearch } from '#domain/routes';
import { ItemPageView, NftPageView, NftRoute } from '../views/nft/NftRoute';
import { NotFoundPage } from '../views/pages/NotFoundPage';
import { nftMachines, orNotFound, orNull, signedInUser } from './-guards';
import { headTags } from './-head';

/**
 * An NFT by its chain token id (digits), or the item detail of a blueprint or pack (uuid). /nft/{id}
 * itself shows the details tab (its canonical URL, which links and previews share); /details and
 * /history name a tab.
 */
export const Route = createFileRoute('/nft/$id')({
  // Back from a top-up opened in a purchase dialog: the dialog to open again (useReturnedPurchase).
  validateSearch: parseItemPageSearch,
  loader: async ({ context, params }) => {
    const { app } = context;
    if (/^\d{1,20}$/.test(params.id)) {
      const [nft, history, machines] = await Promise.all([
        app.nfts.get(params.id).catch(orNotFound),
        app.nfts.history(params.id).catch(orNotFound),
        nftMachines(app),
        NftPageView.preload(),
      ]);
      return { kind: 'nft' as const, nft, history: history.results, machines };
    }
    const [blueprint] = await Promise.all([
      app.catalog.blueprint(params.id).catch(orNull),
      ItemPageView.preload(),
    ]);
    if (!blueprint)
      return {
        kind: 'item' as const,
        item: await app.catalog.pack(params.id).catch(orNotFound),
        history: [],
        listings: [],
        claim: null,
      };
    const [history, listings, claim] = await Promise.all([
      app.catalog.history(blueprint.id),
      app.nfts.forSale(blueprint.flowBlueprintId),
      // A free item (price 0, not in a pack) the signed-in user claimed already is theirs: the page
      // says so instead of offering the claim again.
      blueprint.price === 0 && !blueprint.blueprintPackId
        ? signedInUser(app.session).then((user) => (user ? app.nfts.claimOf(blueprint.id) : null))
        : null,
    ]);
    return { kind: 'item' as const, item: blueprint, history: history.results, listings, claim };
  },
  // Not found (no data), the shell's head stands.
  head: ({ match, loaderData }) =>
    !loaderData
      ? {}
      : headTags(
          match.context.origin,
          loaderData.kind === 'nft'
            ? nftHead(loaderData.nft)
            : itemHead(loaderData.item, match.context.origin),
        ),
  component: NftRoute,
  notFoundComponent: NotFoundPage,
});
