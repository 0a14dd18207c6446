import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { errorMessage } from '#domain/errors';
import type { WertChargeJson } from '#domain/schemas/wert';
import {
  type OnrampChargeRequest,
  type OnrampPaymentEvent,
  type OnrampReport,
  onrampPaymentMachine,
} from '../machines/onrampPayment';
import { connectOnrampPayment } from '../machines/onrampPaymentView';
import { railPaid } from '../machines/railOutcome';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import {
  BUYER_ID,
  CANCEL_FAIL,
  CHARGE_ID,
  CHARGE_PENDING_ERROR,
  ITEM,
  NETWORK_ERROR,
  OTHER_ITEM,
  onrampPaymentModel,
  PRICE,
  SCENARIOS,
  SOLD_OUT_ERROR,
  wertCharge,
} from './onrampPayment.model';

describe('onrampPayment machine paths', () => {
  const paths = generatePaths(onrampPaymentModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(10));
  for (const path of paths) it(path.description, () => runPath(onrampPaymentModel, path));
  afterAll(() => flushCoverage('machine'));
});

interface Script {
  /** The buyer's open charge found when the panel opens (none by default). */
  open?: () => Promise<WertChargeJson | null>;
  create?: (n: number) => Promise<WertChargeJson>;
  cancel?: () => Promise<WertChargeJson>;
  get?: (n: number) => Promise<WertChargeJson>;
}
const fail = (error: unknown) => async (): Promise<never> => {
  throw error;
};

/** The real machine with scripted answers, a widget that the test drives, and a 1 ms poll interval. */
function start(script: Script = {}) {
  const creates: OnrampChargeRequest[] = [];
  const calls: string[] = [];
  const reports: OnrampReport[] = [];
  const finds: { userId: string }[] = [];
  let widgetSend: ((e: OnrampPaymentEvent) => void) | null = null;
  let widgetOpen = false;
  let gets = 0;
  const actor = createActor(
    onrampPaymentMachine.provide({
      actors: {
        findOpenCharge: fromPromise<WertChargeJson | null, { userId: string }>(async ({ input }) => {
          finds.push(input);
          return (script.open ?? (async () => null))();
        }),
        createCharge: fromPromise<WertChargeJson, OnrampChargeRequest>(async ({ input }) => {
          creates.push(input);
          return (script.create ?? (async () => wertCharge('created')))(creates.length);
        }),
        widget: fromCallback<OnrampPaymentEvent, { charge: WertChargeJson }>(({ sendBack }) => {
          widgetOpen = true;
          widgetSend = sendBack;
          return () => {
            widgetOpen = false;
          };
        }),
        reportStarted: fromPromise(async ({ input }: { input: OnrampReport }) => {
          calls.push('reportStarted');
          reports.push(input);
          return wertCharge(input.status);
        }),
        cancelCharge: fromPromise(async () => {
          calls.push('cancel');
          return (script.cancel ?? (async () => wertCharge('canceled')))();
        }),
        getCharge: fromPromise(async () => {
          calls.push('get');
          return (script.get ?? (async () => wertCharge('order_complete')))(++gets);
        }),
      },
      delays: { pollInterval: 1 },
    }),
    { input: SCENARIOS.blueprint },
  ).start();
  const send = actor.send.bind(actor);
  const view = () => connectOnrampPayment(actor.getSnapshot(), send);
  const pay = async () => {
    await waitFor(actor, (s) => !s.matches('finding'));
    send({ type: 'onramp.acknowledge', value: true });
    send({ type: 'onramp.submit' });
    await waitFor(actor, (s) => s.matches('widget') || s.matches('review'));
  };
  return {
    actor,
    send,
    view,
    pay,
    creates,
    calls,
    reports,
    finds,
    widget: (e: OnrampPaymentEvent) => widgetSend!(e),
    widgetOpen: () => widgetOpen,
  };
}

