import { LedgerCsv, SalesChartJson, SalesPage } from '#domain/responses/sales';
import { salesChart } from '#domain/salesChart';
import { LedgerQuery, SalesChartQuery, SalesListQuery } from '#domain/schemas/payouts';
import type { Services } from '../deps';
import { type AppContext, defineRoute, forbidden, notFound, type Route } from '../http';
import { findStorefront } from '../storefronts/queries';
import { ledgerCsv } from './csv';
import { saleJson, storefrontLedger } from './ledger';

/** The storefront, if the caller owns it: 404 for an unknown one, 403 for someone else's. */
async function ownStorefront(s: Services, c: AppContext, storefrontId: string) {
  const row = await findStorefront(s.db, storefrontId);
  if (!row) throw notFound();
  if (row.ownerId !== c.get('user')!.id) throw forbidden();
  return row;
}

/** The dashboard's Sales panel: a storefront's primary sales and its payout ledger as CSV. */
export function salesRoutes(s: Services): Route[] {
  return [...salesReportRoutes(s), ...ledgerRoutes(s)];
}

/** A storefront's sales: the list and the chart. */
function salesReportRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/sales',
      tag: 'sales',
      auth: 'required',
      summary:
        'The sales of the caller’s storefront (or of one of its blueprints), newest first, with royalty (0: the creator sells), platform fee, net (cents) and payout status; page ≥ 1, pageSize 25, 50 or 100',
      query: SalesListQuery,
      response: SalesPage,
      responses: {
        200: '{ results: [{ id, purchasedOn, blueprint { id, title, previewImageUrl }, seriesNumber, status, amount, royaltyFee, platformFee, net, buyer { username } | null, payout { allocations, unrequested, status } }], total, page, pageSize }',
        400: 'Invalid storefrontId, page or pageSize',
        401: 'Not logged in',
        403: 'Not the owner of the storefront',
        404: 'No such storefront',
      },
      async handler(c, { query }) {
        const storefront = await ownStorefront(s, c, query.storefrontId);
        const ledger = await storefrontLedger(s.db, storefront.id);
        const start = (query.page - 1) * query.pageSize;
        const newestFirst = ledger.sales
          .filter((sale) => !query.blueprintId || sale.blueprint.id === query.blueprintId)
          .reverse();
        const results = newestFirst
          .slice(start, start + query.pageSize)
          .map((sale) => saleJson(sale, ledger.entries.get(sale.id)!));
        return c.json({ results, total: newestFirst.length, page: query.page, pageSize: query.pageSize });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/sales/chart',
      tag: 'sales',
      auth: 'required',
      summary:
        'The figures of the sales and funds charts of the caller’s storefront, from the same ledger as GET sales: completed sales and their net per day or week (weeks from Monday, UTC), the available funds over time and the payout requests',
      query: SalesChartQuery,
      response: SalesChartJson,
      responses: {
        200: '{ bucket, from, to, sales: [{ start, count, net }], funds: [{ at, available }], requests: [{ at, amount, state }] } (times in epoch ms, money in cents)',
        400: 'Invalid storefrontId, days (7, 30, 90, 365) or bucket (day, week)',
        401: 'Not logged in',
        403: 'Not the owner of the storefront',
        404: 'No such storefront',
      },
      async handler(c, { query }) {
        const storefront = await ownStorefront(s, c, query.storefrontId);
        const ledger = await storefrontLedger(s.db, storefront.id);
        return c.json(
          salesChart(
            ledger.sales.map((sale) => ({
              purchasedOn: sale.purchasedOn,
              net: sale.net,
              completed: sale.status === 'completed',
            })),
            ledger.requests.map((r) => ({
              createdAt: r.createdAt,
              amount: Number(r.amount),
              state: r.state,
            })),
            { days: query.days, bucket: query.bucket, now: s.clock() },
          ),
        );
      },
    }),
  ];
}

/** A storefront's sales ledger as CSV. */
function ledgerRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/sales/ledger.csv',
      tag: 'sales',
      auth: 'required',
      summary:
        'The payout ledger of the caller’s storefront as CSV: one row per sale, oldest first, with fees, net and the payout requests covering it (dollars with 2 decimals)',
      query: LedgerQuery,
      response: LedgerCsv,
      responses: {
        200: 'text/csv with a header row',
        400: 'Invalid storefrontId',
        401: 'Not logged in',
        403: 'Not the owner of the storefront',
        404: 'No such storefront',
      },
      async handler(c, { query }) {
        const storefront = await ownStorefront(s, c, query.storefrontId);
        const ledger = await storefrontLedger(s.db, storefront.id);
        const day = s.clock().toISOString().slice(0, 10);
        return c.body(ledgerCsv(ledger), 200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="${storefront.vanityUrl}-ledger-${day}.csv"`,
          'Cache-Control': 'no-store',
        });
      },
    }),
  ];
}
