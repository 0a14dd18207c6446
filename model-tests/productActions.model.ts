import { productActionsMachine } from '../machines/productActions';
import { makeBlueprint } from './fixtures';
import type { MachineModel } from './harness';

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
};
