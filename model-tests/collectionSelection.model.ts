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
};
