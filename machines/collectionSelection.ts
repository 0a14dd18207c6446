import { assign, type SnapshotFrom, setup } from 'xstate';

/**
 * Select and transfer, on the profile's collection: the owner starts a selection, ticks the
 * collectibles to send (only those neither listed for sale nor still minting), and opens the transfer
 * dialog for them. A transfer that went through ends the selection; one closed before keeps it.
 */
export interface CollectionSelectionInput {
  /** The ids of the owner's collectibles that can be transferred. */
  transferable: string[];
}
export interface CollectionSelectionContext extends CollectionSelectionInput {
  selected: string[];
}
export type CollectionSelectionEvent =
  | { type: 'selection.start' }
  | { type: 'selection.toggle'; id: string }
  | { type: 'selection.cancel' }
  | { type: 'selection.transfer' }
  /** The transfer dialog's flow is over (its output): `changed` when the collectibles left. */
  | { type: 'selection.transfer.end'; changed: boolean };

export const collectionSelectionMachine = setup({
  types: {
    context: {} as CollectionSelectionContext,
    events: {} as CollectionSelectionEvent,
    input: {} as CollectionSelectionInput,
  },
  guards: {
    anyTransferable: ({ context }) => context.transferable.length > 0,
    transferable: ({ context }, id: string) => context.transferable.includes(id),
    anySelected: ({ context }) => context.selected.length > 0,
    transferred: (_, changed: boolean) => changed,
  },
  actions: {
    toggle: assign({
      selected: ({ context }, id: string) =>
        context.selected.includes(id) ? context.selected.filter((x) => x !== id) : [...context.selected, id],
    }),
    clear: assign({ selected: [] }),
  },
}).createMachine({
  id: 'collectionSelection',
  context: ({ input }) => ({ transferable: input.transferable, selected: [] }),
  initial: 'browsing',
  states: {
    /** The collection as cards that open the viewer. */
    browsing: {
      on: { 'selection.start': { guard: 'anyTransferable', target: 'selecting' } },
    },
    /** Cards with checkboxes; transfer what is ticked. */
    selecting: {
      on: {
        'selection.toggle': {
          guard: { type: 'transferable', params: ({ event }) => event.id },
          actions: { type: 'toggle', params: ({ event }) => event.id },
        },
        'selection.cancel': { target: 'browsing', actions: 'clear' },
        'selection.transfer': { guard: 'anySelected', target: 'transferring' },
      },
    },
    /** The transfer dialog is open for the selection. */
    transferring: {
      on: {
        'selection.transfer.end': [
          {
            guard: { type: 'transferred', params: ({ event }) => event.changed },
            target: 'browsing',
            actions: 'clear',
          },
          { target: 'selecting' },
        ],
      },
    },
  },
});

export interface CollectionSelectionView {
  /** Checkboxes on the cards. */
  selecting: boolean;
  /** "Select to transfer" is offered. */
  canStart: boolean;
  transferLabel: string;
  canTransfer: boolean;
  /** The ids the transfer dialog sends, while it is open. */
  transferring: string[] | null;
  isSelected: (id: string) => boolean;
  isTransferable: (id: string) => boolean;
  start: () => void;
  toggle: (id: string) => void;
  cancel: () => void;
  transfer: () => void;
  transferEnded: (changed: boolean) => void;
}

export function connectCollectionSelection(
  snapshot: SnapshotFrom<typeof collectionSelectionMachine>,
  send: (event: CollectionSelectionEvent) => void,
): CollectionSelectionView {
  const { selected, transferable } = snapshot.context;
  const transferring = snapshot.matches('transferring');
  return {
    selecting: snapshot.matches('selecting') || transferring,
    canStart: snapshot.can({ type: 'selection.start' }),
    transferLabel: `Transfer selected (${selected.length})`,
    canTransfer: snapshot.can({ type: 'selection.transfer' }),
    transferring: transferring ? selected : null,
    isSelected: (id) => selected.includes(id),
    isTransferable: (id) => transferable.includes(id),
    start: () => send({ type: 'selection.start' }),
    toggle: (id) => send({ type: 'selection.toggle', id }),
    cancel: () => send({ type: 'selection.cancel' }),
    transfer: () => send({ type: 'selection.transfer' }),
    transferEnded: (changed) => send({ type: 'selection.transfer.end', changed }),
  };
}
