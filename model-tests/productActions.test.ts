import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { productActionsMachine } from '../machines/productActions';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { activeItem, productActionsModel } from './productActions.model';

describe('productActions machine paths', () => {
  const paths = generatePaths(productActionsModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(3));
  for (const path of paths) it(path.description, () => runPath(productActionsModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('productActions requests', () => {
  it('hides with visible false and cancels with state canceled after the confirmation', async () => {
    const calls: unknown[] = [];
    const changed: string[] = [];
    const actor = createActor(
      productActionsMachine.provide({
        actors: {
          updateProduct: fromPromise(async ({ input }) => {
            calls.push(input);
            return activeItem;
          }),
        },
        actions: { announceChanged: (_, { blueprint }) => changed.push(blueprint.id) },
      }),
    ).start();
    const target = { id: activeItem.id, title: activeItem.title };
    actor.send({ type: 'product.hide', target });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'product.cancel', target });
    expect(calls).toHaveLength(1);
    actor.send({ type: 'product.cancel.confirm' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(calls).toEqual([
      { id: activeItem.id, change: { visible: false } },
      { id: activeItem.id, change: { state: 'canceled' } },
    ]);
    expect(changed).toEqual([activeItem.id, activeItem.id]);
  });
});
