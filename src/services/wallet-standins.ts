import {
  applePayTestToken,
  type GooglePayAuthMethod,
  googlePayTestToken,
} from '../../sandbox/checkout-com/wallets';
import type { PaymentsConfigJson } from '../domain/schemas/checkout';
import type { GooglePaymentsClient } from './wallets';

/**
 * Stand-ins for Apple Pay and Google Pay where the card provider is our sandbox (development and
 * the browser tests): `apple-pay-js-stubs` plays `ApplePaySession`, and a `PaymentsClient` of the
 * same shape plays Google Pay (Google's script cannot load here). Both show a small test-wallet
 * sheet over the page: the buyer picks a test card (one that pays, one with insufficient funds, one
 * declined), whether the wallet shares a billing address, and pays or cancels. The payment tokens
 * are the sandbox's test format (sandbox/checkout-com/wallets.ts), so the rest of the flow — the
 * merchant validation, the token exchange at the card provider and the charge — is the real one.
 */

const TEST_CARDS = [
  { label: 'Visa •••• 4242', number: '4242424242424242', network: 'Visa' },
  { label: 'Mastercard •••• 6378', number: '5436031030606378', network: 'MasterCard' },
  { label: 'Visa •••• 2505 (insufficient funds)', number: '4095254802642505', network: 'Visa' },
  { label: 'Visa •••• 3670 (declined)', number: '4544249167673670', network: 'Visa' },
];
const TEST_ADDRESS = {
  name: 'Grace Hopper',
  address1: '1 Test Street',
  locality: 'Arlington',
  administrativeArea: 'VA',
  postalCode: '22201',
  countryCode: 'US',
  phoneNumber: '+1 703 555 0100',
};

interface SheetChoice {
  card: (typeof TEST_CARDS)[number];
  shareAddress: boolean;
}

/** The test wallet's sheet: resolves with the buyer's choice, or null when canceled. */
function showSheet(title: string, total: string): Promise<SheetChoice | null> {
  return new Promise((resolve) => {
    const root = document.createElement('div');
    root.className = 'vt-wallet-standin';
    root.setAttribute('role', 'dialog');
    root.setAttribute('aria-modal', 'true');
    root.setAttribute('aria-label', title);
    root.style.cssText =
      'position:fixed;inset:0;z-index:10001;display:grid;place-items:end center;background:rgb(0 0 0 / 45%);font:16px system-ui,sans-serif';
    const panel = document.createElement('form');
    panel.style.cssText =
      'background:#fff;color:#111;width:min(420px,100%);padding:20px;border-radius:16px 16px 0 0;display:grid;gap:12px';
    panel.innerHTML = `<h2 style="margin:0;font-size:18px">${title}</h2>
<p style="margin:0">Test wallet · nothing is charged. Total <strong>${total}</strong></p>
<label style="display:grid;gap:4px">Card<select name="card">${TEST_CARDS.map(
      (c, i) => `<option value="${i}">${c.label}</option>`,
    ).join('')}</select></label>
<label><input type="checkbox" name="address" checked> Share my billing address</label>
<div style="display:flex;gap:8px;justify-content:flex-end"><button type="button" name="cancel">Cancel</button><button type="submit">Pay ${total}</button></div>`;
    root.append(panel);
    const done = (choice: SheetChoice | null) => {
      root.remove();
      resolve(choice);
    };
    panel.querySelector<HTMLButtonElement>('button[name="cancel"]')!.onclick = () => done(null);
    panel.onsubmit = (e) => {
      e.preventDefault();
      const data = new FormData(panel);
      done({ card: TEST_CARDS[Number(data.get('card'))]!, shareAddress: data.get('address') === 'on' });
    };
    document.body.append(root);
    panel.querySelector('select')!.focus();
  });
}

let installed = false;

export async function installWalletStandIns(config: PaymentsConfigJson): Promise<void> {
  if (installed) return;
  installed = true;
  if (config.applePay) await installApplePay();
  if (config.googlePay) installGooglePay(config.googlePay.gatewayMerchantId);
}