describe('paying through the on-ramp', () => {
  it('opens a charge at the price seen, shows the widget, and ends paid on its success', async () => {
    const { actor, view, pay, creates, widget, widgetOpen, calls } = start();
    expect(view()).toMatchObject({
      panel: 'review',
      title: 'Card to crypto',
      itemTitle: 'Night Market',
      price: '$25',
      payLabel: 'Pay $25 by card',
      canPay: false,
      receipt: 'The receipt goes to grace@example.com.',
    });
    await pay();
    expect(creates).toEqual([
      { item: ITEM, price: PRICE, idempotencyKey: expect.stringMatching(/^[\w-]{36}$/) },
    ]);
    expect(widgetOpen()).toBe(true);
    expect(view()).toMatchObject({
      panel: 'widget',
      busy: true,
      canBack: false,
      status: 'Complete your payment in the payment window.',
    });
    widget({ type: 'onramp.widget.status', status: 'pending' });
    await waitFor(actor, (s) => s.matches({ widget: 'open' }));
    expect(calls).toEqual(['reportStarted']);
    expect(view().status).toBe('Your payment is being processed…');
    widget({ type: 'onramp.widget.status', status: 'success' });
    expect(actor.getSnapshot().output).toEqual(wertPaid(wertCharge('paymentStarted')));
    expect(widgetOpen()).toBe(false);
  });

  it('closing the widget before paying cancels the charge and returns to the panel with a new attempt', async () => {
    const { actor, view, pay, creates, widget, calls, send } = start();
    await pay();
    widget({ type: 'onramp.widget.close' });
    await waitFor(actor, (s) => s.matches('review'));
    expect(calls).toEqual(['cancel']);
    expect(view()).toMatchObject({ panel: 'review', error: null, canPay: true });
    send({ type: 'onramp.submit' });
    await waitFor(actor, (s) => s.matches('widget'));
    expect(new Set(creates.map((c) => c.idempotencyKey)).size).toBe(2);
  });

  it('when cancelling is refused (wert_cancel_fail), follows the charge until it is paid', async () => {
    const { actor, view, pay, widget } = start({
      cancel: fail(CANCEL_FAIL),
      get: (n) => Promise.resolve(wertCharge(n < 3 ? 'transferStarted' : 'order_complete')),
    });
    await pay();
    widget({ type: 'onramp.widget.status', status: 'canceled' });
    await waitFor(actor, (s) => s.matches('following'));
    expect(view()).toMatchObject({
      panel: 'processing',
      error: errorMessage({ code: 'wert_cancel_fail' }),
      status: 'Confirming your payment…',
    });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual(wertPaid(wertCharge('order_complete')));
  });

  it('a failed payment or a failover returns to the panel with the reason', async () => {
    for (const [status, code] of [
      ['failed', 'ONRAMP_FAILED'],
      ['failover', 'ONRAMP_FAILOVER'],
    ] as const) {
      const { actor, view, pay, widget, widgetOpen } = start();
      await pay();
      widget({ type: 'onramp.widget.status', status });
      expect(actor.getSnapshot().value).toBe('review');
      expect(widgetOpen()).toBe(false);
      expect(view().error).toBe(errorMessage({ code }));
      expect(actor.getSnapshot().context.key).toBeNull();
    }
  });

  it('after a payment started and the widget closed, reads the charge 50 times, then offers to check again', async () => {
    const { actor, view, pay, widget, calls, send } = start({
      get: async () => wertCharge('transferStarted'),
    });
    await pay();
    widget({ type: 'onramp.widget.status', status: 'pending' });
    widget({ type: 'onramp.widget.close' });
    await waitFor(actor, (s) => s.matches('stillProcessing'));
    expect(calls.filter((c) => c === 'get')).toHaveLength(50);
    expect(view()).toMatchObject({
      panel: 'processing',
      canPay: true,
      payLabel: 'Check again',
      canBack: true,
    });
    send({ type: 'onramp.submit' });
    expect(view().status).toBe('Confirming your payment…');
  });

  it('an order that ended unpaid while followed returns to the panel', async () => {
    const { actor, view, pay, widget } = start({ get: async () => wertCharge('order_failed') });
    await pay();
    widget({ type: 'onramp.widget.status', status: 'pending' });
    widget({ type: 'onramp.widget.close' });
    await waitFor(actor, (s) => s.matches('review'));
    expect(view().error).toBe(errorMessage({ code: 'ONRAMP_FAILED' }));
  });

  it('keeps the key after a network failure and starts afresh after a refusal', async () => {
    const answers = [fail(NETWORK_ERROR), fail(SOLD_OUT_ERROR), async () => wertCharge('created')];
    const { actor, send, view, creates } = start({ create: (n) => answers[n - 1]!() });
    await waitFor(actor, (s) => s.matches('review'));
    send({ type: 'onramp.acknowledge', value: true });
    for (const message of [NETWORK_ERROR.body.message, SOLD_OUT_ERROR.body.message]) {
      send({ type: 'onramp.submit' });
      await waitFor(actor, (s) => s.matches('review') && !s.hasTag('busy'));
      expect(view().error).toBe(message);
    }
    send({ type: 'onramp.submit' });
    await waitFor(actor, (s) => s.matches('widget'));
    const keys = creates.map((c) => c.idempotencyKey);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
    expect(CHARGE_ID).toBeTruthy();
  });
});

