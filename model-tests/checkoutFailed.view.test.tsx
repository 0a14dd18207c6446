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
import type { CardChargeJson, OrderJson } from '#domain/schemas/checkout';
import { orderFailed } from '#domain/schemas/checkout';
import {
  type ChargeSync,
  type CheckoutFailedContext,
  checkoutFailedMachine,
  connectCheckoutFailed,
} from '../machines/checkoutFailed';
import { type AppActors, AppContext } from '../src/views/AppContext';
import { CheckoutFailedPage, CheckoutFailedView } from '../src/views/purchase/CheckoutFailedPage';
import { CHARGE_ID, charge, ITEM, ORDER_ID } from './cardPayment.model';
import { checkoutFailedModel, order, SESSION_ID } from './checkoutFailed.model';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';

function perform(step: PathStep) {
  if (step.event.type === 'order.retry') return clickFirst('Try again');
  return false;
}

/** The page against the view model of the expected snapshot; the fixtures name what it should say. */
function check(expected: AnyMachineSnapshot) {
  const c = expected.context as CheckoutFailedContext;
  const article = screen.getByRole('article');
  const heading = screen.getByRole('heading', { level: 1 }).textContent;
  const view = connectCheckoutFailed(expected as never, () => {});
  const busy = view.busy;
  expect(article.getAttribute('aria-busy')).toBe(busy ? 'true' : null);
  const marketplace = screen.queryByRole('link', { name: 'Back to marketplace' });
  const item = screen.queryByRole('link', { name: 'Back to the item' });
  if (busy) {
    expect(heading).toBe('Purchase Failed');
    expect(screen.getByRole('status')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(marketplace).toBeNull();
    return;
  }
  expect(marketplace?.getAttribute('href')).toBe('/marketplace');
  if (view.panel === 'error') {
    expect(heading).toBe(view.title);
    const missing = c.error?.code === 'not_found';
    expect(heading).toBe(missing ? 'Order not found' : 'Purchase Failed');
    expect(screen.getByRole('alert').textContent).toContain(
      missing ? "We couldn't find this order." : 'We could not load this order.',
    );
    expect(!!screen.queryByRole('button', { name: 'Try again' })).toBe(!missing);
    expect(item).toBeNull();
    expect(screen.queryByRole('region', { name: 'Your order' })).toBeNull();
    return;
  }
  const o = c.order!;
  expect(heading).toBe(
    orderFailed(o.status)
      ? 'Purchase Failed'
      : o.status === 'created'
        ? 'Payment not completed'
        : 'Payment received',
  );
  if (orderFailed(o.status)) expect(screen.getByRole('alert').textContent).toBe('Your card was not charged.');
  const region = screen.getByRole('region', { name: 'Your order' });
  expect(region.textContent).toContain(ITEM.title);
  expect(region.textContent).toContain('$25');
  const entries = within(screen.getByRole('list', { name: 'Order timeline' })).getAllByRole('listitem');
  expect(entries.map((e) => e.querySelector('strong')!.textContent)).toEqual(
    o.status === 'created'
      ? ['Order placed']
      : ['Order placed', o.status === 'declined' ? 'Payment declined' : 'Payment authorized'],
  );
  expect(entries.map((e) => e.querySelector('time')!.getAttribute('dateTime'))).toEqual(
    o.events.map((e) => new Date(e.at).toISOString()),
  );
  if (o.status === 'declined') expect(entries[1]!.textContent).toContain('20005 Do Not Honour');
  expect(item?.getAttribute('href')).toBe(`/nft/${ITEM.id}`);
  expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
}

describe('failed-checkout paths through the page', () => {
  for (const path of coveringPaths(checkoutFailedModel)) {
    it(path.description, () =>
      runPath(checkoutFailedModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <CheckoutFailedView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});

describe('the /checkoutcomfailed route', () => {
  it('reads the order id from the path and the 3-D Secure session from the query', async () => {
    const syncs: ChargeSync[] = [];
    const machine = checkoutFailedMachine.provide({
      actors: {
        findCharge: fromPromise<CardChargeJson | null, { orderId: string }>(async ({ input }) =>
          input.orderId === ORDER_ID ? charge('challenge') : null,
        ),
        syncCharge: fromPromise<CardChargeJson, ChargeSync>(async ({ input }) => {
          syncs.push(input);
          return charge('declined');
        }),
        loadOrder: fromPromise<OrderJson, { id: string }>(async () => order('declined')),
      },
    });
    const root = createRootRoute();
    // The page is one of the signed-in pages, under the app's authenticated layout.
    const authenticated = createRoute({ getParentRoute: () => root, id: '_authenticated' });
    const failed = createRoute({
      getParentRoute: () => authenticated,
      path: '/checkoutcomfailed/$reference',
      validateSearch: (s: Record<string, unknown>) =>
        typeof s['cko-session-id'] === 'string' ? { 'cko-session-id': s['cko-session-id'] } : {},
      loader: () => ({ machine }),
      component: CheckoutFailedPage,
    });
    const router = createRouter({
      routeTree: root.addChildren([authenticated.addChildren([failed])]),
      history: createMemoryHistory({
        initialEntries: [`/checkoutcomfailed/${ORDER_ID}?cko-session-id=${SESSION_ID}`],
      }),
    });
    await act(async () => {
      render(
        <AppContext.Provider value={{} as AppActors}>
          <RouterProvider router={router as never} />
        </AppContext.Provider>,
      );
      await router.load();
    });
    expect(await screen.findByRole('region', { name: 'Your order' })).toBeTruthy();
    expect(syncs).toEqual([{ id: CHARGE_ID, ckoSessionId: SESSION_ID }]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Purchase Failed');
  });
});
