import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectFavorite } from '../machines/favorite';
import { HeartView } from '../src/views/catalog/HeartButton';
import { flushCoverage } from './coverage-store';
import { favoriteModel } from './favorite.model';
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
