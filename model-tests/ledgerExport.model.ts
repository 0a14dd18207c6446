import { expect } from 'vitest';
import type { SalesPage } from '#domain/sales';
import { connectLedgerExport, ledgerExportMachine } from '../machines/ledgerExport';
import { after, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof ledgerExportMachine>;
const view = (o: O) => connectLedgerExport(o.snapshot, () => {});

export const LEDGER_STOREFRONT_ID = '0b9d6a1c-2e3f-4a5b-8c7d-9e0f1a2b3c4d';

export const ledgerExportModel: MachineModel<typeof ledgerExportMachine> = {
  machine: ledgerExportMachine,
  fakes: ['exportLedger'],
  scenarios: [{ name: 'a storefront with sales', input: { storefrontId: LEDGER_STOREFRONT_ID } }],
  events: () => [
    { type: 'ledger.export' },
    { type: 'ledger.dismiss' },
    { type: 'xstate.done.actor.exportLedger', output: { bytes: 120 } },
    {
      type: 'xstate.error.actor.exportLedger',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error.' } },
    },
    {
      type: 'xstate.error.actor.exportLedger',
      error: { status: 500, body: { code: 'unknown', message: '' } },
    },
  ],
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.error?.code ?? null, s.context.error?.message ?? null]),
  expect: {
    idle: (o) => {
      expect(view(o)).toMatchObject({ busy: false, canExport: true, error: null, canDismiss: false });
      if (o.event.type !== 'xstate.init' && o.event.type !== 'ledger.dismiss')
        expect(after(o, 'done', 'exportLedger')).toBe(true);
    },
    // The CSV of the storefront's ledger, downloaded through the API.
    exporting: (o) => {
      expect(o.event.type).toBe('ledger.export');
      expectWorking(o, 'exportLedger', { storefrontId: LEDGER_STOREFRONT_ID });
      expect(view(o).busy).toBe(true);
    },
    // The server's message, else the default text, until dismissed.
    failed: (o) => {
      const body = (o.event.error as { body: { message: string } }).body;
      expect(view(o).canDismiss).toBe(true);
      if (body.message) expect(view(o).error).toBe(body.message);
      else expect(view(o).error).toBeTruthy();
    },
  },
};

/** A page of two sales: one split over a paid and an open payout request, one not requested. */
export const SALES_PAGE: SalesPage = {
  results: [
    {
      id: 'a4d1c3b2-0000-4000-8000-000000000002',
      purchasedOn: '2026-03-05T15:30:00.000Z',
      blueprint: { id: 'b1', title: 'Harbor Lights', previewImageUrl: '/media/seed/harbor.png' },
      seriesNumber: 2,
      status: 'completed',
      amount: 2500,
      royaltyFee: 0,
      platformFee: 188,
      net: 2312,
      buyer: { username: 'collector_jo' },
      payout: { allocations: [], unrequested: 2312, status: 'unpaid' },
    },
    {
      id: 'a4d1c3b2-0000-4000-8000-000000000001',
      purchasedOn: '2026-03-01T09:00:00.000Z',
      blueprint: { id: 'b2', title: 'Quiet Dunes', previewImageUrl: null },
      seriesNumber: 11,
      status: 'completed',
      amount: 1050,
      royaltyFee: 0,
      platformFee: 50,
      net: 1000,
      buyer: null,
      payout: {
        allocations: [
          { requestId: 'r1', state: 'payed', amount: 400 },
          { requestId: 'r2', state: 'created', amount: 600 },
        ],
        unrequested: 0,
        status: 'requested',
      },
    },
  ],
  total: 2,
  page: 1,
  pageSize: 50,
};
