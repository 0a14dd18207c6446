import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, createActor, fromPromise } from 'xstate';
import type { TokenChargeJson } from '#domain/schemas/token';
import { type TokenChargeInput, type TransferCheck, tokenChargeMachine } from '../machines/tokenCharge';
import { connectTokenCharge } from '../machines/tokenChargeView';
import { tokenCheckpoint } from '../src/services/evm';
import { TokenPanel } from '../src/views/checkout/TokenPanel';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';
import {
  ESTIMATE,
  ITEM,
  SCENARIOS,
  TX_HASH,
  tokenCharge,
  tokenChargeModel,
  tokenChargeRestoreModel,
  WITH_TRANSFER,
} from './tokenCharge.model';

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
  const pay = button(view.payLabel);
  if (view.panel === 'review')
    expect(pay?.getAttribute('data-state')).toBe(view.busy ? 'busy' : view.canPay ? 'idle' : 'disabled');
  else expect(pay).toBeNull();
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

/**
 * A reload in the middle of a payment: the first tab's panel is torn down while its work is under
 * way, and a new tab's panel starts from the tab's checkpoint (sessionStorage, as the app keeps
 * it). The buyer only sees and clicks the panels; the transfer is never sent twice.
 */
describe('a reload in the middle of a payment, through the panel', () => {
  const never = () => new Promise<never>(() => {});
  const calls = { sends: 0, reports: 0, finds: 0 };
  function tab(
    input: TokenChargeInput,
    script: {
      send?: () => Promise<{ hash: string }>;
      report?: () => Promise<TokenChargeJson>;
      load?: () => Promise<TokenChargeJson>;
    },
    { start = true } = {},
  ) {
    const actor = createActor(
      tokenChargeMachine.provide({
        actors: {
          estimate: fromPromise(async () => ESTIMATE),
          connectWallet: fromPromise(async () => ({
            address: tokenCharge('created').ethAddress,
            chainId: 31337,
          })),
          createCharge: fromPromise(async () => tokenCharge('created')),
          signCharge: fromPromise(async () => tokenCharge('signed')),
          loadCharge: fromPromise(script.load ?? (async () => tokenCharge('signed'))),
          findTransfer: fromPromise(async (): Promise<TransferCheck> => {
            calls.finds++;
            return { charge: tokenCharge('signed'), pending: false };
          }),
          sendTransfer: fromPromise(async () => {
            calls.sends++;
            return (script.send ?? (async () => ({ hash: TX_HASH })))();
          }),
          reportTransfer: fromPromise(async () => {
            calls.reports++;
            return (script.report ?? never)();
          }),
        },
        actions: {
          saveCheckpoint: (_, checkpoint) => tokenCheckpoint.save(checkpoint),
          clearCheckpoint: () => tokenCheckpoint.clear(),
        },
        // Long enough for the panel to paint "received payment" on a loaded machine.
        delays: { receivedPause: 300 },
      }),
      { input },
    );
    if (start) actor.start();
    return actor;
  }
  async function payUntil(text: string, actor: AnyActorRef) {
    await renderWithRouter(() => <TokenPanel actor={actor as never} />);
    await screen.findByText('≈ 250.00 NFM');
    clickControl(acknowledgement(), 'The acknowledgement');
    clickFirst('Pay $25 in NFM');
    await within(panel()).findByText(text);
  }
  /** The reload: the tab's panel and machine are gone; sessionStorage stays. */
  function reload(actor: AnyActorRef) {
    cleanup();
    actor.stop();
  }

  it('after the transfer was sent: the new tab validates it, shows it cannot be canceled, and completes', async () => {
    sessionStorage.clear();
    Object.assign(calls, { sends: 0, reports: 0, finds: 0 });
    const first = tab(SCENARIOS.wallet, {});
    await payUntil('pending payment', first);
    reload(first);
    expect(tokenCheckpoint.read()).toEqual({
      chargeId: tokenCharge('signed').id,
      item: { kind: ITEM.kind, id: ITEM.id },
      transactionHash: TX_HASH,
    });

    // The chain answers once the buyer has seen the new tab.
    let confirm!: (charge: TokenChargeJson) => void;
    const confirmed = new Promise<TokenChargeJson>((resolve) => {
      confirm = resolve;
    });
    const second = tab({ ...SCENARIOS.wallet, restore: tokenCheckpoint.read() }, { report: () => confirmed });
    await renderWithRouter(() => <TokenPanel actor={second as never} />);
    await within(panel()).findByText('pending payment');
    expect(panel().textContent).toContain(
      'The NFM transfer was sent: this payment can no longer be canceled.',
    );
    expect(within(panel()).queryByRole('button', { name: 'Cancel payment' })).toBeNull();
    expect(within(panel()).queryByRole('button', { name: 'Try again' })).toBeNull();
    await act(async () => confirm(tokenCharge('completed', 'authorized')));
    await waitFor(() => expect(second.getSnapshot().status).toBe('done'));
    expect(second.getSnapshot().output).toMatchObject({ type: 'paid' });
    expect(calls.sends).toBe(1);
    expect(tokenCheckpoint.read()).toBeNull();
    second.stop();
  });

  it('while the wallet was sending: the new tab finds the transfer the server took from the chain, and never sends', async () => {
    sessionStorage.clear();
    Object.assign(calls, { sends: 0, reports: 0, finds: 0 });
    // The wallet broadcast the transfer; the tab reloaded before it had the hash.
    const first = tab(SCENARIOS.wallet, { send: never });
    await payUntil('Confirm the NFM transfer in your wallet…', first);
    reload(first);
    expect(tokenCheckpoint.read()).toEqual({
      chargeId: tokenCharge('signed').id,
      item: { kind: ITEM.kind, id: ITEM.id },
    });

    const second = tab(
      { ...SCENARIOS.wallet, restore: tokenCheckpoint.read() },
      { load: async () => WITH_TRANSFER, report: async () => tokenCharge('completed', 'authorized') },
      { start: false },
    );
    // Every answer of this tab is at hand at once: its panel is on screen before it starts, or the
    // flow could end before the panel was drawn.
    await renderWithRouter(() => <TokenPanel actor={second as never} />);
    act(() => {
      second.start();
    });
    await within(panel()).findByText('received payment');
    await waitFor(() => expect(second.getSnapshot().status).toBe('done'));
    expect(calls.sends).toBe(1);
    expect(calls.reports).toBe(1);
    second.stop();
  });

  it('before anything was sent: the new tab looks at the chain, then offers Try again, which sends once', async () => {
    sessionStorage.clear();
    Object.assign(calls, { sends: 0, reports: 0, finds: 0 });
    const first = tab(SCENARIOS.wallet, { send: never });
    await payUntil('Confirm the NFM transfer in your wallet…', first);
    reload(first);
    // The wallet's request was dropped with the page: nothing was sent.
    calls.sends = 0;

    const second = tab(
      { ...SCENARIOS.wallet, restore: tokenCheckpoint.read() },
      { report: async () => tokenCharge('completed', 'authorized') },
    );
    await renderWithRouter(() => <TokenPanel actor={second as never} />);
    await within(panel()).findByRole('button', { name: 'Try again' });
    expect(calls.finds).toBe(1);
    expect(within(panel()).getByRole('button', { name: 'Cancel payment' })).toBeTruthy();
    clickFirst('Try again');
    await within(panel()).findByText('received payment');
    expect(calls.finds).toBe(2);
    expect(calls.sends).toBe(1);
    second.stop();
  });
});
