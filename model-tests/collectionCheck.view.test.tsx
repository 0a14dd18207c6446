import { act, render, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectCollectionCheck } from '../machines/collectionCheck';
import { CollectionPanelView } from '../src/views/settings/WalletSettings';
import { collectionCheckModel } from './collectionCheck.model';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';

/** Collection check paths through Settings → Wallet's collection panel. */
const buttons: Record<string, string> = {
  'collection.setup': 'Set up collection',
  'collection.retry': 'Try again',
};

async function perform(step: PathStep) {
  const name = buttons[step.event.type];
  return name ? clickFirst(name) : false;
}

function check(expected: AnyMachineSnapshot) {
  const view = connectCollectionCheck(expected as never, () => {});
  const panel = document.querySelector<HTMLElement>('[data-step]')!;
  expect(panel.dataset.step).toBe(view.step);
  expect(panel.getAttribute('aria-busy')).toBe(String(view.busy));
  expect(panel.textContent).toContain(view.text);
  const setup = screen.queryByRole('button', { name: 'Set up collection' }) as HTMLButtonElement | null;
  expect(setup === null).toBe(view.setup === null);
  if (setup && view.setup) expect(setup.getAttribute('aria-busy') === 'true').toBe(view.setup.loading);
  expect(!!screen.queryByRole('button', { name: 'Try again' })).toBe(view.canRetry);
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  expect(alerts).toEqual(view.error ? [view.error] : []);
}

describe('collection check paths through the view', () => {
  for (const path of coveringPaths(collectionCheckModel)) {
    it(path.description, () =>
      runPath(collectionCheckModel, path, {
        mount: (actor: AnyActorRef) => {
          render(<CollectionPanelView actor={actor as never} />);
        },
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