describe('a payment the buyer started and did not finish', () => {
  it('tells the widget’s pending payment to the server: the payment, then its transfer', async () => {
    const { actor, pay, widget, reports, finds } = start();
    await pay();
    expect(finds).toEqual([{ userId: BUYER_ID }]);
    widget({ type: 'onramp.widget.status', status: 'pending', txId: null });
    await waitFor(actor, (s) => s.matches({ widget: 'open' }));
    widget({ type: 'onramp.widget.status', status: 'pending', txId: 'ab'.repeat(32) });
    await waitFor(actor, (s) => s.matches({ widget: 'open' }));
    expect(reports).toEqual([
      { id: CHARGE_ID, status: 'paymentStarted' },
      { id: CHARGE_ID, status: 'transferStarted' },
    ]);
  });

  it('is offered first: Resume opens the widget with it again, and its success ends the flow paid', async () => {
    const { actor, view, widget, widgetOpen, creates } = start({ open: async () => wertCharge('created') });
    await waitFor(actor, (s) => s.matches('openCharge'));
    expect(view()).toMatchObject({
      panel: 'open',
      busy: false,
      canResume: true,
      canCancel: true,
      canBack: true,
      canPay: false,
      status:
        'You started paying $25 for this item by card and did not finish. Resume the payment, or cancel it.',
    });
    // Resume is the open panel's submit button: the form's submit resumes.
    expect(view().getResumeButtonProps()).toEqual({ type: 'submit', disabled: false, 'data-state': 'idle' });
    expect(view().getCancelButtonProps()).toMatchObject({ disabled: false, 'data-state': 'idle' });
    view().submit();
    expect(widgetOpen()).toBe(true);
    expect(view()).toMatchObject({ panel: 'widget', status: 'Complete your payment in the payment window.' });
    widget({ type: 'onramp.widget.status', status: 'success' });
    expect(actor.getSnapshot().output).toEqual(wertPaid(wertCharge('created')));
    expect(creates).toEqual([]);
  });

  it('a resumed charge whose payment started is followed when the widget closes, not canceled', async () => {
    const { actor, view, widget, calls } = start({
      open: async () => wertCharge('payment_started'),
      get: async () => wertCharge('order_complete'),
    });
    await waitFor(actor, (s) => s.matches('openCharge'));
    view().submit();
    expect(view().status).toBe('Your payment is being processed…');
    widget({ type: 'onramp.widget.close' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls).toEqual(['get']);
  });

  it('names another item’s charge; Cancel releases it and goes on to this purchase', async () => {
    const { actor, view, calls } = start({
      open: async () => wertCharge('created', OTHER_ITEM),
    });
    await waitFor(actor, (s) => s.matches('openCharge'));
    expect(view().status).toBe(
      'You have an unfinished card payment of $25 for Harbor Lights. Resume it, or cancel it to buy this item.',
    );
    view().getCancelButtonProps().onClick!();
    expect(view()).toMatchObject({ panel: 'open', busy: true, status: 'Canceling your payment…' });
    expect(view().getCancelButtonProps()).toMatchObject({
      disabled: true,
      'aria-busy': true,
      'data-state': 'busy',
    });
    expect(view().getResumeButtonProps()).toMatchObject({ disabled: true });
    await waitFor(actor, (s) => s.matches('review'));
    expect(calls).toEqual(['cancel']);
    expect(actor.getSnapshot().context.charge).toBeNull();
    view().getTermsProps().onChange(true);
    expect(view()).toMatchObject({ panel: 'review', canPay: true, error: null });
    expect(view().getPayButtonProps()).toEqual({ type: 'submit', disabled: false, 'data-state': 'idle' });
  });

  it('a cancel refused (wert_cancel_fail) follows the charge; one that did not reach the server stays offered', async () => {
    const refused = start({
      open: async () => wertCharge('created'),
      cancel: fail(CANCEL_FAIL),
      get: async () => wertCharge('order_complete'),
    });
    await waitFor(refused.actor, (s) => s.matches('openCharge'));
    refused.view().getCancelButtonProps().onClick!();
    await waitFor(refused.actor, (s) => s.status === 'done');
    expect(refused.actor.getSnapshot().output).toEqual(wertPaid(wertCharge('order_complete')));

    const offline = start({ open: async () => wertCharge('created'), cancel: fail(NETWORK_ERROR) });
    await waitFor(offline.actor, (s) => s.matches('openCharge'));
    offline.view().getCancelButtonProps().onClick!();
    await waitFor(offline.actor, (s) => s.matches('openCharge') && !s.hasTag('busy'));
    expect(offline.view()).toMatchObject({
      panel: 'open',
      error: NETWORK_ERROR.body.message,
      canCancel: true,
    });
  });

  it('a purchase refused with CHARGE_PENDING looks for the open charge again and offers it', async () => {
    let found = 0;
    const { actor, view, send } = start({
      open: async () => (++found === 1 ? null : wertCharge('created', OTHER_ITEM)),
      create: fail(CHARGE_PENDING_ERROR),
    });
    await waitFor(actor, (s) => s.matches('review'));
    send({ type: 'onramp.acknowledge', value: true });
    send({ type: 'onramp.submit' });
    await waitFor(actor, (s) => s.matches('openCharge'));
    expect(view()).toMatchObject({ panel: 'open', error: null, canResume: true });
  });

  it('a charge no longer payable, or none, goes straight to the panel', async () => {
    for (const open of [async () => wertCharge('order_failed'), async () => null, fail(NETWORK_ERROR)]) {
      const { actor, view } = start({ open });
      expect(view()).toMatchObject({
        panel: 'review',
        busy: true,
        status: 'Looking for a payment you started…',
      });
      await waitFor(actor, (s) => s.matches('review'));
      expect(view()).toMatchObject({ busy: false, error: null, status: null });
    }
  });
});

/** Paid through the on-ramp: the purchase-complete page follows the charge's order. */
function wertPaid(charge: WertChargeJson) {
  return railPaid(charge.order, 'wert', charge.id);
}
