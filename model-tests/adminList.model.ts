import { expect } from 'vitest';
import type { AdminRow } from '#domain/admin';
import { adminListMachine } from '../machines/adminList';
import { after, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof adminListMachine>;
/** The query the last step asked for: page 1 of 50 after a search or a status, else the page chosen. */
const lastQuery = (o: O) =>
  (o.calls.filter((c) => c.name === 'fetchList').at(-1)?.input as { query: Record<string, unknown> })?.query;

export const PAYOUT_ROW: AdminRow = {
  id: '0b8e6c7a-1f0e-4c59-9d3b-3f8f2b4a6c01',
  storefrontId: '6f1c2a4e-8d0b-4c3a-9e57-2b1d0f9a7c11',
  storefront: 'Pixel Garden',
  owner: 'ada@example.com',
  amount: 12_345,
  state: 'created',
  createdAt: '2026-11-20T10:00:00.000Z',
};
const page = (total: number) => ({ results: [PAYOUT_ROW], total });

export const adminListModel: MachineModel<typeof adminListMachine> = {
  machine: adminListMachine,
  fakes: ['fetchList', 'performAction'],
  scenarios: [{ name: 'payout requests', input: { list: 'payout-requests' } }],
  events: () => [
    { type: 'xstate.done.actor.fetchList', output: page(1) },
    { type: 'xstate.done.actor.fetchList', output: page(120) },
    {
      type: 'xstate.error.actor.fetchList',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
    },
    { type: 'admin.retry' },
    { type: 'admin.search', text: 'pixel' },
    { type: 'admin.status', status: 'created' },
    { type: 'admin.page', page: 2 },
    { type: 'admin.page', page: 1 },
    {
      type: 'admin.act',
      rowId: PAYOUT_ROW.id,
      action: {
        label: 'Approve',
        route: '/payout-requests/{id}',
        id: PAYOUT_ROW.id,
        body: { state: 'approved' },
      },
    },
    { type: 'xstate.done.actor.performAction', output: {} },
    {
      type: 'xstate.error.actor.performAction',
      error: { status: 400, body: { code: 'PAYOUT_STATE', field: 'state', message: '' } },
    },
  ],
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.query,
      s.context.total,
      s.context.action?.label ?? null,
      s.context.error?.code ?? null,
    ]),
  expect: {
    // The page is read with the search, status and page chosen; a new search or status starts at page 1.
    loading: (o) => {
      expectWorking(o, 'fetchList');
      const query = lastQuery(o);
      expect((o.calls.at(-1)!.input as { list: string }).list).toBe('payout-requests');
      if (o.event.type === 'admin.search') expect(query).toMatchObject({ page: 1, searchText: o.event.text });
      if (o.event.type === 'admin.status') expect(query).toMatchObject({ page: 1, status: o.event.status });
      if (o.event.type === 'admin.page') expect(query).toMatchObject({ page: o.event.page });
      if (o.event.type === 'xstate.init') expect(query).toEqual({ page: 1, pageSize: 50 });
      // After a row's action, the same page again.
      if (after(o, 'done', 'performAction'))
        expect(query).toEqual(
          (o.calls.filter((c) => c.name === 'fetchList').at(-2)!.input as { query: unknown }).query,
        );
    },
    ready: (o) => {
      expect(o.snapshot.hasTag('busy')).toBe(false);
      if (after(o, 'done', 'fetchList'))
        expect(o.snapshot.context.total).toBe((o.event.output as { total: number }).total);
      if (after(o, 'error', 'performAction')) expect(o.snapshot.context.error?.code).toBe('PAYOUT_STATE');
    },
    // Only an action the row offers.
    acting: (o) => {
      expect(o.event.type).toBe('admin.act');
      expectWorking(o, 'performAction');
      expect(o.calls.at(-1)!.input).toMatchObject({
        label: 'Approve',
        route: '/payout-requests/{id}',
        id: PAYOUT_ROW.id,
        body: { state: 'approved' },
      });
    },
    failed: (o) => {
      expect(after(o, 'error', 'fetchList')).toBe(true);
      expect(o.snapshot.context.error?.code).toBe('NETWORK_FAILURE');
    },
  },
};