async function installApplePay() {
  await import('apple-pay-js-stubs');
  const stub = window.ApplePaySession as unknown as {
    stubCanMakePayments: boolean;
    stubCanMakePaymentsWithActiveCard: boolean;
    stubExecuteAfterMerchantValidation: (
      session: EventTarget & { request: { total: { amount: string } } },
    ) => void;
    STATUS_SUCCESS: number;
    STATUS_FAILURE: number;
  };
  stub.stubCanMakePayments = true;
  stub.stubCanMakePaymentsWithActiveCard = true;
  // Apple's status constants, which the stub leaves out.
  stub.STATUS_SUCCESS = 0;
  stub.STATUS_FAILURE = 1;
  // After the merchant validation, the buyer authorizes (or cancels) in the test wallet's sheet.
  stub.stubExecuteAfterMerchantValidation = (session) => {
    const total = Number(session.request.total.amount);
    void showSheet('Apple Pay (test wallet)', `$${total.toFixed(2)}`).then((choice) => {
      if (!choice) {
        session.dispatchEvent(new Event('cancel'));
        return;
      }
      const Authorized = (
        window as unknown as { ApplePayPaymentAuthorizedEvent: new (payment: unknown) => Event }
      ).ApplePayPaymentAuthorizedEvent;
      const [givenName, familyName] = TEST_ADDRESS.name.split(' ');
      session.dispatchEvent(
        new Authorized({
          token: {
            paymentData: applePayTestToken(choice.card.number, { amount: Math.round(total * 100) }),
            paymentMethod: { displayName: choice.card.label, network: choice.card.network, type: 'credit' },
            transactionIdentifier: crypto.randomUUID().replace(/-/g, '').toUpperCase(),
          },
          billingContact: choice.shareAddress
            ? {
                givenName,
                familyName,
                addressLines: [TEST_ADDRESS.address1],
                locality: TEST_ADDRESS.locality,
                administrativeArea: TEST_ADDRESS.administrativeArea,
                postalCode: TEST_ADDRESS.postalCode,
                countryCode: TEST_ADDRESS.countryCode,
              }
            : { givenName, familyName },
        }),
      );
    });
  };
}

/** Google's PaymentsClient, as far as the checkout uses it, backed by the test wallet's sheet. */
class PaymentsClientStandIn implements GooglePaymentsClient {
  constructor(
    private readonly options: { environment: string },
    private readonly gatewayMerchantId: string,
  ) {}
  async isReadyToPay(): Promise<{ result: boolean }> {
    return { result: this.options.environment === 'TEST' };
  }
  async loadPaymentData(request: {
    transactionInfo: { totalPrice: string };
    allowedPaymentMethods: { parameters: { allowedAuthMethods: GooglePayAuthMethod[] } }[];
  }) {
    const choice = await showSheet('Google Pay (test wallet)', `$${request.transactionInfo.totalPrice}`);
    if (!choice) throw { statusCode: 'CANCELED', statusMessage: 'User closed the Payment Request UI.' };
    const authMethod = request.allowedPaymentMethods[0]!.parameters.allowedAuthMethods.at(-1)!;
    const token = googlePayTestToken(choice.card.number, authMethod, {
      gatewayMerchantId: this.gatewayMerchantId,
    });
    return {
      apiVersion: 2,
      apiVersionMinor: 0,
      paymentMethodData: {
        type: 'CARD',
        description: choice.card.label,
        info: {
          cardNetwork: choice.card.network.toUpperCase(),
          cardDetails: choice.card.number.slice(-4),
          ...(choice.shareAddress ? { billingAddress: TEST_ADDRESS } : {}),
        },
        tokenizationData: { type: 'PAYMENT_GATEWAY', token: JSON.stringify(token) },
      },
    };
  }
}

function installGooglePay(gatewayMerchantId: string) {
  window.google = {
    payments: {
      api: {
        PaymentsClient: class extends PaymentsClientStandIn {
          constructor(options: { environment: string }) {
            super(options, gatewayMerchantId);
          }
        },
      },
    },
  };
}
