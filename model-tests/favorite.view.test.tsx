import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, createActor, createMachine } from 'xstate';
import { connectFavorite } from '../machines/favorite';
import { type AppActors, AppContext } from '../src/views/AppContext';
import { FavoriteHeart } from '../src/views/catalog/FavoriteHeart';
import { HeartView } from '../src/views/catalog/HeartButton';
import { flushCoverage } from './coverage-store';
import { favoriteModel } from './favorite.model';
import { makeUser } from './fixtures';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';

/** Heart paths: a press is a click on the heart, whatever its name says now. */
async function perform(step: PathStep) {
  if (step.event.type !== 'favorite.toggle') return false;
  const heart = screen.getByRole<HTMLButtonElement>('button');
  if (heart.disabled) return false;
  heart.click();
  return true;
}

/** The heart shows what the view model of the expected snapshot says. */
function check(expected: AnyMachineSnapshot) {
  const view = connectFavorite(expected as never, () => {});
  const heart = screen.getByRole<HTMLButtonElement>('button', { name: view.label });
  expect(heart.getAttribute('aria-pressed')).toBe(String(view.favorited));
  expect(heart.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  expect(heart.disabled).toBe(view.busy);
  expect(screen.queryAllByRole('alert').map((a) => a.textContent)).toEqual(view.error ? [view.error] : []);
}

describe('favorite paths through the heart', () => {
  for (const path of coveringPaths(favoriteModel)) {
    it(path.description, () =>
      runPath(favoriteModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <HeartView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});

describe('the heart on a page whose favorite flow fails to load', () => {
  for (const [name, flows] of [
    [
      'throws at once',
      {
        favorite: () => {
          throw new TypeError('no favorite flow');
        },
        favoriteIds: async () => new Set(),
      },
    ],
    [
      'rejects',
      {
        favorite: async () => {
          throw new Error('offline');
        },
        favoriteIds: async () => new Set(),
      },
    ],
    ['is missing', {}],
  ] as const) {
    it(`stays a plain heart when the flow ${name}, and the page around it renders`, async () => {
      const session = createActor(createMachine({ context: { user: makeUser({ id: 'u-1' }) } })).start();
      const app = { session, flows } as unknown as AppActors;
      renderWithRouter(() => (
        <AppContext.Provider value={app}>
          <h1>Night Market</h1>
          <FavoriteHeart blueprintId="bp-1" />
        </AppContext.Provider>
      ));
      expect(await screen.findByRole('heading', { name: 'Night Market' })).toBeTruthy();
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 0));
      });
      const heart = screen.getByRole<HTMLButtonElement>('button', { name: 'Save to favorites' });
      expect(heart.getAttribute('aria-pressed')).toBe('false');
      expect(screen.getByRole('heading', { name: 'Night Market' })).toBeTruthy();
    });
  }
});
