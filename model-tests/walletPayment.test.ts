import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { errorMessage } from '#domain/errors';
import type { CardChargeJson, CreateCardChargeBody } from '#domain/schemas/checkout';
import { cardPaid } from '../machines/cardPayment/charge';
import {
  type WalletPaymentEvent,
  type WalletSheetCommand,
  walletPaymentMachine,
} from '../machines/walletPayment';
import { connectWalletPayment } from '../machines/walletPaymentView';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import {
  ADDRESS,
  AUTHORIZED,
  charge,
  DECLINED,
  ITEM,
  NETWORK_ERROR,
  NO_ADDRESS,
  ORDER_ID,
  PRICE,
  SCENARIOS,
  TOKEN_ERROR,
  walletPaymentModel,
} from './walletPayment.model';

describe('walletPayment machine paths', () => {
  const paths = generatePaths(walletPaymentModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(10));
  for (const path of paths) it(path.description, () => runPath(walletPaymentModel, path));
  afterAll(() => flushCoverage('machine'));
});

const fail = (error: unknown) => async (): Promise<never> => {
  throw error;
};

/** The real machine with a sheet the test drives and scripted token and charge answers. */
function start(
  wallet: 'applepay' | 'googlepay',
  script: {
    tokenize?: () => Promise<{ token: string }>;
    charge?: (n: number) => Promise<CardChargeJson>;
  } = {},
) {
  const sheets: { wallet: string; price: number; label: string }[] = [];
  const completions: boolean[] = [];
  const charges: CreateCardChargeBody[] = [];
  const tokenized: unknown[] = [];
  let sheetSend: ((e: WalletPaymentEvent) => void) | null = null;
  const actor = createActor(
    walletPaymentMachine.provide({
      actors: {
        sheet: fromCallback<
          WalletSheetCommand,
          { wallet: 'applepay' | 'googlepay'; price: number; label: string }
        >(({ input, sendBack, receive }) => {
          sheets.push(input);
          sheetSend = sendBack as never;
          receive((c) => completions.push(c.success));
        }),
        tokenizeWallet: fromPromise(
          async ({ input }: { input: { wallet: 'applepay' | 'googlepay'; tokenData: unknown } }) => {
            tokenized.push(input.tokenData);
            return (script.tokenize ?? (async () => ({ token: 'tok_abcdefghijklmnopqrstuvwxyz' })))();
          },
        ),
        createCharge: fromPromise<CardChargeJson, CreateCardChargeBody>(async ({ input }) => {
          charges.push(input);
          return (script.charge ?? (async () => charge('approved')))(charges.length);
        }),
      },
    }),
    { input: SCENARIOS[wallet] },
  ).start();
  const send = actor.send.bind(actor);
  const view = () => connectWalletPayment(actor.getSnapshot(), send);
  /** Through the panel's controls: the terms checkbox, then the form's submit. */
  const open = () => {
    view().getTermsProps().onChange(true);
    view().submit();
  };
  return {
    actor,
    send,
    view,
    open,
    sheets,
    completions,
    charges,
    tokenized,
    sheet: (e: WalletPaymentEvent) => sheetSend!(e),
  };
}

