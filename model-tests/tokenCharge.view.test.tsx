import { act, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectTokenCharge } from '../machines/tokenCharge';
import { TokenPanel } from '../src/views/checkout/TokenPanel';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';
import { tokenChargeModel, tokenChargeRestoreModel } from './tokenCharge.model';

const panel = () => screen.getByRole('region', { name: 'Pay with NFM' });
const acknowledgement = () =>
  within(panel()).queryByRole<HTMLInputElement>('checkbox', {
    name: /I agree to the purchase agreement and the Terms of Service/,
  });

/** Token payment paths through the panel: every user event is a click. */
function perform(step: PathStep) {
  switch (step.event.type) {
    case 'token.acknowledge':
      return clickControl(acknowledgement(), 'The acknowledgement');
    case 'token.submit':
      return clickFirst('Pay $25 in NFM');
    case 'token.switch':
      return clickFirst('Switch network');
    case 'token.retry':
      return clickFirst('Try again', 'Check again');
    case 'token.resume':
      return clickFirst('Resume payment');
    case 'token.cancel':
      return clickFirst('Cancel payment', 'Cancel that payment');
    case 'token.back':
      return clickFirst('Back');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  if (expected.status === 'done') {
    expect(screen.queryByRole('region')).toBeNull();
    return;
  }
  const view = connectTokenCharge(expected as never, () => {});
  const region = panel();
  expect(region.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  expect(region.textContent).toContain('Night Market · $25');
  if (view.estimate) expect(region.textContent).toContain(view.estimate);
  if (view.status) expect(region.textContent).toContain(view.status);
  expect(
    within(region)
      .queryAllByRole('alert')
      .map((a) => a.textContent),
  ).toEqual(view.error ? [view.error] : []);
  const box = acknowledgement();
  if (view.panel === 'review') expect(box?.checked).toBe(view.acknowledged);
  else expect(box).toBeNull();
  const button = (name: string) => within(region).queryByRole<HTMLButtonElement>('button', { name });
  expect(!!button('Switch network')).toBe(view.canSwitch);
  expect(!!button(view.cancelLabel)).toBe(view.canCancel);
  expect(!!button('Resume payment')).toBe(view.canResume);
  if (view.blocker) expect(region.textContent).toContain(view.blocker);
  expect(!!button('Back')).toBe(view.canBack);
  expect(!!(button('Try again') ?? button('Check again'))).toBe(view.canRetry);
  if (view.nonCancelable) expect(region.textContent).toContain(view.nonCancelable);
}

describe('token payment paths through the panel', () => {
  for (const path of [tokenChargeModel, tokenChargeRestoreModel].flatMap((model) =>
    coveringPaths(model).map((p) => ({ model, ...p })),
  )) {
    it(path.description, () =>
      runPath(path.model, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <TokenPanel actor={actor as never} />),
        perform,
        check: async (expected) => {
          await act(() => Promise.resolve());
          check(expected);
        },
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
