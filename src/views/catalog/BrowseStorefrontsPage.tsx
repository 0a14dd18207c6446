import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { categoryLabels } from '#domain/catalog';
import { categoryOptions } from '#domain/marketFilterForm';
import { parseCategories } from '#domain/marketSearch';
import type { StorefrontPage } from '#domain/responses/catalog';
import { storefrontCardStats } from '#domain/statsView';
import { parseStorefrontsSearch, type StorefrontsSearch } from '#domain/storefrontsSearch';
import { Avatar } from '../components/Avatar';
import { Carousel } from '../components/Carousel';
import { ImageLoader } from '../components/ImageLoader';
import { SearchForm } from './CatalogFilters';
import { StatsList } from './StatsList';
import './catalog.css';

const route = getRouteApi('/storefronts');

/**
 * Browse storefronts: search, newest, oldest or most volume first, a category filter, cards with
 * their volume and floor and previews.
 */
export function BrowseStorefrontsPage() {
  const search = route.useSearch();
  const { page } = route.useLoaderData();
  const navigate = useNavigate({ from: '/storefronts' });
  const chosen = parseCategories(search.categories);
  const go = (next: StorefrontsSearch) => navigate({ search: next });
  return (
    <section className="vt-page">
      <h1 className="vt-page__title">Storefronts</h1>
      <div className="vt-toolbar">
        <SearchForm
          label="Search storefronts"
          value={search.q ?? ''}
          onSearch={(q) => go({ ...search, q: q || undefined })}
        />
        <label className="vt-inline-field">
          <span>Sort by</span>{' '}
          <select
            className="vt-select"
            value={search.sort ?? 'newest'}
            onChange={(e) => go({ ...search, sort: parseStorefrontsSearch({ sort: e.target.value }).sort })}
          >
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
            <option value="volume">Volume: high to low</option>
          </select>
        </label>
        <label className="vt-inline-field">
          <span>Category</span>{' '}
          <select
            className="vt-select"
            value={chosen[0] ?? ''}
            onChange={(e) => go({ ...search, categories: e.target.value || undefined })}
          >
            <option value="">All categories</option>
            {categoryOptions.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {page.results.length > 0 ? (
        <ul className="vt-store-grid" aria-label="Storefronts">
          {page.results.map((s, i) => (
            <li key={s.id}>
              <StorefrontCard storefront={s} firstRow={i < FIRST_ROW} />
            </li>
          ))}
        </ul>
      ) : (
        <div className="vt-empty">
          <h2>No storefronts found</h2>
          <p className="vt-muted">Try another name or category.</p>
        </div>
      )}
    </section>
  );
}

/**
 * The cards of the grid's first row on a wide screen (four of at least 280 px): the first preview of
 * each, what a visitor sees first and the page's largest image, loads at once and before the others;
 * the logos of the cards below load as they near the screen.
 */
const FIRST_ROW = 4;

function StorefrontCard({
  storefront: s,
  firstRow,
}: {
  storefront: StorefrontPage['results'][number];
  firstRow: boolean;
}) {
  const slides = s.previews.map((p, i) => (
    <Link key={p.id} to="/nft/$id" params={{ id: p.id }} aria-label={p.title}>
      <ImageLoader
        src={p.previewImageUrl}
        alt=""
        aspectRatio={1}
        radius="md"
        sizes="280px"
        priority={firstRow && i === 0}
      />
    </Link>
  ));
  return (
    <article className="vt-store-card">
      <div className="vt-store-card__head">
        <Avatar
          src={s.logoUrl ?? undefined}
          seed={s.id}
          alt=""
          size={48}
          loading={firstRow ? 'eager' : 'lazy'}
        />
        <div>
          <h2 className="vt-h3">
            <Link to="/s/$vanityUrl" params={{ vanityUrl: s.vanityUrl }}>
              {s.name}
            </Link>
          </h2>
          <p className="vt-muted">
            {s.category ? categoryLabels[s.category] : 'Storefront'} · {s.blueprintCount}{' '}
            {s.blueprintCount === 1 ? 'item' : 'items'}
          </p>
        </div>
      </div>
      <StatsList stats={storefrontCardStats(s.stats)} label={`${s.name} sales`} />
      {slides.length > 0 && <Carousel slides={slides} label={`${s.name} items`} autoScroll drawNear />}
    </article>
  );
}
