import { getRouteApi, Link } from '@tanstack/react-router';
import { categoryLabels } from '../../domain/catalog';
import { ItemGrid } from '../catalog/ItemCard';
import { Avatar } from '../components';
import '../catalog/catalog.css';

const dashboard = getRouteApi('/dashboard');
const route = getRouteApi('/dashboard/preview');

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
      <article className={`vt-storefront vt-storefront--${s.theme}`} data-theme={s.theme}>
        <div className="vt-storefront__banner">
          {s.bannerUrl && <img src={s.bannerUrl} alt="" width={1500} height={300} />}
        </div>
        <div className="vt-storefront__body">
          <aside className="vt-storefront__side" aria-label="About this storefront">
            <div className="vt-storefront__logo">
              <Avatar src={s.logoUrl ?? undefined} seed={s.id} alt={`${s.name} logo`} size={104} />
            </div>
            <h2 className="vt-page__title">{s.name}</h2>
            {s.category && <p className="vt-muted">{categoryLabels[s.category]}</p>}
            <p>{s.description}</p>
          </aside>
          <div className="vt-storefront__main">
            {items.results.length ? (
              <ItemGrid items={items.results} label={`${s.name} items`} />
            ) : (
              <p className="vt-dashboard__empty">
                Nothing on sale yet. <Link to="/dashboard/products">Add a product</Link> and publish it.
              </p>
            )}
          </div>
        </div>
      </article>
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
