import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { connectFavorite, favoriteMachine } from '../machines/favorite';
import { flushCoverage } from './coverage-store';
import { favoriteModel } from './favorite.model';
import { generatePaths, runPath } from './harness';

describe('favorite machine paths', () => {
  const paths = generatePaths(favoriteModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(favoriteModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('favorite', () => {
  it('a visitor’s press opens the sign-in prompt and saves nothing', () => {
    const prompts: unknown[] = [];
    const saves: unknown[] = [];
    const actor = createActor(
      favoriteMachine.provide({
        actors: { saveFavorite: fromPromise(async ({ input }) => saves.push(input)) },
        actions: { promptSignIn: () => prompts.push('prompt') },
      }),
      { input: { blueprintId: 'b', favorited: false, signedIn: false } },
    ).start();
    connectFavorite(actor.getSnapshot(), (e) => actor.send(e))
      .getHeartButtonProps()
      .onClick?.();
    expect([prompts, saves, actor.getSnapshot().value]).toEqual([['prompt'], [], 'idle']);
  });

  it('a signed-in press saves, and tells the app’s favorite ids once the server holds it', async () => {
    const announced: unknown[] = [];
    const actor = createActor(
      favoriteMachine.provide({
        actors: {
          saveFavorite: fromPromise<unknown, { blueprintId: string; favorited: boolean }>(
            async () => undefined,
          ),
        },
        actions: { announceSaved: (_, params) => announced.push(params) },
      }),
      { input: { blueprintId: 'b', favorited: false, signedIn: true } },
    ).start();
    actor.send({ type: 'favorite.toggle' });
    expect(connectFavorite(actor.getSnapshot(), () => {}).favorited).toBe(true);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(announced).toEqual([{ blueprintId: 'b', favorited: true }]);
  });
});
