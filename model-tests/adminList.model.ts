import type { AdminRow } from '#domain/admin';
import { adminListMachine } from '../machines/adminList';
import type { MachineModel } from './harness';

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
};
