import { act, screen, waitFor, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, createActor, fromPromise } from 'xstate';
import { connectCryptoTopup, cryptoTopupMachine, TOPUP_HINT, TOPUP_MESSAGES } from '../machines/cryptoTopup';
import { fusdBalanceMachine } from '../machines/fusdBalance';
import { type AppActors, AppContext } from '../src/views/AppContext';
import { TopupPanel, TopupPanelView } from '../src/views/settings/BalancePanel';
import { flushCoverage } from './coverage-store';
import { CHARGE_ID, cryptoTopupModel, SCENARIOS, topupCharge, WALLET } from './cryptoTopup.model';
import { clickFirst, typeInto } from './dom';
import { coveringPaths, flush, type PathStep, recordMicrosteps, runPath } from './harness';
import { renderWithRouter } from './router';

const panel = () => screen.getByRole('region', { name: 'Add funds with crypto' });
const amountField = () => within(panel()).queryByLabelText<HTMLInputElement>('Amount (USD)');
const continueButton = () =>
  within(panel()).queryByRole<HTMLButtonElement>('button', { name: 'Continue to payment' });
const againButton = () =>
  within(panel()).queryByRole<HTMLButtonElement>('button', { name: 'Add more funds' });

/** Top-up paths through the panel: every user event is typing or a click. */
function perform(step: PathStep) {
  const e = step.event as { type: string; value?: string };
  switch (e.type) {
    case 'topup.amount':
      return typeInto(amountField(), e.value!, 'The amount field');
    case 'topup.submit':
      return clickFirst('Continue to payment');
    case 'topup.again':
      return clickFirst('Add more funds');
    default:
      return false;
  }
}

/** The top-up panel against the top-up's view model of the expected snapshot (never its state names). */
function check(expected: AnyMachineSnapshot) {
  const view = connectCryptoTopup(expected as never, () => {});
  const region = panel();
  expect(region.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  expect(within(region).getByRole('heading', { level: 2 }).textContent).toBe('Add funds with crypto');
  const ended = view.panel === 'failed' || view.panel === 'ended' || view.panel === 'slow';
  if (ended) expect(view.message).toBe(TOPUP_MESSAGES[view.panel as 'failed' | 'ended' | 'slow']);
  if (view.panel === 'added') expect(view.message).toMatch(/^Added \$[\d,.]+ to your balance\.$/);
  expect(within(region).getByRole('status').textContent).toBe(view.status ?? view.message ?? '');

  const field = amountField();
  const submit = continueButton();
  const alerts = within(region)
    .queryAllByRole('alert')
    .map((a) => a.textContent);
  if (view.panel === 'form') {
    expect(field!.value).toBe(view.amount);
    expect(field!.inputMode).toBe('decimal');
    expect(field!.disabled).toBe(view.busy);
    expect(view.canEdit).toBe(!view.busy);
    expect(region.textContent).toContain(TOPUP_HINT);
    expect(field!.getAttribute('aria-invalid')).toBe(view.amountError ? 'true' : null);
    expect(alerts).toEqual([
      ...(view.amountError ? [view.amountError] : []),
      ...(view.error ? [view.error] : []),
    ]);
    expect(submit!.type).toBe('submit');
    expect(submit!.disabled).toBe(view.busy);
    expect(submit!.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  } else {
    expect(field).toBeNull();
    expect(submit).toBeNull();
    expect(alerts).toEqual([]);
  }
  expect(!!againButton()).toBe(view.panel === 'added' || ended);
  expect(view.canAgain).toBe(view.panel === 'added' || ended);
}

describe('top-up paths through the balance panel', () => {
  const paths = coveringPaths(cryptoTopupModel);
  for (const path of paths) {
    it(path.description, () =>
      runPath(cryptoTopupModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <TopupPanelView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});

describe('the top-up panel', () => {
  it('names its controls for the browser journeys', async () => {
    const actor = createActor(cryptoTopupMachine, { input: SCENARIOS.fresh });
    await renderWithRouter(() => <TopupPanelView actor={actor} />);
    await act(async () => {
      actor.start();
    });
    expect(within(panel()).getByRole('heading', { name: 'Add funds with crypto' })).toBeTruthy();
    const field = within(panel()).getByRole<HTMLInputElement>('textbox', { name: 'Amount (USD)' });
    expect(field.inputMode).toBe('decimal');
    expect(field.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(field.getAttribute('aria-describedby')!)!.textContent).toBe(TOPUP_HINT);
    expect(within(panel()).getByRole('button', { name: 'Continue to payment' })).toBeTruthy();
    expect(within(panel()).getByRole('status').textContent).toBe('');
    actor.stop();
  });

  it('runs its own actor for the charge the buyer came back with', async () => {
    const reads: string[] = [];
    const machine = cryptoTopupMachine.provide({
      actors: {
        getCharge: fromPromise(async ({ input }: { input: { id: string } }) => {
          reads.push(input.id);
          return topupCharge('SEND_FUSD_SUCCEEDED');
        }),
      },
    });
    // The wallet's balance: $0 before the top-up's FUSD arrived, $25 once it has.
    const balances = [0, 2500];
    const balanceMachine = fusdBalanceMachine.provide({
      actors: { readBalance: fromPromise(async () => balances.shift()!) },
    });
    const app = { inspect: recordMicrosteps } as unknown as AppActors;
    await renderWithRouter(() => (
      <AppContext.Provider value={app}>
        <TopupPanel
          machine={machine}
          balanceMachine={balanceMachine}
          address={WALLET}
          returnedChargeId={CHARGE_ID}
        />
      </AppContext.Provider>
    ));
    await act(flush);
    expect(reads).toEqual([CHARGE_ID]);
    expect(within(panel()).getByRole('status').textContent).toBe('Added $25 to your balance.');
    // Settings → Wallet shows the FUSD balance, read again once the top-up's FUSD arrived.
    await waitFor(() => expect(balances).toEqual([]));
    expect(within(panel()).getByRole('definition').textContent).toBe('$25 FUSD');
    expect(within(panel()).getByRole('term').textContent).toBe('FUSD balance');
    await act(async () => {
      clickFirst('Add more funds');
    });
    expect(within(panel()).getByRole('textbox', { name: 'Amount (USD)' })).toBeTruthy();
  });
});