describe('paying with a mobile wallet', () => {
  it('opens the sheet for the price, charges the wallet’s token with its billing contact, and tells the sheet', async () => {
    const { actor, view, open, sheets, sheet, charges, completions, tokenized } = start('applepay');
    expect(view()).toMatchObject({
      panel: 'review',
      title: 'Apple Pay',
      payLabel: 'Pay $25 with Apple Pay',
      canPay: false,
      receipt: 'The receipt goes to grace@example.com.',
    });
    expect(view().getPayButtonProps()).toEqual({ type: 'submit', disabled: true, 'data-state': 'disabled' });
    expect(view().getTermsProps()).toMatchObject({ checked: false, 'data-state': 'unchecked' });
    open();
    expect(view().getPayButtonProps()).toMatchObject({
      disabled: true,
      'aria-busy': true,
      'data-state': 'busy',
    });
    expect(sheets).toEqual([{ wallet: 'applepay', price: PRICE, label: ITEM.title }]);
    expect(view()).toMatchObject({ busy: true, status: 'Confirm the payment in Apple Pay…', canBack: false });
    sheet(AUTHORIZED);
    await waitFor(actor, (s) => s.status === 'done');
    expect(tokenized).toEqual([{ version: 'EC_v1' }]);
    expect(charges).toEqual([
      {
        item: { kind: ITEM.kind, id: ITEM.id },
        expectedPrice: PRICE,
        idempotencyKey: expect.stringMatching(/^[\w-]{36}$/),
        billingInfo: { wallet: 'applepay', cardToken: 'tok_abcdefghijklmnopqrstuvwxyz', ...ADDRESS },
      },
    ]);
    expect(completions).toEqual([true]);
    expect(actor.getSnapshot().output).toEqual(cardPaid(charge('approved')));
  });

  it('a canceled sheet, a refused validation and a contact without an address return to the panel with their reasons', async () => {
    const { actor, view, open, sheet, charges, completions } = start('applepay');
    for (const [event, code] of [
      [{ type: 'wallet.canceled' }, 'APPLE_PAY_CANCELED'],
      [{ type: 'wallet.failed', error: new Error('x') }, 'PROCESSING_ERROR'],
      [NO_ADDRESS, 'APPLE_PAY_ADDRESS'],
    ] as const) {
      open();
      sheet(event as WalletPaymentEvent);
      expect(actor.getSnapshot().value).toBe('review');
      expect(view().error).toBe(errorMessage({ code }));
    }
    expect(charges).toEqual([]);
    expect(completions).toEqual([false]);
  });

  it('Google Pay without a whole address asks for the rest on the "Google Pay billing" panel, then pays', async () => {
    const { actor, view, open, sheet, charges, completions } = start('googlepay');
    open();
    sheet({
      type: 'wallet.authorized',
      authorization: {
        tokenData: { protocolVersion: 'ECv2' },
        billing: {
          firstName: 'Grace',
          lastName: 'Hopper',
          zipCode: '22201',
          country: 'US',
          phoneNumber: '+1 555',
        },
      },
    });
    expect(view()).toMatchObject({
      panel: 'billing',
      title: 'Google Pay billing',
      busy: false,
      canBack: true,
      billingText: 'Google Pay did not share your whole billing address. Complete it to pay $25.',
    });
    expect(view().billing.values).toMatchObject({ firstName: 'Grace', zipCode: '22201', addressLine1: '' });
    // Continue checks the address by the billing rules; a changed field's error goes.
    expect(view().getPayButtonProps()).toEqual({ type: 'submit', disabled: false, 'data-state': 'idle' });
    view().submit();
    expect(Object.keys(view().billing.errors).sort()).toEqual(['addressLine1', 'city', 'state']);
    view().changeBilling({ addressLine1: '1 Test Street' });
    expect(Object.keys(view().billing.errors).sort()).toEqual(['city', 'state']);
    view().changeBilling({ city: 'Arlington', state: 'VA' });
    view().submit();
    await waitFor(actor, (s) => s.status === 'done');
    expect(charges).toEqual([
      expect.objectContaining({
        billingInfo: {
          wallet: 'googlepay',
          cardToken: 'tok_abcdefghijklmnopqrstuvwxyz',
          ...ADDRESS,
          phoneNumber: '+1 555',
        },
      }),
    ]);
    expect(completions).toEqual([true]);

    // Back from the billing panel returns to the wallet panel, with nothing charged.
    const back = start('googlepay');
    back.open();
    back.sheet(NO_ADDRESS);
    expect(back.view().panel).toBe('billing');
    back.view().getBackButtonProps().onClick!();
    expect(back.view()).toMatchObject({ panel: 'review', error: null, canPay: true });
    expect(back.charges).toEqual([]);
  });

  it('a token the provider refuses is CHECKOUT_COM_TOKEN, and nothing is charged', async () => {
    const { actor, view, open, sheet, charges } = start('applepay', { tokenize: fail(TOKEN_ERROR) });
    open();
    sheet(AUTHORIZED);
    await waitFor(actor, (s) => s.matches('review'));
    expect(view().error).toBe(errorMessage({ code: 'CHECKOUT_COM_TOKEN' }));
    expect(charges).toEqual([]);
  });

  it('ends failed on a decline (the order), redirect on 3-D Secure, and keeps the key after a network failure', async () => {
    const declined = start('googlepay', { charge: fail(DECLINED) });
    declined.open();
    declined.sheet(AUTHORIZED);
    await waitFor(declined.actor, (s) => s.status === 'done');
    expect(declined.actor.getSnapshot().output).toEqual({ type: 'failed', orderId: ORDER_ID });
    expect(declined.completions).toEqual([false]);

    const challenged = start('googlepay', { charge: async () => charge('challenge') });
    challenged.open();
    challenged.sheet(AUTHORIZED);
    await waitFor(challenged.actor, (s) => s.status === 'done');
    expect(challenged.actor.getSnapshot().output).toMatchObject({ type: 'redirect' });

    const flaky = start('applepay', {
      charge: (n) => (n === 1 ? fail(NETWORK_ERROR)() : Promise.resolve(charge('approved'))),
    });
    flaky.open();
    flaky.sheet(AUTHORIZED);
    await waitFor(flaky.actor, (s) => s.matches('review'));
    expect(flaky.view().error).toBe(NETWORK_ERROR.body.message);
    flaky.send({ type: 'wallet.submit' });
    flaky.sheet(AUTHORIZED);
    await waitFor(flaky.actor, (s) => s.status === 'done');
    expect(flaky.charges[1]!.idempotencyKey).toBe(flaky.charges[0]!.idempotencyKey);
  });

  it('Apple Pay refuses a contact without phone, calling code, address line 1, postal code, city, state or country, naming it', () => {
    for (const [change, field] of [
      [{ phoneNumber: undefined }, 'phoneNumber'],
      // No calling code can be told: not international, and no possible number of the country.
      [{ phoneNumber: '555' }, 'phoneNumber'],
      [{ addressLine1: ' ' }, 'addressLine1'],
      [{ zipCode: undefined }, 'zipCode'],
      [{ city: '' }, 'city'],
      [{ state: undefined }, 'state'],
      [{ country: undefined }, 'country'],
      [{ country: 'KP' }, 'country'],
    ] as const) {
      const { actor, view, open, sheet, charges, completions } = start('applepay');
      open();
      sheet({
        type: 'wallet.authorized',
        authorization: { tokenData: { version: 'EC_v1' }, billing: { ...ADDRESS, ...change } },
      });
      expect({ field, state: actor.getSnapshot().value, error: view().error }).toEqual({
        field,
        state: 'review',
        error: errorMessage({ code: 'APPLE_PAY_ADDRESS', field }),
      });
      expect(charges).toEqual([]);
      expect(completions).toEqual([false]);
    }
    expect(errorMessage({ code: 'APPLE_PAY_ADDRESS', field: 'phoneNumber' })).toMatch(/phone number/);
  });

  it('Apple Pay takes a phone written the national way for the contact’s country', async () => {
    const { actor, open, sheet, charges } = start('applepay');
    open();
    sheet({
      type: 'wallet.authorized',
      authorization: {
        tokenData: { version: 'EC_v1' },
        billing: { ...ADDRESS, phoneNumber: '(703) 555-0100' },
      },
    });
    await waitFor(actor, (s) => s.status === 'done');
    expect(charges[0]!.billingInfo).toMatchObject({ wallet: 'applepay', phoneNumber: '(703) 555-0100' });
  });

  it('Google Pay pays a contact with address line, city, postal code and country, without state or phone', async () => {
    const { actor, open, sheet, charges } = start('googlepay');
    open();
    const { state: _state, phoneNumber: _phone, ...rest } = ADDRESS;
    sheet({
      type: 'wallet.authorized',
      authorization: { tokenData: { protocolVersion: 'ECv2' }, billing: rest },
    });
    await waitFor(actor, (s) => s.status === 'done');
    expect(charges[0]!.billingInfo).toEqual({
      wallet: 'googlepay',
      cardToken: 'tok_abcdefghijklmnopqrstuvwxyz',
      ...rest,
    });
  });
});
