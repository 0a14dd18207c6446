import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, toErrorBody } from '#domain/errors';
import { payoutFailureText } from '#domain/sales';

/**
 * "Export CSV" of the dashboard's Sales: the payout ledger of the storefront (GET sales/ledger.csv)
 * is fetched with the session's token and handed to the browser as a file. A failure shows its
 * message until dismissed or tried again.
 */
export interface LedgerExportInput {
  storefrontId: string;
}
export interface LedgerExportContext extends LedgerExportInput {
  error: ApiErrorBody | null;
}
export type LedgerExportEvent = { type: 'ledger.export' } | { type: 'ledger.dismiss' };

export const ledgerExportMachine = setup({
  types: {
    context: {} as LedgerExportContext,
    events: {} as LedgerExportEvent,
    input: {} as LedgerExportInput,
    tags: {} as 'busy',
  },
  actors: {
    /** GET sales/ledger.csv, saved as a file. */
    exportLedger: fromPromise<unknown, { storefrontId: string }>(async () => {
      throw new Error('exportLedger not provided');
    }),
  },
  actions: {
    /** Tells the page the file was saved (toast). */
    announceExported: () => {},
  },
}).createMachine({
  id: 'ledgerExport',
  context: ({ input }) => ({ ...input, error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'ledger.export': 'exporting' },
    },
    exporting: {
      tags: ['busy'],
      invoke: {
        id: 'exportLedger',
        src: 'exportLedger',
        input: ({ context }) => ({ storefrontId: context.storefrontId }),
        onDone: { target: 'idle', actions: 'announceExported' },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    failed: {
      on: {
        'ledger.export': { target: 'exporting', actions: assign({ error: null }) },
        'ledger.dismiss': { target: 'idle', actions: assign({ error: null }) },
      },
    },
  },
});

/** What "Export CSV" shows: the button while the file is made, and a refusal until dismissed. */
export interface LedgerExportView {
  busy: boolean;
  canExport: boolean;
  /** The refusal's text (the server's message, else the default one). */
  error: string | null;
  canDismiss: boolean;
  export: () => void;
  dismiss: () => void;
}

export function connectLedgerExport(
  snapshot: SnapshotFrom<typeof ledgerExportMachine>,
  send: (event: LedgerExportEvent) => void,
): LedgerExportView {
  const canDismiss = snapshot.can({ type: 'ledger.dismiss' });
  return {
    busy: snapshot.hasTag('busy'),
    canExport: snapshot.can({ type: 'ledger.export' }),
    error: canDismiss ? payoutFailureText(snapshot.context.error) : null,
    canDismiss,
    export: () => send({ type: 'ledger.export' }),
    dismiss: () => send({ type: 'ledger.dismiss' }),
  };
}
