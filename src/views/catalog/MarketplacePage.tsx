import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { filterToggle, marketSortLabels } from '#domain/marketFilterForm';
import { MARKET_PAGE_SIZE, type MarketSearch, type MarketSort, marketSorts } from '#domain/marketSearch';
import { availableText } from '#domain/offer';
import { Pager } from '../components/Pager';
import { FilterDisclosure, PriceCategoryFilter, SearchForm } from './CatalogFilters';
import { ItemGrid } from './ItemCard';
import './catalog.css';

const route = getRouteApi('/marketplace');

/**
 * Marketplace: search form, the count available, a sidebar filter (price range in dollars,
 * storefront categories) applied with Apply, and the sort. Everything lives in the URL. On narrow
 * screens the filter waits behind a Filters button (FilterDisclosure), so the items come first.
 */
export function MarketplacePage() {
  const search = route.useSearch();
  const { page } = route.useLoaderData();
  const navigate = useNavigate({ from: '/marketplace' });
  const go = (next: MarketSearch) => navigate({ search: next });
  const current = search.page ?? 1;
  const pages = Math.max(1, Math.ceil(page.total / MARKET_PAGE_SIZE));

  return (
    <section className="vt-page">
      <h1 className="vt-page__title">Marketplace</h1>
      <nav className="vt-tabs-nav" aria-label="Marketplace">
        <Link to="/marketplace" className="is-active">
          Items
        </Link>
        <Link to="/marketplace/activity">Activity</Link>
      </nav>
      <div className="vt-toolbar">
        <SearchForm
          value={search.q ?? ''}
          onSearch={(q) => go({ ...search, q: q || undefined, page: undefined })}
        />
        <p className="vt-muted" aria-live="polite">
          {availableText(page)}
        </p>
        <label className="vt-inline-field">
          <span>Sort by</span>{' '}
          <select
            className="vt-select"
            value={search.sort ?? 'price-asc'}
            onChange={(e) => go({ ...search, sort: e.target.value as MarketSort, page: undefined })}
          >
            {marketSorts.map((s) => (
              <option key={s} value={s}>
                {marketSortLabels[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="vt-catalog">
        <FilterDisclosure toggle={filterToggle(search)}>
          {(close) => (
            <PriceCategoryFilter
              key={`${search.min}|${search.max}|${search.categories}`}
              search={search}
              onApply={(next) => {
                close();
                go({ ...search, ...next, page: undefined });
              }}
            />
          )}
        </FilterDisclosure>
        <div>
          {page.results.length > 0 ? (
            <ItemGrid items={page.results} label="Items" />
          ) : (
            <div className="vt-empty">
              <h2>No matching items</h2>
              <p className="vt-muted">Try another search, a wider price range or more categories.</p>
            </div>
          )}
          {pages > 1 && (
            <Pager
              page={current}
              pages={pages}
              canPrevious={current > 1}
              canNext={current < pages}
              onPrevious={() => go({ ...search, page: current - 1 })}
              onNext={() => go({ ...search, page: current + 1 })}
            />
          )}
        </div>
      </div>
    </section>
  );
}
