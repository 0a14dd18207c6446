import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { categoryOptions, type filterToggle, priceFilter, priceFilterEntry } from '#domain/marketFilterForm';
import type { MarketSearch } from '#domain/marketSearch';
import { Button } from '../components/Button';
import { TextInput } from '../components/TextInput';

/*
 * The search form and the filters the catalog's screens share (the marketplace, Browse storefronts,
 * a storefront's items), in a module of their own: a screen that uses one loads none of another
 * screen's code.
 */

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

/** A search box with its Search button: `onSearch` gets the trimmed text, or '' when cleared. */
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
