import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useCallback, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { type BlueprintJson, stateLabel } from '#domain/catalog';
import { formatPrice } from '#domain/money';
import {
  isPrinting,
  PRODUCTS_PAGE_SIZE,
  type ProductAction,
  type ProductStatus,
  productActions,
  productStatuses,
  productStatusLabels,
} from '#domain/products';
import {
  connectProductActions,
  type ProductActionsEvent,
  type ProductActionsView,
  type productActionsMachine,
} from '../../../machines/productActions';
import { useApp } from '../AppContext';
import { Button, ConfirmModal, Dropdown, ImageLoader, Pager, Spinner, TextInput } from '../components';
import { BlueprintFormDialog } from './BlueprintFormDialog';
import { NoStorefront } from './PreviewPanel';
import { PublishDialog } from './PublishDialog';
import './products.css';

const dashboard = getRouteApi('/_authenticated/dashboard');
const route = getRouteApi('/_authenticated/dashboard/products');

const actionLabels: Record<ProductAction, string> = {
  edit: 'Edit',
  publish: 'Publish',
  view: 'View',
  sales: 'Sales',
  hide: 'Hide',
  show: 'Show',
  cancel: 'Cancel sale',
};

/**
 * Dashboard products: search, status filter, count, and the list with each item's actions for its
 * state; the add/edit form and publishing open as dialogs.
 */
export function ProductsPanel() {
  const { storefront } = dashboard.useLoaderData();
  const { page, editing, machines } = route.useLoaderData();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const router = useRouter();
  const { inspect } = useApp();
  const [publishing, setPublishing] = useState<BlueprintJson | null>(null);
  const reload = useCallback(() => void router.invalidate(), [router]);
  const actions = useActorRef(machines.productActions.provide({ actions: { announceChanged: reload } }), {
    inspect,
  });
  if (!storefront) return <NoStorefront />;

  const status: ProductStatus = search.status ?? 'all';
  const current = search.page ?? 1;
  const pages = Math.max(1, Math.ceil(page.total / PRODUCTS_PAGE_SIZE));
  const closeForm = (saved: boolean) => {
    void navigate({ search: (s) => ({ ...s, edit: undefined }) });
    if (saved) reload();
  };
  const navigateTo = (b: BlueprintJson, action: ProductAction) => {
    if (action === 'edit') return navigate({ search: (s) => ({ ...s, edit: b.id }) });
    if (action === 'publish') return setPublishing(b);
    if (action === 'view') return router.navigate({ to: '/nft/$id', params: { id: b.id } });
    if (action === 'sales') return router.navigate({ to: '/dashboard/sales', search: { blueprintId: b.id } });
  };

  return (
    <section aria-labelledby="products-title" className="vt-products">
      <div className="vt-dashboard__head">
        <h1 id="products-title" className="vt-page__title">
          Products
        </h1>
        <Button onClick={() => navigate({ search: (s) => ({ ...s, edit: 'new' }) })}>Add product</Button>
      </div>
      <ProductFilters status={status} />
      <p className="vt-muted" aria-live="polite">
        {page.total === 1 ? '1 product' : `${page.total} products`}
      </p>
      {page.results.length === 0 ? (
        <div className="vt-dashboard__empty">
          {search.q || status !== 'all' ? (
            <p>No products match.</p>
          ) : (
            <>
              <p>You have no products yet.</p>
              <Button onClick={() => navigate({ search: (s) => ({ ...s, edit: 'new' }) })}>
                Add your first product
              </Button>
            </>
          )}
        </div>
      ) : (
        <>
          <ProductList items={page.results} actor={actions} onAction={navigateTo} />
          {pages > 1 && (
            <Pager
              className="vt-products__pager"
              size="sm"
              page={current}
              pages={pages}
              canPrevious={current > 1}
              canNext={current < pages}
              onPrevious={() =>
                navigate({ search: (s) => ({ ...s, page: current > 2 ? current - 1 : undefined }) })
              }
              onNext={() => navigate({ search: (s) => ({ ...s, page: current + 1 }) })}
            />
          )}
        </>
      )}
      {search.edit && (search.edit === 'new' || editing) && (
        <BlueprintFormDialog
          key={search.edit}
          machine={machines.blueprintForm}
          blueprint={search.edit === 'new' ? null : editing}
          onDone={closeForm}
        />
      )}
      {publishing && (
        <PublishDialog
          machine={machines.publish}
          blueprint={publishing}
          onDone={(changed) => {
            setPublishing(null);
            if (changed) reload();
          }}
          onStarted={reload}
        />
      )}
    </section>
  );
}

