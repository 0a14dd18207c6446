import { act, fireEvent, screen, within } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import type { CheckoutEvent } from '../machines/checkout';
import { connectCheckout } from '../machines/checkoutView';
import { CheckoutDialog } from '../src/views/checkout/CheckoutDialog';
import { checkoutModel, LISTING_3 } from './checkout.model';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath, unusedViewless, type ViewlessEvent } from './harness';
import { renderWithRouter } from './router';

/**
 * The child machines (the card rail, the resale purchase) are faked like promises in the path runs:
 * their outcomes are the harness's steps, and their own panels are tested with their machines
 * (cardPayment.view.test, buyListing.view.test). Here a stand-in marks where each one shows; given a
 * real machine actor (checkout.page.test.tsx), the real panel renders.
 */
const isMachineActor = (actor: AnyActorRef) => 'machine' in (actor.getSnapshot() as object);
vi.mock('../src/views/checkout/CardPanel', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/views/checkout/CardPanel')>();
  return {
    CardPanel: (props: ComponentProps<typeof real.CardPanel>) =>
      isMachineActor(props.actor) ? (
        <real.CardPanel {...props} />
      ) : (
        <section aria-label="Pay by card">The card rail</section>
      ),
  };
});
vi.mock('../src/views/checkout/CryptoPanel', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/views/checkout/CryptoPanel')>();
  return {
    CryptoPanel: (props: ComponentProps<typeof real.CryptoPanel>) =>
      isMachineActor(props.actor) ? (
        <real.CryptoPanel {...props} />
      ) : (
        <section aria-label="Pay with crypto">The crypto rail</section>
      ),
  };
});
vi.mock('../src/views/checkout/BalancePanel', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/views/checkout/BalancePanel')>();
  return {
    BalancePanel: (props: ComponentProps<typeof real.BalancePanel>) =>
      isMachineActor(props.actor) ? (
        <real.BalancePanel {...props} />
      ) : (
        <section aria-label="Pay with your balance">The balance rail</section>
      ),
  };
});
vi.mock('../src/views/checkout/OnrampPanel', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/views/checkout/OnrampPanel')>();
  return {
    OnrampPanel: (props: ComponentProps<typeof real.OnrampPanel>) =>
      isMachineActor(props.actor) ? (
        <real.OnrampPanel {...props} />
      ) : (
        <section aria-label="Card to crypto">The on-ramp rail</section>
      ),
  };
});
vi.mock('../src/views/checkout/TokenPanel', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/views/checkout/TokenPanel')>();
  return {
    TokenPanel: (props: ComponentProps<typeof real.TokenPanel>) =>
      isMachineActor(props.actor) ? (
        <real.TokenPanel {...props} />
      ) : (
        <section aria-label="Pay with NFM">The utility-token rail</section>
      ),
  };
});
vi.mock('../src/views/checkout/WalletPanel', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/views/checkout/WalletPanel')>();
  return {
    WalletPanel: (props: ComponentProps<typeof real.WalletPanel>) =>
      isMachineActor(props.actor) ? (
        <real.WalletPanel {...props} />
      ) : (
        <section aria-label="Mobile wallet">The mobile wallet rail</section>
      ),
  };
});
vi.mock('../src/views/nft/ListingPanels', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/views/nft/ListingPanels')>();
  return {
    ...real,
    BuyListingDialog: (props: ComponentProps<typeof real.BuyListingDialog>) =>
      isMachineActor(props.actor) ? (
        <real.BuyListingDialog {...props} />
      ) : (
        <div role="dialog" aria-label="Buy a resale listing">
          The resale purchase
        </div>
      ),
  };
});

const sortLabel = { priceAsc: 'Price: low to high', priceDesc: 'Price: high to low', edition: 'Edition' };
/** Edition, price and seller of each row, per sort, for the item collectors resell. */
const NEW = ['New edition', '$25', 'From the creator'];
const ED3 = ['Edition #03', '$40', '@ada'];
const ED7 = ['Edition #07', '$18', '@0xe03daebed8ca0615'];
const rowsBySort = { priceAsc: [ED7, NEW, ED3], priceDesc: [ED3, NEW, ED7], edition: [ED3, ED7, NEW] };

