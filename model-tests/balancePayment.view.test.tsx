import { act, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, createActor } from 'xstate';
import { balancePaymentMachine } from '../machines/balancePayment';
import { connectBalancePayment } from '../machines/balancePaymentView';
import { BalancePanel } from '../src/views/checkout/BalancePanel';
import { balancePaymentModel, SCENARIOS } from './balancePayment.model';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';

const SHORT_TITLE = 'Add funds with crypto';
const PAY_TITLE = 'Pay with your balance';
const panel = () => screen.getByRole('region', { name: /^(Pay with your balance|Add funds with crypto)$/ });
const acknowledgement = () =>
  within(panel()).queryByRole<HTMLInputElement>('checkbox', {
    name: /I agree to the purchase agreement and the Terms of Service/,
  });
const button = (name: string | RegExp) => within(panel()).queryByRole<HTMLButtonElement>('button', { name });

/** Balance payment paths through the panel: every user event is a click. */
function perform(step: PathStep) {
  switch (step.event.type) {
    case 'balance.acknowledge':
      return clickControl(acknowledgement(), 'The acknowledgement');
    case 'balance.submit':
      return clickFirst('Pay $25 from balance');
    case 'balance.topup':
      return clickFirst(/^Add \$.* with crypto$/);
    case 'balance.retry':
      return clickFirst(/^(Check balance again|Confirm payment again)$/);
    case 'balance.back':
      return clickFirst('Back');
    default:
      return false;
  }
}

/** The balance panel against the balance rail's view model of the expected snapshot (never its state names). */
function check(expected: AnyMachineSnapshot) {
  const view = connectBalancePayment(expected as never, () => {});
  if (view.panel === 'done') {
    expect(screen.queryByRole('region')).toBeNull();
    return;
  }
  const region = panel();
  const short = view.panel === 'short';
  expect(view.title).toBe(short ? SHORT_TITLE : PAY_TITLE);
  expect(within(region).getByRole('heading').textContent).toBe(view.title);
  expect(region.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  expect(region.textContent).toContain('Night Market · $25');
  if (view.balance) expect(region.textContent).toContain(`Your balance${view.balance} FUSD`);
  for (const shown of [view.status, view.topupNote]) if (shown) expect(region.textContent).toContain(shown);
  expect(within(region).queryByRole('note')?.textContent ?? null).toBe(view.insufficient);
  expect(
    within(region)
      .queryAllByRole('alert')
      .map((a) => a.textContent),
  ).toEqual(view.error ? [view.error] : []);
  expect(button('Back')!.disabled).toBe(!view.canBack);
  expect(button('Back')!.getAttribute('data-state')).toBe(view.canBack ? 'idle' : 'disabled');
  if (view.panel === 'review') {
    expect(acknowledgement()!.checked).toBe(view.acknowledged);
    expect(button('Pay $25 from balance')!.disabled).toBe(view.busy || !view.canPay);
    expect(button('Pay $25 from balance')!.getAttribute('data-state')).toBe(
      view.busy ? 'busy' : view.canPay ? 'idle' : 'disabled',
    );
  } else {
    expect(acknowledgement()).toBeNull();
    expect(button('Pay $25 from balance')).toBeNull();
  }
  const topup = button(/^Add \$.* with crypto$/);
  if (short && view.topupLabel) expect(topup!.disabled).toBe(view.busy || !view.canTopUp);
  else expect(topup).toBeNull();
  const retry = button(/^(Check balance again|Confirm payment again)$/);
  if (short || view.panel === 'failed') expect(retry!.disabled).toBe(!view.canRetry);
  else expect(retry).toBeNull();
}

describe('balance payment paths through the balance panel', () => {
  const paths = coveringPaths(balancePaymentModel);
  for (const path of paths) {
    it(path.description, () =>
      runPath(balancePaymentModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <BalancePanel actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});

describe('the balance panel', () => {
  it('names its controls for the browser journeys and links the terms', async () => {
    const actor = createActor(
      balancePaymentMachine.provide({
        actors: { readBalance: (await import('xstate')).fromPromise(async () => 4000) },
      }),
      { input: SCENARIOS.topUp },
    );
    await renderWithRouter(() => <BalancePanel actor={actor} />);
    await act(async () => {
      actor.start();
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(within(panel()).getByRole('heading', { name: 'Pay with your balance' })).toBeTruthy();
    expect(within(panel()).getByRole('checkbox', { name: /purchase agreement/ })).toBeTruthy();
    expect(within(panel()).getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe(
      '/terms',
    );
    actor.stop();
  });
});
