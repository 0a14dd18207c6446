import { Link } from '@tanstack/react-router';

/** Dashboard help: how selling on Vitrine works, step by step. */
export function HelpPanel() {
  return (
    <section aria-labelledby="help-title" className="vt-dashboard__help">
      <h1 id="help-title" className="vt-page__title">
        Help
      </h1>
      <dl>
        <dt>How do I sell a collectible?</dt>
        <dd>
          In <Link to="/dashboard/products">Products</Link>, add a product with a title, description, price,
          number of editions, a preview image and the asset itself. It is saved as a draft, which you can edit
          as often as you like.
        </dd>
        <dt>What does publishing do?</dt>
        <dd>
          Publishing registers the product on the Flow blockchain. It shows as Pending while this happens and
          then becomes Active, purchasable on your storefront and in the marketplace. Once on chain it cannot
          be edited any more.
        </dd>
        <dt>Hide, show and cancel</dt>
        <dd>
          Hiding takes an item off your storefront and the marketplace without ending it; showing puts it
          back. Cancelling ends the sale for good: no more editions can be bought. Collectibles already sold
          stay with their owners.
        </dd>
        <dt>How am I paid?</dt>
        <dd>
          Every sale appears in <Link to="/dashboard/sales">Sales</Link> with the platform fee and royalty
          share taken out. Once your available funds reach $10 you can request a payout in USD on the{' '}
          <Link to="/payouts">Payouts</Link> page. One request can be pending at a time, and you can cancel it
          until it is processed.
        </dd>
        <dt>Image sizes</dt>
        <dd>
          Previews and assets: PNG, JPG or GIF, at least 200 × 200 pixels; previews up to 1 MB, assets up to 2
          MB. Square images (1:1) look best; 1000 × 1000 or larger is recommended.
        </dd>
      </dl>
    </section>
  );
}