function perform(step: PathStep): boolean {
  const e = step.event as CheckoutEvent;
  switch (e.type) {
    case 'checkout.close':
      return clickFirst('Close');
    case 'checkout.back':
      return clickFirst('Back');
    case 'checkout.retry':
      return clickFirst('Try again');
    case 'checkout.edition.sort':
      clickFirst(/^Sort:/);
      fireEvent.click(screen.getByRole('menuitem', { name: sortLabel[e.sort] }));
      return true;
    case 'checkout.edition.select':
      return clickFirst(
        e.listingId === null
          ? 'Buy a new edition for $25'
          : e.listingId === LISTING_3.id
            ? 'Buy edition #03 for $40'
            : '',
      );
    case 'checkout.method.select':
      return clickFirst(
        e.method === 'crypto'
          ? /^Crypto/
          : e.method === 'balance'
            ? /^Balance/
            : e.method === 'onramp'
              ? /^Card to crypto/
              : e.method === 'applepay'
                ? /^Apple Pay/
                : e.method === 'googlepay'
                  ? /^Google Pay/
                  : e.method === 'token'
                    ? /^NFM/
                    : /^Credit card/,
      );
    case 'checkout.charge.resume':
      return clickFirst('Resume payment');
    case 'checkout.charge.cancel':
      return clickFirst('Cancel payment');
    case 'checkout.wallet.connect':
      return clickFirst('Connect wallet');
    case 'checkout.collection.setup':
      return clickFirst('Set up collection');
    default:
      return false;
  }
}

/** Every user event of the checkout has a control in the dialog. */
const viewless: ViewlessEvent[] = [];

const dialog = (name?: string) => screen.getByRole('dialog', name ? { name } : {});
const buttons = () =>
  within(dialog())
    .queryAllByRole('button')
    .map((b) => b.getAttribute('aria-label') ?? b.textContent);

