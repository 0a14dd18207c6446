import { expect } from 'vitest';
import { type SaleNotice, saleNoticesMachine } from '../machines/saleNotices';
import { after, expectWorking } from './expect';
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
    { type: 'notices.emails.toggle', list: 'favorite' },
    { type: 'xstate.done.actor.saveSaleEmails', output: { user: makeUser({ saleEmails: false }) } },
    { type: 'xstate.done.actor.saveSaleEmails', output: { user: makeUser({ saleEmails: true }) } },
    {
      type: 'xstate.done.actor.saveSaleEmails',
      output: { user: makeUser({ saleEmails: true, favoriteEmails: false }) },
    },
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
      s.context.favoriteEmails,
      s.context.toggling,
      s.context.error?.code ?? null,
    ]),
  expect: {
    loading: (o) => expectWorking(o, 'fetchNotices'),
    failed: (o) => expect(after(o, 'error', 'fetchNotices')).toBe(true),
    ready: (o) => {
      const c = o.snapshot.context;
      if (after(o, 'done', 'fetchNotices'))
        expect(c.unread).toBe((o.event.output as { unread: number }).unread);
      // Mark all read: every notice read, none unread.
      if (after(o, 'done', 'markRead')) {
        expect(c.unread).toBe(0);
        expect(c.notices.every((n) => n.read)).toBe(true);
      }
      if (after(o, 'done', 'saveSaleEmails')) {
        const { user } = o.event.output as { user: { saleEmails: boolean; favoriteEmails?: boolean } };
        expect(c.saleEmails).toBe(user.saleEmails);
        expect(c.favoriteEmails).toBe(user.favoriteEmails ?? o.before.context.favoriteEmails);
      }
      if (after(o, 'error', 'markRead') || after(o, 'error', 'saveSaleEmails'))
        expect(c.error).not.toBeNull();
    },
    marking: (o) => {
      expect(o.event.type).toBe('notices.read');
      expect(o.before.context.unread).toBeGreaterThan(0);
      expectWorking(o, 'markRead');
    },
    // A switch sends the opposite of what the account has, for its list only.
    savingEmails: (o) => {
      expect(o.event.type).toBe('notices.emails.toggle');
      const c = o.snapshot.context;
      expectWorking(
        o,
        'saveSaleEmails',
        o.event.list === 'favorite' ? { favoriteEmails: !c.favoriteEmails } : { saleEmails: !c.saleEmails },
      );
    },
  },
};
