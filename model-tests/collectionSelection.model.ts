import { expect } from 'vitest';
import { collectionSelectionMachine } from '../machines/collectionSelection';
import type { MachineModel } from './harness';

/** Three collectibles: two can be sent, the third is listed for sale. */
export const SELECTION_IDS = { first: '41', second: '42', listed: '43' } as const;

export const collectionSelectionModel: MachineModel<typeof collectionSelectionMachine> = {
  machine: collectionSelectionMachine,
  scenarios: [
    {
      name: 'two transferable of three',
      input: { transferable: [SELECTION_IDS.first, SELECTION_IDS.second] },
    },
    { name: 'nothing transferable', input: { transferable: [] } },
  ],
  events: () => [
    { type: 'selection.start' },
    { type: 'selection.toggle', id: SELECTION_IDS.first },
    { type: 'selection.toggle', id: SELECTION_IDS.second },
    { type: 'selection.toggle', id: SELECTION_IDS.listed },
    { type: 'selection.cancel' },
    { type: 'selection.transfer' },
    { type: 'selection.transfer.end', changed: true },
    { type: 'selection.transfer.end', changed: false },
  ],
  serializeState: (s) => JSON.stringify([s.value, [...s.context.selected].sort()]),
  expect: {
    // Nothing ticked outside a selection.
    browsing: (o) => {
      expect(o.snapshot.context.selected).toEqual([]);
      if (o.event.type === 'selection.transfer.end') expect(o.event.changed).toBe(true);
    },
    // Only transferable collectibles can be ticked (a listed one cannot).
    selecting: (o) => {
      const { selected, transferable } = o.snapshot.context;
      expect(transferable.length).toBeGreaterThan(0);
      for (const id of selected) expect(transferable).toContain(id);
      if (o.event.type === 'selection.toggle' && transferable.includes(o.event.id as string))
        expect(selected.includes(o.event.id as string)).toBe(
          !o.before.context.selected.includes(o.event.id as string),
        );
      // A transfer that changed nothing keeps the selection.
      if (o.event.type === 'selection.transfer.end') {
        expect(o.event.changed).toBe(false);
        expect(selected).toEqual(o.before.context.selected);
      }
    },
    transferring: (o) => {
      expect(o.event.type).toBe('selection.transfer');
      expect(o.snapshot.context.selected.length).toBeGreaterThan(0);
    },
  },
};
