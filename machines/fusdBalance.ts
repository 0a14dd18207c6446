import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd } from '#domain/money';

/**
 * A wallet's FUSD balance as Settings → Wallet shows it: read from the chain at once, and read again
 * on Refresh (the page refreshes it too when a top-up's FUSD has arrived). While it is read again,
 * the last balance stays shown. A read that fails says why; Refresh tries again.
 */
export interface FusdBalanceInput {
  address: string;
}
export interface FusdBalanceContext extends FusdBalanceInput {
  /** Cents, once read. */
  balance: number | null;
  error: ApiErrorBody | null;
}
export type FusdBalanceEvent = { type: 'balance.refresh' };

export const fusdBalanceMachine = setup({
  types: {
    context: {} as FusdBalanceContext,
    events: {} as FusdBalanceEvent,
    input: {} as FusdBalanceInput,
    tags: {} as 'busy',
  },
  actors: {
    /** The wallet's FUSD balance, in cents (a chain script). */
    readBalance: fromPromise<number, { address: string }>(async () => {
      throw new Error('readBalance not provided');
    }),
  },
}).createMachine({
  id: 'fusdBalance',
  context: ({ input }) => ({ address: input.address, balance: null, error: null }),
  initial: 'reading',
  states: {
    reading: {
      tags: ['busy'],
      invoke: {
        id: 'readBalance',
        src: 'readBalance',
        input: ({ context }) => ({ address: context.address }),
        onDone: { target: 'shown', actions: assign({ balance: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    shown: { on: { 'balance.refresh': 'reading' } },
    failed: { on: { 'balance.refresh': 'reading' } },
  },
});

export interface FusdBalanceView {
  /** "FUSD balance". */
  label: string;
  /** "$25 FUSD"; "Reading…" before the first read; "—" when it could not be read. */
  value: string;
  busy: boolean;
  error: string | null;
  canRefresh: boolean;
  /** "Refresh". */
  refreshLabel: string;
  refresh: () => void;
}

export function connectFusdBalance(
  snapshot: SnapshotFrom<typeof fusdBalanceMachine>,
  send: (event: FusdBalanceEvent) => void,
): FusdBalanceView {
  const { balance, error } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  return {
    label: 'FUSD balance',
    value: balance !== null ? `${formatUsd(balance)} FUSD` : busy ? 'Reading…' : '—',
    busy,
    error: error ? errorMessage(error) : null,
    canRefresh: snapshot.can({ type: 'balance.refresh' }),
    refreshLabel: 'Refresh',
    refresh: () => send({ type: 'balance.refresh' }),
  };
}
