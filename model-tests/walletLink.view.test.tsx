import { act, render, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectWalletLink } from '../machines/walletLink';
import { WalletSettingsView } from '../src/views/settings/WalletSettings';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { makeUser } from './fixtures';
import { coveringPaths, type PathStep, runPath } from './harness';
import { walletLinkModel } from './walletLink.model';

/** Wallet link paths through Settings → Wallet. */
async function perform(step: PathStep) {
  return step.event.type === 'wallet.relink' ? clickFirst('Relink wallet') : false;
}

function check(expected: AnyMachineSnapshot) {
  const view = connectWalletLink(expected as never, () => {});
  const button = screen.getByRole('button', { name: 'Relink wallet' });
  expect(button.getAttribute('aria-busy') === 'true').toBe(view.busy);
  expect((button as HTMLButtonElement).disabled).toBe(view.busy || !view.canRelink);
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  expect(alerts).toEqual(view.error ? [view.error] : []);
}

describe('wallet link paths through the view', () => {
  for (const path of coveringPaths(walletLinkModel)) {
    it(path.description, () =>
      runPath(walletLinkModel, path, {
        mount: (actor: AnyActorRef) => {
          render(<WalletSettingsView actor={actor as never} user={makeUser()} walletAvailable />);
        },
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
