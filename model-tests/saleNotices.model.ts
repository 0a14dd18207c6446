import { type SaleNotice, saleNoticesMachine } from '../machines/saleNotices';
import { makeUser } from './fixtures';
import type { MachineModel } from './harness';

export const NOTICE: SaleNotice = {
  id: '5d0b8a3e-9c1f-4a57-8e2d-1b3c4d5e6f70',
  kind: 'sale',
  title: 'Harbor Lights',
  serialNumber: 3,
  amount: 2500,
  net: 2125,
  read: false,
  createdAt: '2026-11-20T10:00:00.000Z',
};

export const saleNoticesModel: MachineModel<typeof saleNoticesMachine> = {
  machine: saleNoticesMachine,
  fakes: ['fetchNotices', 'markRead', 'saveSaleEmails'],
  scenarios: [{ name: 'sale emails on', input: { saleEmails: true } }],
  events: () => [
    { type: 'xstate.done.actor.fetchNotices', output: { results: [NOTICE], unread: 1 } },
    { type: 'xstate.done.actor.fetchNotices', output: { results: [], unread: 0 } },
    {
      type: 'xstate.error.actor.fetchNotices',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
    },
    { type: 'notices.retry' },
    { type: 'notices.read' },
    { type: 'xstate.done.actor.markRead', output: {} },
    {
      type: 'xstate.error.actor.markRead',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
    },
    { type: 'notices.emails.toggle' },
    { type: 'xstate.done.actor.saveSaleEmails', output: { user: makeUser({ saleEmails: false }) } },
    { type: 'xstate.done.actor.saveSaleEmails', output: { user: makeUser({ saleEmails: true }) } },
    {
      type: 'xstate.error.actor.saveSaleEmails',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
    },
  ],
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.unread,
      s.context.notices.length,
      s.context.saleEmails,
      s.context.error?.code ?? null,
    ]),
};
