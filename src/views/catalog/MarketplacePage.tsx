import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import {
  categoryOptions,
  filterToggle,
  marketSortLabels,
  priceFilter,
  priceFilterEntry,
} from '#domain/marketFilterForm';
import { MARKET_PAGE_SIZE, type MarketSearch, type MarketSort, marketSorts } from '#domain/marketSearch';
import { availableText } from '#domain/offer';
import { Button } from '../components/Button';
import { Pager } from '../components/Pager';
import { TextInput } from '../components/TextInput';
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

/**
 * The filter beside the items on wide screens; on narrow ones (below 900 px, catalog.css) a
 * Filters button (aria-expanded, with the number of filters applied) shows it, and applying closes it.
 */
export function FilterDisclosure({
  toggle,
  children,
}: {
  toggle: ReturnType<typeof filterToggle>;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="vt-filter-disclosure">
      <Button
        variant="secondary"
        className="vt-filter-disclosure__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={toggle.label}
        onClick={() => setOpen(!open)}
      >
        Filters
        {toggle.applied > 0 && <span className="vt-filter-disclosure__count">{toggle.applied}</span>}
      </Button>
      <div id={panelId} className="vt-filter-disclosure__panel" data-open={open}>
        {children(() => setOpen(false))}
      </div>
    </div>
  );
}

export function SearchForm({
  value,
  onSearch,
  label = 'Search items',
}: {
  value: string;
  onSearch: (q: string) => void;
  label?: string;
}) {
  const [text, setText] = useState(value);
  return (
    <search className="vt-searchbar">
      <form
        className="vt-searchbar__form"
        onSubmit={(e) => {
          e.preventDefault();
          onSearch(text.trim());
        }}
      >
        <TextInput
          label={label}
          hideLabel
          type="search"
          placeholder={label}
          value={text}
          clearable
          onClear={() => {
            setText('');
            onSearch('');
          }}
          onChange={(e) => setText(e.target.value)}
        />
        <Button type="submit">Search</Button>
      </form>
    </search>
  );
}

/**
 * The sidebar filter: a price range in dollars and storefront categories, applied together. What it
 * applies, and its errors, come from priceFilter; the fields hold what is typed until then.
 */
export function PriceCategoryFilter({
  search,
  onApply,
  categories = true,
}: {
  search: MarketSearch;
  onApply: (next: Pick<MarketSearch, 'min' | 'max' | 'categories'>) => void;
  categories?: boolean;
}) {
  const [entry, setEntry] = useState(() => priceFilterEntry(search));
  const checked = priceFilter(entry);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (checked.search) onApply(checked.search);
  };
  return (
    <form className="vt-filter" aria-label="Filter" onSubmit={submit} noValidate>
      <fieldset>
        <legend>Price (USD)</legend>
        <div className="vt-filter__range">
          <TextInput
            label="Min"
            inputMode="decimal"
            placeholder="$0"
            value={entry.min}
            error={checked.minError ?? undefined}
            onChange={(e) => setEntry({ ...entry, min: e.target.value })}
          />
          <TextInput
            label="Max"
            inputMode="decimal"
            placeholder="Any"
            value={entry.max}
            error={checked.maxError ?? undefined}
            onChange={(e) => setEntry({ ...entry, max: e.target.value })}
          />
        </div>
      </fieldset>
      {categories && (
        <fieldset>
          <legend>Storefront categories</legend>
          {categoryOptions.map((c) => (
            <label key={c.value} className="vt-check">
              <input
                type="checkbox"
                checked={entry.categories.includes(c.value)}
                onChange={(e) =>
                  setEntry({
                    ...entry,
                    categories: e.target.checked
                      ? [...entry.categories, c.value]
                      : entry.categories.filter((x) => x !== c.value),
                  })
                }
              />
              <span>{c.label}</span>
            </label>
          ))}
        </fieldset>
      )}
      <Button type="submit">Apply</Button>
    </form>
  );
}