/** The dialog against the checkout's view model of the expected snapshot (never its state names). */
function check(expected: AnyMachineSnapshot) {
  const view = connectCheckout(expected as never, () => {});
  if (view.panel === 'done') {
    expect(screen.queryByRole('dialog')).toBeNull();
    return;
  }
  if (view.panel === 'redirecting') {
    const page = view.title === 'Pay with crypto' ? 'Taking you to the payment page…' : null;
    expect(dialog(view.title).textContent).toContain(page ?? "Taking you to your bank's verification…");
    expect(view.title).toBe(page ? 'Pay with crypto' : 'Verify your payment');
    expect(buttons()).toEqual([]);
    return;
  }
  if (view.panel === 'buyingListing') {
    expect(dialog().getAttribute('aria-label')).toBe('Buy a resale listing');
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    return;
  }
  const alerts = within(dialog())
    .queryAllByRole('alert')
    .map((a) => a.textContent);
  expect(alerts).toEqual(view.error ? [view.error] : []);
  const body = dialog().querySelector('.vt-checkout')!;
  expect(body.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  // Nothing closes the dialog while something runs, nor while a rail shows (its Back leaves it).
  expect(view.canClose).toBe(!view.busy && !view.wide);
  expect(within(dialog()).queryAllByRole('button', { name: 'Close' }).length > 0).toBe(view.canClose);
  if (view.status) expect(within(dialog()).getByRole('status', { name: view.status })).toBeTruthy();

  switch (view.panel) {
    case 'loading':
      expect(dialog('Checkout')).toBeTruthy();
      expect(view.status).toBe('Checking your payments…');
      return;
    case 'cardPending': {
      expect(dialog('Payment in progress').textContent).toContain(
        "Your card payment for Night Market is waiting for your bank's verification.",
      );
      expect(summary()).toEqual([
        ['Item', 'Night Market'],
        ['Amount', '$25'],
        ['Card', 'Card •••• 4242'],
      ]);
      const cancelling = view.busy ? 'Canceling your payment…' : null;
      expect(view.status).toBe(cancelling);
      expect(buttons()).toEqual(
        ['Close', 'Close', 'Cancel payment', 'Resume payment'].slice(view.busy ? 2 : 0),
      );
      return;
    }
    case 'cryptoPending':
      expect(dialog('Crypto payment in progress').textContent).toContain(
        'Your crypto payment for Night Market is still open.',
      );
      expect(summary()).toEqual([
        ['Item', 'Night Market'],
        ['Amount', '$25'],
      ]);
      expect(view.status).toBe(view.busy ? 'Canceling your payment…' : null);
      expect(buttons()).toEqual(
        ['Close', 'Close', 'Cancel payment', 'Resume payment'].slice(view.busy ? 2 : 0),
      );
      return;
    case 'selectEdition': {
      expect(dialog('Choose an edition')).toBeTruthy();
      expect(
        within(dialog()).getByRole('button', { name: `Sort: ${sortLabel[view.sort.value]}` }),
      ).toBeTruthy();
      const rows = within(dialog()).getAllByRole('row').slice(1);
      const soldOut = view.editions.every((r) => r.listingId !== null);
      const expectedRows = soldOut
        ? rowsBySort[view.sort.value].filter((r) => r !== NEW)
        : rowsBySort[view.sort.value];
      expect(
        rows.map((r) => [...r.querySelectorAll('th, td')].slice(0, 3).map((cell) => cell.textContent)),
      ).toEqual(expectedRows);
      expect(rows.map((r) => within(r).getByRole('button').getAttribute('aria-label'))).toEqual(
        expectedRows.map(([edition, price]) =>
          edition === 'New edition'
            ? `Buy a new edition for ${price}`
            : `Buy ${edition!.toLowerCase()} for ${price}`,
        ),
      );
      expect(rows.map((r) => within(r).getByRole('button').getAttribute('data-state'))).toEqual(
        expectedRows.map(() => 'idle'),
      );
      return;
    }
    case 'selectPaymentMethod': {
      expect(['Starter Pack · $60', 'Night Market · $25']).toContain(view.text);
      expect(dialog('How would you like to pay?').textContent).toContain(view.text);
      const methods = within(dialog()).getByRole('list', { name: 'Payment methods' });
      const shown = within(methods)
        .getAllByRole('button')
        .map((b) => b.textContent);
      expect(shown).toEqual(view.methods.map((m) => `${m.label}${m.description}${m.note ?? ''}`));
      expect(shown.slice(0, 4)).toEqual([
        'Apple PayA card in your Apple Wallet',
        'Google PayA card in your Google account',
        'Credit cardVisa, Mastercard or Discover',
        'CryptoETH, BTC, BCH or USDC on a payment page',
      ]);
      expect(shown[4]).toMatch(/^Balance(\$[\d,.]+ )?FUSD in your wallet(Insufficient funds)?$/);
      expect(shown[5]).toBe('Card to cryptoPay by card in the Wert payment window');
      for (const method of within(methods).getAllByRole('button'))
        expect(method.getAttribute('data-state')).toBe('idle');
      expect(buttons()).toContain('Back');
      return;
    }
    case 'collectionRequired': {
      if (view.title === 'Checking your wallet') {
        expect(dialog('Checking your wallet')).toBeTruthy();
        expect(view.status).toBe('Checking your collection…');
        return;
      }
      expect(dialog('Collection required')).toBeTruthy();
      if (view.action?.event === 'checkout.wallet.connect') {
        expect(dialog().textContent).toContain('Connect a Flow wallet first');
        const connect = within(dialog()).getByRole<HTMLButtonElement>('button', { name: 'Connect wallet' });
        expect(connect.disabled).toBe(view.busy);
        expect(view.action.enabled).toBe(!view.busy);
      } else if (view.action) {
        expect(dialog().textContent).toContain('Your wallet needs a Vitrine collection and an FUSD balance');
        const button = within(dialog()).getByRole<HTMLButtonElement>('button', { name: 'Set up collection' });
        expect(button.disabled).toBe(view.busy);
        expect(view.action.enabled).toBe(!view.busy);
      } else {
        expect(dialog().textContent).toContain('We could not check your collection.');
        expect(buttons()).toEqual(['Close', 'Close', 'Try again']);
      }
      return;
    }
    case 'claiming':
      expect(dialog('Claim for free').textContent).toContain('Welcome Sticker');
      expect(view.status).toBe('Claiming your edition…');
      return;
    case 'claimFailed':
      expect(dialog('Claim for free')).toBeTruthy();
      // A refused claim would be refused again: no Try again.
      expect(buttons()).toEqual(
        view.error === 'You have already claimed this item.' ? ['Close'] : ['Close', 'Close', 'Try again'],
      );
      return;
    default: {
      // A payment rail: its own panel shows inside the dialog.
      expect(dialog('Checkout')).toBeTruthy();
      expect(view.rail?.kind).toBe(view.panel);
      expect(within(dialog()).getByRole('region', { name: railRegion[view.panel] })).toBeTruthy();
    }
  }
}

const summary = () =>
  [...dialog().querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextSibling?.textContent]);
/** The name of each rail's panel (the stand-ins above). */
const railRegion: Record<string, string> = {
  creditCard: 'Pay by card',
  crypto: 'Pay with crypto',
  wallet: 'Mobile wallet',
  token: 'Pay with NFM',
  onramp: 'Card to crypto',
  balance: 'Pay with your balance',
};

describe('checkout paths through the dialog', () => {
  for (const path of coveringPaths(checkoutModel)) {
    it(path.description, () =>
      runPath(checkoutModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <CheckoutDialog actor={actor as never} />),
        perform,
        viewless,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  it('has no unused viewless events', () => expect(unusedViewless(viewless)).toEqual([]));
  afterAll(() => flushCoverage('view'));
});
