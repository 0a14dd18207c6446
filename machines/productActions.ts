import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import type { BlueprintJson } from '#domain/catalog';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';

/**
 * Hide, show and cancel in the products list: hide/show toggles `visible` at once; cancelling a sale
 * is permanent, so it asks for confirmation first, then sets the state to canceled.
 */
export interface ProductTarget {
  id: string;
  title: string;
}
export interface ProductActionsContext {
  target: ProductTarget | null;
  change: { visible: boolean } | { state: 'canceled' } | null;
  error: ApiErrorBody | null;
}
export type ProductActionsEvent =
  | { type: 'product.hide'; target: ProductTarget }
  | { type: 'product.show'; target: ProductTarget }
  | { type: 'product.cancel'; target: ProductTarget }
  | { type: 'product.cancel.confirm' }
  | { type: 'product.cancel.dismiss' }
  | { type: 'product.error.dismiss' };
export interface UpdateProductInput {
  id: string;
  change: { visible: boolean } | { state: 'canceled' };
}

export const productActionsMachine = setup({
  types: {
    context: {} as ProductActionsContext,
    events: {} as ProductActionsEvent,
    tags: {} as 'busy',
  },
  actors: {
    /** PATCH blueprints/{id} with visible or state. */
    updateProduct: fromPromise<BlueprintJson, UpdateProductInput>(async () => {
      throw new Error('updateProduct not provided');
    }),
  },
  actions: {
    /** Tells the page a product changed (reload the list, toast). */
    announceChanged: (_, _params: { blueprint: BlueprintJson }) => {},
  },
}).createMachine({
  id: 'productActions',
  context: { target: null, change: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'product.hide': {
          target: 'updating',
          actions: assign({ target: ({ event }) => event.target, change: { visible: false } }),
        },
        'product.show': {
          target: 'updating',
          actions: assign({ target: ({ event }) => event.target, change: { visible: true } }),
        },
        'product.cancel': {
          target: 'confirmingCancel',
          actions: assign({ target: ({ event }) => event.target, change: { state: 'canceled' as const } }),
        },
      },
    },
    confirmingCancel: {
      on: {
        'product.cancel.confirm': 'updating',
        'product.cancel.dismiss': {
          target: 'idle',
          actions: assign({ target: null, change: null }),
        },
      },
    },
    updating: {
      tags: 'busy',
      invoke: {
        id: 'updateProduct',
        src: 'updateProduct',
        input: ({ context }) => ({ id: context.target!.id, change: context.change! }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'announceChanged', params: ({ event }) => ({ blueprint: event.output }) },
            assign({ target: null, change: null }),
          ],
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
        },
      },
    },
    failed: {
      on: {
        'product.error.dismiss': {
          target: 'idle',
          actions: assign({ target: null, change: null, error: null }),
        },
      },
    },
  },
});

/** What the products list adds for these actions: the cancel confirmation and a refusal. */
export interface ProductActionsView {
  /** The cancel confirmation, open while it asks and while the cancellation runs. */
  confirmCancel: { title: string; busy: boolean } | null;
  busy: boolean;
  error: string | null;
  hide: (target: ProductTarget) => void;
  show: (target: ProductTarget) => void;
  cancel: (target: ProductTarget) => void;
  confirm: () => void;
  dismiss: () => void;
  dismissError: () => void;
}

export function connectProductActions(
  snapshot: SnapshotFrom<typeof productActionsMachine>,
  send: (event: ProductActionsEvent) => void,
): ProductActionsView {
  const { target, change, error } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  const cancelling = change !== null && 'state' in change;
  const asking = snapshot.can({ type: 'product.cancel.confirm' });
  const failed = snapshot.can({ type: 'product.error.dismiss' });
  return {
    confirmCancel: (asking || (busy && cancelling)) && target ? { title: target.title, busy } : null,
    busy,
    error: failed ? errorMessage(error) : null,
    hide: (t) => send({ type: 'product.hide', target: t }),
    show: (t) => send({ type: 'product.show', target: t }),
    cancel: (t) => send({ type: 'product.cancel', target: t }),
    confirm: () => send({ type: 'product.cancel.confirm' }),
    dismiss: () => send({ type: 'product.cancel.dismiss' }),
    dismissError: () => send({ type: 'product.error.dismiss' }),
  };
}
