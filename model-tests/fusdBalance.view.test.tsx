import { act, render, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectFusdBalance } from '../machines/fusdBalance';
import { FusdBalanceLine } from '../src/views/settings/BalancePanel';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { fusdBalanceModel } from './fusdBalance.model';
import { coveringPaths, type PathStep, runPath } from './harness';

/** FUSD balance paths through Settings → Wallet's balance line: Refresh is its one control. */
async function perform(step: PathStep) {
  return step.event.type === 'balance.refresh' ? clickFirst('Refresh') : false;
}

function check(expected: AnyMachineSnapshot) {
  const view = connectFusdBalance(expected as never, () => {});
  expect(screen.getByRole('term').textContent).toBe(view.label);
  expect(screen.getByRole('definition').textContent).toBe(view.value);
  const line = screen.getByRole('definition').closest('.vt-topup__balance')!;
  expect(line.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  expect(screen.getByRole<HTMLButtonElement>('button', { name: view.refreshLabel }).disabled).toBe(
    !view.canRefresh,
  );
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  expect(alerts).toEqual(view.error ? [view.error] : []);
}

describe('FUSD balance paths through the view', () => {
  for (const path of coveringPaths(fusdBalanceModel)) {
    it(path.description, () =>
      runPath(fusdBalanceModel, path, {
        mount: (actor: AnyActorRef) => {
          render(<FusdBalanceLine actor={actor as never} />);
        },
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
