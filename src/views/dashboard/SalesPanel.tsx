import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { Fragment, type ReactNode, useId, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { toDate } from '#domain/dates';
import { formatUsd } from '#domain/money';
import { seriesLabel } from '#domain/nft';
import {
  payoutStateLabels,
  SALES_PAGE_SIZE_DEFAULT,
  type SaleJson,
  type SalesPage,
  type SalesPageSize,
  salePayoutStatusLabels,
  saleStatusLabels,
  salesPageSizes,
} from '#domain/sales';
import {
  connectLedgerExport,
  type LedgerExportEvent,
  type ledgerExportMachine,
} from '../../../machines/ledgerExport';
import { useApp } from '../AppContext';
import { Button, Pager } from '../components';
import { NoStorefront } from './PreviewPanel';
import { SalesChart } from './SalesChart';
import '../payouts/table.css';
import './sales.css';

const dashboard = getRouteApi('/_authenticated/dashboard');
const route = getRouteApi('/_authenticated/dashboard/sales');

/** Dashboard → Sales: the storefront's sales; page and page size live in the URL. */
export function SalesPanel() {
  const { storefront } = dashboard.useLoaderData();
  const { sales, ledgerExport, salesChart } = route.useLoaderData();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/dashboard/sales' });
  if (!storefront || !sales) return <NoStorefront />;
  const filter = search.blueprintId ? (
    <p className="vt-sales__filter" role="status">
      {sales.results[0] ? `Sales of “${sales.results[0].blueprint.title}”.` : 'No sales of this product yet.'}{' '}
      <Link to="/dashboard/sales">Show all sales</Link>
    </p>
  ) : null;
  return (
    <SalesWithExport
      key={storefront.id}
      storefrontId={storefront.id}
      machine={ledgerExport}
      sales={sales}
      filter={filter}
      chart={
        <SalesChart key={storefront.id} machine={salesChart} storefrontId={storefront.id} kind="sales" />
      }
      onPage={(page, pageSize) =>
        navigate({
          search: {
            blueprintId: search.blueprintId,
            page: page > 1 ? page : undefined,
            pageSize: pageSize === SALES_PAGE_SIZE_DEFAULT ? undefined : pageSize,
          },
        })
      }
    />
  );
}

function SalesWithExport({
  storefrontId,
  machine,
  ...rest
}: {
  storefrontId: string;
  machine: typeof ledgerExportMachine;
  sales: SalesPage;
  onPage: (page: number, pageSize: SalesPageSize) => void;
  filter?: ReactNode;
  chart?: ReactNode;
}) {
  const { inspect } = useApp();
  const exporter = useActorRef(machine, { input: { storefrontId }, inspect });
  return <SalesView exporter={exporter} {...rest} />;
}

const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
export const formatSaleDay = (d: Date | string) => dayFormat.format(toDate(d));
export const formatSaleTime = (d: Date | string) => timeFormat.format(toDate(d));
/** An edition as #01; a sale without one (refunded before minting) shows none. */
const edition = (n: number | null) => (n === null ? '' : seriesLabel(n));

export interface SalesViewProps {
  sales: SalesPage;
  exporter: ActorRefFrom<typeof ledgerExportMachine>;
  /** Go to a page with a page size (a new size starts at page 1). */
  onPage: (page: number, pageSize: SalesPageSize) => void;
  /** A note about a filter on one product, with the way back to all sales. */
  filter?: ReactNode;
  /** The sales chart above the table. */
  chart?: ReactNode;
}

/**
 * The sales table: purchased date, blueprint, status and amount, newest first; each row expands to
 * the purchase's details (platform fee, total, net and where it stands in the payout ledger; a
 * primary sale deducts no royalty: its seller is the creator). Page size 25, 50 or 100; "Export CSV" saves the whole ledger.
 */
export function SalesView({ sales, exporter, onPage, filter, chart }: SalesViewProps) {
  const snapshot = useSelector(exporter, (s) => s);
  const ledger = connectLedgerExport(snapshot, (event: LedgerExportEvent) => exporter.send(event));
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const id = useId();
  const pages = Math.max(1, Math.ceil(sales.total / sales.pageSize));
  const toggle = (saleId: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(saleId)) next.delete(saleId);
      else next.add(saleId);
      return next;
    });

  return (
    <section aria-labelledby={`${id}-title`} className="vt-sales">
      <div className="vt-dashboard__head">
        <h1 id={`${id}-title`} className="vt-page__title">
          Sales
        </h1>
        <div className="vt-sales__tools">
          <Link to="/payouts" className="vt-button vt-button--secondary vt-button--md">
            Payouts
          </Link>
          <Button
            variant="secondary"
            loading={ledger.busy}
            disabled={sales.total === 0 || !ledger.canExport}
            onClick={ledger.export}
          >
            Export CSV
          </Button>
        </div>
      </div>
      {filter}
      {chart}
      {ledger.error && (
        <div className="vt-sales__error" role="alert">
          <span>{ledger.error}</span>
          <Button variant="ghost" size="sm" onClick={ledger.dismiss}>
            Dismiss
          </Button>
        </div>
      )}

      {sales.total === 0 ? (
        <div className="vt-empty">
          <h2>No sales yet</h2>
          <p className="vt-muted">When collectors buy your items, their purchases show up here.</p>
        </div>
      ) : (
        <>
          <div className="vt-sales__table-wrap">
            <table className="vt-table vt-sales__table">
              <caption className="vt-visually-hidden">Sales, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span className="vt-visually-hidden">Details</span>
                  </th>
                  <th scope="col">Purchased</th>
                  <th scope="col">Blueprint</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="vt-table__num">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {sales.results.map((sale) => (
                  <SaleRows
                    key={sale.id}
                    sale={sale}
                    open={expanded.has(sale.id)}
                    detailsId={`${id}-${sale.id}`}
                    onToggle={() => toggle(sale.id)}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <div className="vt-sales__footer">
            <label className="vt-inline-field">
              <span>Rows per page</span>{' '}
              <select
                className="vt-select"
                value={sales.pageSize}
                onChange={(e) => onPage(1, Number(e.target.value) as SalesPageSize)}
              >
                {salesPageSizes.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
            <Pager
              className="vt-sales__pager"
              page={sales.page}
              pages={pages}
              summary={` · ${sales.total.toLocaleString('en-US')} ${sales.total === 1 ? 'sale' : 'sales'}`}
              canPrevious={sales.page > 1}
              canNext={sales.page < pages}
              onPrevious={() => onPage(Math.min(sales.page - 1, pages), sales.pageSize)}
              onNext={() => onPage(sales.page + 1, sales.pageSize)}
            />
          </div>
        </>
      )}
    </section>
  );
}

function SaleRows({
  sale,
  open,
  detailsId,
  onToggle,
}: {
  sale: SaleJson;
  open: boolean;
  detailsId: string;
  onToggle: () => void;
}) {
  const name = `${sale.blueprint.title} ${edition(sale.seriesNumber)}`;
  return (
    <Fragment>
      <tr className={open ? 'vt-sales__row is-open' : 'vt-sales__row'} data-testid="sale-row">
        <td className="vt-sales__toggle">
          <button
            type="button"
            className="vt-sales__expand"
            aria-expanded={open}
            aria-controls={detailsId}
            aria-label={`Details of ${name}`}
            onClick={onToggle}
          >
            <span aria-hidden="true">{open ? '−' : '+'}</span>
          </button>
        </td>
        <td>{formatSaleDay(sale.purchasedOn)}</td>
        <td>
          <span className="vt-sales__blueprint">
            {sale.blueprint.previewImageUrl && (
              <img src={sale.blueprint.previewImageUrl} alt="" width={32} height={32} loading="lazy" />
            )}
            <span>
              {sale.blueprint.title} <span className="vt-muted">{edition(sale.seriesNumber)}</span>
            </span>
          </span>
        </td>
        <td>
          <span className={`vt-badge vt-badge--sale-${sale.status}`}>{saleStatusLabels[sale.status]}</span>
        </td>
        <td className="vt-table__num">{formatUsd(sale.amount)}</td>
      </tr>
      {open && (
        <tr className="vt-sales__details-row">
          <td colSpan={5} id={detailsId}>
            <h3 className="vt-visually-hidden">{`Details of ${name}`}</h3>
            <dl className="vt-dl vt-sales__details">
              <dt>Purchased</dt>
              <dd>{formatSaleTime(sale.purchasedOn)}</dd>
              <dt>Blueprint</dt>
              <dd>
                {sale.blueprint.title} ({edition(sale.seriesNumber)})
              </dd>
              {sale.buyer && (
                <>
                  <dt>Buyer</dt>
                  <dd>@{sale.buyer.username}</dd>
                </>
              )}
              <dt>Platform fee</dt>
              <dd>{formatUsd(sale.platformFee)}</dd>
              <dt>Total amount</dt>
              <dd>{formatUsd(sale.amount)}</dd>
              <dt>Net</dt>
              <dd>{formatUsd(sale.net)}</dd>
              <dt>Payout</dt>
              <dd>
                <span className={`vt-badge vt-badge--sale-${sale.payout.status}`}>
                  {salePayoutStatusLabels[sale.payout.status]}
                </span>
                {sale.payout.allocations.length > 0 && (
                  <ul className="vt-sales__allocations">
                    {sale.payout.allocations.map((a) => (
                      <li key={a.requestId}>
                        {formatUsd(a.amount)} in a payout request ({payoutStateLabels[a.state].toLowerCase()})
                      </li>
                    ))}
                    {sale.payout.unrequested > 0 && (
                      <li>{formatUsd(sale.payout.unrequested)} not requested yet</li>
                    )}
                  </ul>
                )}
              </dd>
            </dl>
          </td>
        </tr>
      )}
    </Fragment>
  );
}
