import type { SalesPageSize } from '#domain/sales';
import type { Api } from './api';

export interface SalesQuery {
  storefrontId: string;
  blueprintId?: string;
  page?: number;
  pageSize?: SalesPageSize;
}

/** Hands text to the browser as a downloaded file (an object URL on a temporary link). */
export function saveTextFile(text: string, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Revoked after the click has started the download.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/** Sales and payouts of the product API (GET sales, sales/ledger.csv, payout-requests). */
export function salesService(api: Api, save: typeof saveTextFile = saveTextFile) {
  return {
    list: (q: SalesQuery) =>
      api.get('/sales', {
        query: {
          storefrontId: q.storefrontId,
          blueprintId: q.blueprintId,
          page: q.page,
          pageSize: q.pageSize,
        },
      }),
    /** Fetches the ledger CSV with the session's token and saves it as a file. */
    exportLedger: async ({ storefrontId }: { storefrontId: string }) => {
      const csv = await api.get('/sales/ledger.csv', { query: { storefrontId } });
      const day = new Date().toISOString().slice(0, 10);
      save(csv, `vitrine-sales-ledger-${day}.csv`, 'text/csv;charset=utf-8');
      return { bytes: csv.length };
    },
    payouts: () => api.get('/payout-requests', { query: { pageSize: 100 } }),
    requestPayout: ({ amount }: { amount: number }) => api.post('/payout-requests', { json: { amount } }),
    cancelPayout: ({ id }: { id: string }) =>
      api.patch('/payout-requests/{id}', { params: { id }, json: { state: 'cancelled' } }),
  };
}
export type SalesService = ReturnType<typeof salesService>;
