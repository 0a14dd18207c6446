import { act, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, createActor } from 'xstate';
import {
  CRYPTO_NETWORK_WARNING,
  connectCryptoPayment,
  cryptoPaymentMachine,
} from '../machines/cryptoPayment';
import { CryptoPanel } from '../src/views/checkout/CryptoPanel';
import { flushCoverage } from './coverage-store';
import { cryptoPaymentModel, SCENARIOS } from './cryptoPayment.model';
import { clickControl, clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';

const panel = () => screen.getByRole('region', { name: 'Pay with crypto' });
const acknowledgement = () =>
  within(panel()).queryByRole<HTMLInputElement>('checkbox', {
    name: /I agree to the purchase agreement and the Terms of Service/,
  });

/** Crypto payment paths through the panel: every user event is a click. */
function perform(step: PathStep) {
  switch (step.event.type) {
    case 'crypto.acknowledge':
      return clickControl(acknowledgement(), 'The acknowledgement');
    case 'crypto.submit':
      return clickFirst('Pay $25 with crypto');
    case 'crypto.back':
      return clickFirst('Back');
    default:
      return false;
  }
}

/** The crypto panel against the rail's view model of the expected snapshot (never its state names). */
function check(expected: AnyMachineSnapshot) {
  const view = connectCryptoPayment(expected as never, () => {});
  if (view.panel === 'done') {
    expect(screen.queryByRole('region', { name: 'Pay with crypto' })).toBeNull();
    return;
  }
  const region = panel();
  expect(region.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  expect(region.textContent).toContain('Night Market · $25');
  expect(
    within(region)
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual(['ETH Ethereum', 'BTC Bitcoin', 'BCH Bitcoin Cash', 'USDC USD Coin']);
  expect(within(region).getByRole('note').textContent).toBe(CRYPTO_NETWORK_WARNING);
  expect(acknowledgement()!.checked).toBe(view.acknowledged);
  expect(acknowledgement()!.disabled).toBe(view.busy);
  const pay = within(region).getByRole<HTMLButtonElement>('button', { name: /^Pay \$.* with crypto$/ });
  expect(pay.textContent).toBe('Pay $25 with crypto');
  expect(pay.type).toBe('submit');
  expect(pay.disabled).toBe(view.busy || !view.canPay);
  expect(pay.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  expect(pay.getAttribute('data-state')).toBe(view.busy ? 'busy' : view.canPay ? 'idle' : 'disabled');
  expect(within(region).getByRole<HTMLButtonElement>('button', { name: 'Back' }).disabled).toBe(view.busy);
  expect(view.canBack).toBe(!view.busy);
  expect(
    within(region)
      .queryAllByRole('alert')
      .map((a) => a.textContent),
  ).toEqual(view.error ? [view.error] : []);
  expect(view.status).toBe(view.busy ? 'Opening the payment page…' : null);
  if (view.busy) expect(region.textContent).toContain('Opening the payment page…');
  else expect(region.textContent).not.toContain('Opening the payment page…');
}

describe('crypto payment paths through the crypto panel', () => {
  const paths = coveringPaths(cryptoPaymentModel);
  for (const path of paths) {
    it(path.description, () =>
      runPath(cryptoPaymentModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <CryptoPanel actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});

describe('the crypto panel', () => {
  it('names its controls for the browser journeys and links the terms', async () => {
    const actor = createActor(cryptoPaymentMachine, { input: SCENARIOS.blueprint });
    await renderWithRouter(() => <CryptoPanel actor={actor} />);
    await act(async () => {
      actor.start();
    });
    expect(within(panel()).getByRole('heading', { name: 'Pay with crypto' })).toBeTruthy();
    expect(within(panel()).getByRole('list', { name: 'Coins accepted on the payment page' })).toBeTruthy();
    expect(within(panel()).getByRole('checkbox', { name: /purchase agreement/ })).toBeTruthy();
    expect(within(panel()).getByRole('button', { name: /^Pay \$.* with crypto$/ })).toBeTruthy();
    expect(within(panel()).getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe(
      '/terms',
    );
    actor.stop();
  });
});