/** Search by title and the status filter: both change the URL's search (and go back to page 1). */
function ProductFilters({ status }: { status: ProductStatus }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const submitSearch = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const q = String(new FormData(e.currentTarget).get('q') ?? '').trim();
    void navigate({ search: (s) => ({ ...s, q: q || undefined, page: undefined }) });
  };
  return (
    <div className="vt-products__filters">
      <form aria-label="Search products" onSubmit={submitSearch} className="vt-products__search">
        <TextInput
          key={search.q ?? ''}
          label="Search products"
          hideLabel
          name="q"
          type="search"
          placeholder="Search by title"
          defaultValue={search.q ?? ''}
        />
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      <fieldset className="vt-products__status">
        <legend className="vt-visually-hidden">Status</legend>
        {productStatuses.map((s) => (
          <label key={s} className={s === status ? 'is-active' : ''}>
            <input
              type="radio"
              name="status"
              value={s}
              checked={s === status}
              onChange={() =>
                navigate({
                  search: (prev) => ({ ...prev, status: s === 'all' ? undefined : s, page: undefined }),
                })
              }
            />
            {productStatusLabels[s]}
          </label>
        ))}
      </fieldset>
    </div>
  );
}

/**
 * The products with their action menus: hide, show and cancel go to the productActions machine
 * (with its confirmation and errors); the other actions to `onAction`.
 */
export function ProductList({
  items,
  actor,
  onAction,
}: {
  items: BlueprintJson[];
  actor: ActorRefFrom<typeof productActionsMachine>;
  onAction: (b: BlueprintJson, action: ProductAction) => void;
}) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectProductActions(snapshot, (event: ProductActionsEvent) => actor.send(event));
  const run = (b: BlueprintJson, action: ProductAction) => {
    const target = { id: b.id, title: b.title };
    if (action === 'hide') view.hide(target);
    else if (action === 'show') view.show(target);
    else if (action === 'cancel') view.cancel(target);
    else onAction(b, action);
  };
  return (
    <>
      <ul className="vt-products__list" aria-label="Products">
        {items.map((b) => (
          <ProductRow key={b.id} blueprint={b} onAction={(a) => run(b, a)} />
        ))}
      </ul>
      <ProductActionDialogs view={view} />
    </>
  );
}

function ProductRow({
  blueprint: b,
  onAction,
}: {
  blueprint: BlueprintJson;
  onAction: (a: ProductAction) => void;
}) {
  const printing = isPrinting(b);
  const actions = productActions(b);
  return (
    <li className="vt-products__row">
      <ImageLoader
        src={b.previewImageUrl}
        alt=""
        aspectRatio={1}
        radius="sm"
        className="vt-products__thumb"
      />
      <div className="vt-products__info">
        <strong>{b.title}</strong>
        <span className="vt-muted">
          {formatPrice(b.price)} · {b.quantityAvailable}/{b.quantity} available
        </span>
      </div>
      <span className={`vt-badge vt-badge--${stateLabel(b.state, b.status).toLowerCase().replace(' ', '-')}`}>
        {stateLabel(b.state, b.status)}
      </span>
      {!b.visible && <span className="vt-badge vt-badge--hidden">Hidden</span>}
      <div className="vt-products__actions">
        {printing ? (
          <Spinner size="sm" label="Publishing on chain" />
        ) : (
          <Dropdown
            label={`Actions for ${b.title}`}
            trigger="Actions"
            align="end"
            items={actions.map((a) => ({ id: a, label: actionLabels[a], danger: a === 'cancel' }))}
            onSelect={(id) => onAction(id as ProductAction)}
          />
        )}
      </div>
    </li>
  );
}

/** The cancel confirmation and errors of hide/show/cancel. */
function ProductActionDialogs({ view }: { view: ProductActionsView }) {
  return (
    <>
      <ConfirmModal
        open={view.confirmCancel !== null}
        title="Cancel this sale?"
        message={
          <>
            “{view.confirmCancel?.title}” will no longer be sold. This cannot be undone; editions already sold
            stay with their owners.
          </>
        }
        confirmLabel="Cancel sale"
        cancelLabel="Keep selling"
        danger
        loading={view.confirmCancel?.busy ?? false}
        onConfirm={view.confirm}
        onCancel={view.dismiss}
      />
      {view.error && (
        <div className="vt-alert vt-alert--error vt-products__error" role="alert">
          <span>{view.error}</span>
          <Button size="sm" variant="secondary" onClick={view.dismissError}>
            Dismiss
          </Button>
        </div>
      )}
    </>
  );
}
