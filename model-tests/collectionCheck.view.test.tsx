import { act, render, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '#domain/errors';
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
  const panel = document.querySelector<HTMLElement>('[data-step]')!;
  expect(panel.dataset.step).toBe(expected.value);
  expect(panel.getAttribute('aria-busy')).toBe(String(expected.hasTag('busy')));
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  if (expected.context.error) expect(alerts).toContain(errorMessage(expected.context.error));
  else expect(alerts).toEqual([]);
  if (expected.matches('required')) expect(screen.getByText(/Collection required/)).toBeTruthy();
  if (expected.matches('ready')) expect(screen.getByText(/Your collection is ready/)).toBeTruthy();
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
