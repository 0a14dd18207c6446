import type { AnyMachineSnapshot } from 'xstate';
import type { PayoutsPage } from '#domain/sales';
import { payoutMachine } from '../machines/payout';
import type { MachineModel } from './harness';

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
};
