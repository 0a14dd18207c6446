import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { act, render, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, fromPromise } from 'xstate';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import {
  type CryptoCanceledContext,
  connectCryptoCanceled,
  cryptoCanceledMachine,
} from '../machines/cryptoCanceled';
import { type AppActors, AppContext } from '../src/views/AppContext';
import { CryptoCanceledPage, CryptoCanceledView } from '../src/views/purchase/CryptoCanceledPage';
import { ITEM } from './cardPayment.model';
import { flushCoverage } from './coverage-store';
import {
  CRYPTO_CHARGE_ID,
  type CryptoChargeKind,
  chargeKind,
  cryptoCanceledModel,
  cryptoCharge,
} from './cryptoCanceled.model';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';

function perform(step: PathStep) {
  if (step.event.type === 'charge.retry') return clickFirst('Try again');
  return false;
}

const headings: Record<CryptoChargeKind, string> = {
  canceled: 'Purchase canceled',
  partlyPaid: 'Purchase canceled',
  paid: 'Payment received',
  open: 'Payment not completed',
  topup: 'Purchase canceled',
};
const reasons: Record<CryptoChargeKind, string> = {
  canceled: 'Your crypto purchase was canceled. You were not charged.',
  partlyPaid: 'Your crypto purchase was canceled. What you paid is refunded as FUSD to your wallet.',
  paid: 'This purchase was paid after all. The collectible is on its way to your wallet.',
  open: 'Your crypto payment is still open. You can pay it from the item page, or let it expire.',
  topup: 'Your crypto top-up was canceled. You were not charged.',
};
const timelines: Record<CryptoChargeKind, string[]> = {
  canceled: ['Order placed', 'Order canceled'],
  partlyPaid: ['Order placed', 'Paid in part', 'Order canceled'],
  paid: ['Order placed', 'Payment authorized', 'Minting started'],
  open: ['Order placed'],
  topup: [],
};

/** The page against the view model of the expected snapshot; the fixtures name what it should say. */
function check(expected: AnyMachineSnapshot) {
  const c = expected.context as CryptoCanceledContext;
  const article = screen.getByRole('article');
  const heading = screen.getByRole('heading', { level: 1 }).textContent;
  const view = connectCryptoCanceled(expected as never, () => {});
  const busy = view.busy;
  expect(article.getAttribute('aria-busy')).toBe(busy ? 'true' : null);
  const marketplace = screen.queryByRole('link', { name: 'Back to marketplace' });
  const item = screen.queryByRole('link', { name: 'Back to the item' });
  if (busy) {
    expect(heading).toBe('Purchase canceled');
    expect(screen.getByRole('status')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(marketplace).toBeNull();
    return;
  }
  expect(marketplace?.getAttribute('href')).toBe('/marketplace');
  if (view.panel === 'error') {
    expect(heading).toBe(view.title);
    const missing = c.error?.code === 'not_found';
    expect(heading).toBe(missing ? 'Charge not found' : 'Purchase canceled');
    expect(screen.getByRole('alert').textContent).toContain(
      missing ? "We couldn't find this charge." : 'We could not load this charge.',
    );
    expect(!!screen.queryByRole('button', { name: 'Try again' })).toBe(!missing);
    expect(item).toBeNull();
    expect(screen.queryByRole('region', { name: 'Your purchase' })).toBeNull();
    return;
  }
  const kind = chargeKind(c.charge)!;
  expect(heading).toBe(headings[kind]);
  expect(screen.getByRole('alert').textContent).toBe(reasons[kind]);
  const region = screen.getByRole('region', { name: 'Your purchase' });
  const summary = within(region)
    .getAllByRole('definition')
    .map((d) => d.textContent);
  expect(summary).toEqual([
    kind === 'topup' ? 'FUSD top-up' : ITEM.title,
    '$25',
    ...(kind === 'partlyPaid' ? ['$10'] : kind === 'paid' ? ['$25'] : []),
  ]);
  const list = screen.queryByRole('list', { name: 'Order timeline' });
  if (kind === 'topup') expect(list).toBeNull();
  else {
    const entries = within(list!).getAllByRole('listitem');
    expect(entries.map((e) => e.querySelector('strong')!.textContent)).toEqual(timelines[kind]);
    expect(entries.map((e) => e.querySelector('time')!.getAttribute('dateTime'))).toEqual(
      c.charge!.order!.events.map((e) => new Date(e.at).toISOString()),
    );
  }
  expect(item?.getAttribute('href') ?? null).toBe(kind === 'topup' ? null : `/nft/${ITEM.id}`);
  expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
}

describe('crypto-canceled paths through the page', () => {
  for (const path of coveringPaths(cryptoCanceledModel)) {
    it(path.description, () =>
      runPath(cryptoCanceledModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <CryptoCanceledView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});

describe('the /coinbasecanceled route', () => {
  it('reads the charge id from the path and syncs that charge', async () => {
    const syncs: string[] = [];
    const machine = cryptoCanceledMachine.provide({
      actors: {
        syncCharge: fromPromise<CoinbaseChargeJson, { id: string }>(async ({ input }) => {
          syncs.push(input.id);
          return cryptoCharge('partlyPaid');
        }),
        loadCharge: fromPromise<CoinbaseChargeJson, { id: string }>(async () => cryptoCharge('canceled')),
      },
    });
    const root = createRootRoute();
    // The page is one of the signed-in pages, under the app's authenticated layout.
    const authenticated = createRoute({ getParentRoute: () => root, id: '_authenticated' });
    const canceled = createRoute({
      getParentRoute: () => authenticated,
      path: '/coinbasecanceled/$id',
      loader: () => ({ machine }),
      component: CryptoCanceledPage,
    });
    const router = createRouter({
      routeTree: root.addChildren([authenticated.addChildren([canceled])]),
      history: createMemoryHistory({ initialEntries: [`/coinbasecanceled/${CRYPTO_CHARGE_ID}`] }),
    });
    await act(async () => {
      render(
        <AppContext.Provider value={{} as AppActors}>
          <RouterProvider router={router as never} />
        </AppContext.Provider>,
      );
      await router.load();
    });
    expect(await screen.findByRole('region', { name: 'Your purchase' })).toBeTruthy();
    expect(syncs).toEqual([CRYPTO_CHARGE_ID]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Purchase canceled');
    expect(screen.getByRole('alert').textContent).toBe(
      'Your crypto purchase was canceled. What you paid is refunded as FUSD to your wallet.',
    );
  });
});
