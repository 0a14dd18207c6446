import { getRouteApi, Link } from '@tanstack/react-router';
import { ItemGrid } from '../catalog/ItemCard';
import { StorefrontFrame } from '../catalog/StorefrontFrame';
import '../catalog/catalog.css';

const dashboard = getRouteApi('/_authenticated/dashboard');
const route = getRouteApi('/_authenticated/dashboard/preview');

/** Dashboard preview: the storefront as visitors see it, or the way to create one. */
export function PreviewPanel() {
  const { storefront: s } = dashboard.useLoaderData();
  const { items } = route.useLoaderData();
  if (!s) return <NoStorefront />;
  return (
    <section aria-labelledby="preview-title">
      <div className="vt-dashboard__head">
        <h1 id="preview-title" className="vt-page__title">
          Preview
        </h1>
        {s.enabled ? (
          <Link
            to="/s/$vanityUrl"
            params={{ vanityUrl: s.vanityUrl }}
            className="vt-button vt-button--secondary"
          >
            Open public page
          </Link>
        ) : (
          <p className="vt-muted">Your storefront is disabled: visitors cannot see it.</p>
        )}
      </div>
      <StorefrontFrame storefront={s} heading="h2" side={<p>{s.description}</p>}>
        <div className="vt-storefront__main">
          {items.results.length ? (
            <ItemGrid items={items.results} label={`${s.name} items`} />
          ) : (
            <p className="vt-dashboard__empty">
              Nothing on sale yet. <Link to="/dashboard/products">Add a product</Link> and publish it.
            </p>
          )}
        </div>
      </StorefrontFrame>
    </section>
  );
}

/** Shown by dashboard panels when the user has no storefront yet. */
export function NoStorefront() {
  return (
    <div className="vt-dashboard__empty">
      <h1 className="vt-page__title">You have no storefront yet</h1>
      <p>Create one to sell your collectibles.</p>
      <Link to="/create-storefront" className="vt-button vt-button--primary">
        Create storefront
      </Link>
    </div>
  );
}
