import { expect } from 'vitest';
import { connectProductActions, productActionsMachine } from '../machines/productActions';
import { expectWorking } from './expect';
import { makeBlueprint } from './fixtures';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof productActionsMachine>;
const view = (o: O) => connectProductActions(o.snapshot, () => {});

export const activeItem = makeBlueprint({ state: 'active' });
export const hiddenItem = makeBlueprint({
  id: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  title: 'Dawn Loop',
  state: 'soldOut',
  visible: false,
});
const target = (b: typeof activeItem) => ({ id: b.id, title: b.title });

export const productActionsModel: MachineModel<typeof productActionsMachine> = {
  machine: productActionsMachine,
  fakes: ['updateProduct'],
  scenarios: [{ name: 'the products list' }],
  events: () => [
    { type: 'product.hide', target: target(activeItem) },
    { type: 'product.show', target: target(hiddenItem) },
    { type: 'product.cancel', target: target(activeItem) },
    { type: 'product.cancel.confirm' },
    { type: 'product.cancel.dismiss' },
    { type: 'product.error.dismiss' },
    { type: 'xstate.done.actor.updateProduct', output: activeItem },
    {
      type: 'xstate.error.actor.updateProduct',
      error: { status: 400, body: { code: 'BLUEPRINT_STATE', field: 'state', message: '' } },
    },
  ],
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.target?.id ?? null, s.context.change, s.context.error?.code ?? null]),
  expect: {
    idle: (o) => {
      expect(view(o)).toMatchObject({ busy: false, confirmCancel: null, error: null });
    },
    // Cancel asks first, naming the item.
    confirmingCancel: (o) => {
      expect(o.event.type).toBe('product.cancel');
      expect(view(o).confirmCancel).toEqual({ title: activeItem.title, busy: false });
    },
    // Hide and show are sent at once; a cancel once confirmed.
    updating: (o) => {
      const by = o.event.type;
      const change =
        by === 'product.hide'
          ? { visible: false }
          : by === 'product.show'
            ? { visible: true }
            : { state: 'canceled' };
      if (by === 'product.cancel.confirm') expect(o.before.value).toBe('confirmingCancel');
      else expect(['product.hide', 'product.show']).toContain(by);
      const item = by === 'product.show' ? hiddenItem : activeItem;
      expectWorking(o, 'updateProduct', { id: item.id, change });
      expect(view(o).busy).toBe(true);
    },
    // The error stays until dismissed.
    failed: (o) => {
      expect(o.event.type).toBe('xstate.error.actor.updateProduct');
      expect(view(o).error).toBeTruthy();
    },
  },
};
