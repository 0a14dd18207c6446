import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { clientErrorTexts } from '#domain/apiError';
import { formatUsd } from '#domain/money';
import type { PayoutsPage } from '#domain/sales';
import { connectPayout, payoutMachine } from '../machines/payout';
import { after, eventsOf, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof payoutMachine>;
const view = (o: O) => connectPayout(o.snapshot, () => {});
/** The page as loaded last (the list stays on screen while it loads again). */
const lastList = (o: O) =>
  eventsOf(o, 'xstate.done.actor.loadPayouts').at(-1)?.output as PayoutsPage | undefined;
const dollars = (cents: number) => (cents / 100).toFixed(2);

export const OPEN_ID = '3c1a9f0e-5b7d-4e2a-9c61-0d8e7f6a5b41';
export const PAID_ID = '8e2b7c6d-1a0f-4b39-8d25-6c4e3f2a1b09';

const paid = { id: PAID_ID, amount: 2000, state: 'payed' as const, createdAt: '2026-02-01T10:00:00.000Z' };
/** $25 available, and a request still open (created): no new request, the open one can be cancelled. */
export const LIST_OPEN: PayoutsPage = {
  results: [{ id: OPEN_ID, amount: 1500, state: 'created', createdAt: '2026-03-01T10:00:00.000Z' }, paid],
  total: 2,
  page: 1,
  pageSize: 100,
  available: 2500,
  minimum: 1000,
};
/** $50 available, nothing open: a request may be made. */
export const LIST_FUNDS: PayoutsPage = {
  results: [paid],
  total: 1,
  page: 1,
  pageSize: 100,
  available: 5000,
  minimum: 1000,
};
/** $5 available: below the minimum. */
export const LIST_LOW: PayoutsPage = {
  results: [],
  total: 0,
  page: 1,
  pageSize: 100,
  available: 500,
  minimum: 1000,
};

/** Only what the state shows: the form's amount and errors only where they are on screen. */
export function serializePayout(s: AnyMachineSnapshot) {
  const value = s.value as string;
  const c = s.context as {
    requests: Array<{ id: string; state: string }>;
    available: number;
    amount: string;
    cancelId: string | null;
    error: { code: string; field?: string; message: string } | null;
    failure: string | null;
  };
  const form = value === 'requesting' || value === 'submitting';
  const shownError = form || value === 'failed' || value === 'loadFailed';
  return JSON.stringify([
    value,
    c.available,
    c.requests.map((r) => `${r.id.slice(0, 4)}:${r.state}`),
    form ? c.amount : null,
    value === 'confirmingCancel' || value === 'cancelling' ? c.cancelId : null,
    shownError && c.error ? [c.error.code, c.error.field ?? null, c.error.message] : null,
    value === 'failed' ? c.failure : null,
  ]);
}

export const payoutModel: MachineModel<typeof payoutMachine> = {
  machine: payoutMachine,
  fakes: ['loadPayouts', 'createPayout', 'cancelPayout'],
  scenarios: [{ name: 'a creator' }],
  events: () => [
    { type: 'payout.request' },
    { type: 'payout.submit', amount: '25.50' },
    { type: 'payout.submit', amount: '5' },
    { type: 'payout.submit', amount: '60' },
    { type: 'payout.submit', amount: 'ten dollars' },
    { type: 'payout.close' },
    { type: 'payout.cancel', id: OPEN_ID },
    { type: 'payout.cancel', id: PAID_ID },
    { type: 'payout.cancel.confirm' },
    { type: 'payout.dismiss' },
    { type: 'payout.retry' },
    { type: 'xstate.done.actor.loadPayouts', output: LIST_OPEN },
    { type: 'xstate.done.actor.loadPayouts', output: LIST_FUNDS },
    { type: 'xstate.done.actor.loadPayouts', output: LIST_LOW },
    {
      type: 'xstate.error.actor.loadPayouts',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error.' } },
    },
    {
      type: 'xstate.done.actor.createPayout',
      output: { id: OPEN_ID, amount: 2550, state: 'created', createdAt: '2026-03-02T10:00:00.000Z' },
    },
    {
      type: 'xstate.error.actor.createPayout',
      error: { status: 400, body: { code: 'PAYOUT_PENDING', message: 'Payout request already pending' } },
    },
    // A failure without a message: errors.default (with one, the server's message).
    {
      type: 'xstate.error.actor.createPayout',
      error: { status: 502, body: { code: 'unknown', message: '' } },
    },
    {
      type: 'xstate.done.actor.cancelPayout',
      output: { id: OPEN_ID, amount: 1500, state: 'cancelled', createdAt: '2026-03-01T10:00:00.000Z' },
    },
    {
      type: 'xstate.error.actor.cancelPayout',
      error: {
        status: 400,
        body: { code: 'PAYOUT_NOT_CANCELLABLE', message: 'This payout request is already being processed.' },
      },
    },
  ],
  serializeState: serializePayout,
  expect: {
    // The list as the server sent it last, with the funds and why a request is or is not possible.
    '#busy': (o) => expect(view(o).busy).toBe(true),
    loading: (o) => {
      expectWorking(o, 'loadPayouts');
      expect(view(o).panel).toBe(lastList(o) ? 'list' : 'loading');
    },
    loadFailed: (o) => {
      expect(view(o)).toMatchObject({ panel: 'loadFailed', loadError: 'Unknown connection error.' });
    },
    ready: (o) => {
      const page = lastList(o)!;
      const v = view(o);
      expect(v).toMatchObject({ panel: 'list', busy: false, form: null, confirmCancel: null, failure: null });
      expect(v.available).toBe(formatUsd(page.available));
      expect(v.rows.map((r) => r.id)).toEqual(page.results.map((r) => r.id));
      // At least the minimum available and no request open (created or pending).
      const open = page.results.some((r) => r.state === 'created' || r.state === 'pending');
      expect(!v.getRequestButtonProps().disabled).toBe(page.available >= page.minimum && !open);
      // Only a request still in state created can be cancelled.
      for (const row of v.rows) expect(row.cancel?.enabled ?? false).toBe(row.state === 'created');
    },
    // The form opens with the available funds; an amount below $10 or above the funds is refused.
    requesting: (o) => {
      const page = lastList(o)!;
      const form = view(o).form!;
      if (o.event.type === 'payout.request')
        expect(form).toMatchObject({ amount: dollars(page.available), error: null });
      if (o.event.type === 'payout.submit') {
        expect(form.amount).toBe(o.event.amount);
        const cents = Math.round(Number(o.event.amount) * 100);
        expect(Number.isNaN(cents) || cents < 1000 || cents > page.available).toBe(true);
        expect(form.error).toBeTruthy();
      }
    },
    submitting: (o) => {
      const typed = o.event.amount as string;
      expect(o.event.type).toBe('payout.submit');
      expectWorking(o, 'createPayout', { amount: Math.round(Number(typed) * 100) });
      expect(view(o).form).toMatchObject({ amount: typed, submitting: true, error: null });
    },
    confirmingCancel: (o) => {
      expect(o.event).toEqual({ type: 'payout.cancel', id: OPEN_ID });
      expect(view(o).confirmCancel).toEqual({
        message: `The request of ${formatUsd(1500)} will be cancelled and the amount becomes available again.`,
        busy: false,
      });
    },
    cancelling: (o) => {
      expect(o.event.type).toBe('payout.cancel.confirm');
      expectWorking(o, 'cancelPayout', { id: OPEN_ID });
      expect(view(o).confirmCancel?.busy).toBe(true);
    },
    // The server's message, else the default text; dismissing loads the list again.
    failed: (o) => {
      const body = (o.event.error as { body: { message: string } }).body;
      const title = after(o, 'error', 'cancelPayout')
        ? 'The request was not cancelled'
        : 'The payout was not requested';
      expect(view(o).failure).toEqual({ title, message: body.message || clientErrorTexts['errors.default'] });
    },
  },
};
