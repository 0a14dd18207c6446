import type { PaymentsConfigJson } from '#domain/schemas/checkout';
import {
  applePayRequestProblem,
  applePayTestToken,
  type GooglePayAuthMethod,
  googlePayRequestProblem,
  googlePayTestToken,
} from '../../sandbox/checkout-com/wallets';
import type { GooglePaymentsClient } from './wallets';

/**
 * Stand-ins for Apple Pay and Google Pay where the card provider is our sandbox (development and
 * the browser tests): `apple-pay-js-stubs` plays `ApplePaySession`, and a `PaymentsClient` of the
 * same shape plays Google Pay (Google's script cannot load here). Like the real ones they refuse a
 * malformed request: `new ApplePaySession` throws a TypeError, `isReadyToPay` and `loadPaymentData`
 * reject with DEVELOPER_ERROR (sandbox/checkout-com/wallets.ts says what each requires).
 *
 * Both show a small test-wallet sheet over the page: the buyer picks a test card (one that pays,
 * one with insufficient funds, one declined), whether the wallet shares a billing address, and the
 * contact it shares (name, phone, address line, city, state, postal code and country, each of which
 * can be emptied to leave it out), then pays or cancels. Apple Pay hands the address over as the
 * billing contact and the phone as the shipping contact, each only when the request asks for it;
 * Google Pay hands both over as the billing address. The payment tokens are the sandbox's test format
 * (sandbox/checkout-com/wallets.ts), so the rest of the flow — the merchant validation, the token
 * exchange at the card provider and the charge — is the real one.
 */

const TEST_CARDS = [
  { label: 'Visa •••• 4242', number: '4242424242424242', network: 'Visa' },
  { label: 'Mastercard •••• 6378', number: '5436031030606378', network: 'MasterCard' },
  { label: 'Visa •••• 2505 (insufficient funds)', number: '4095254802642505', network: 'Visa' },
  { label: 'Visa •••• 3670 (declined)', number: '4544249167673670', network: 'Visa' },
];

/** The test wallet's contact, as Google's Address names its fields. */
export interface StandInContact {
  name?: string;
  phoneNumber?: string;
  address1?: string;
  locality?: string;
  administrativeArea?: string;
  postalCode?: string;
  countryCode?: string;
}
/** What the sheet offers to share: complete by the rules of both wallets. */
export const TEST_CONTACT: Required<StandInContact> = {
  name: 'Grace Hopper',
  phoneNumber: '+1 703 555 0100',
  address1: '1 Test Street',
  locality: 'Arlington',
  administrativeArea: 'VA',
  postalCode: '22201',
  countryCode: 'US',
};
const CONTACT_INPUTS: { field: keyof StandInContact; label: string; autocomplete: string }[] = [
  { field: 'name', label: 'Name', autocomplete: 'name' },
  { field: 'phoneNumber', label: 'Phone', autocomplete: 'tel' },
  { field: 'address1', label: 'Address line 1', autocomplete: 'address-line1' },
  { field: 'locality', label: 'City', autocomplete: 'address-level2' },
  { field: 'administrativeArea', label: 'State', autocomplete: 'address-level1' },
  { field: 'postalCode', label: 'Postal code', autocomplete: 'postal-code' },
  { field: 'countryCode', label: 'Country code', autocomplete: 'country' },
];

interface SheetChoice {
  card: (typeof TEST_CARDS)[number];
  shareAddress: boolean;
  /** The fields left filled in, trimmed. */
  contact: StandInContact;
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
      'background:#fff;color:#111;width:min(420px,100%);max-height:100%;overflow:auto;padding:20px;border-radius:16px 16px 0 0;display:grid;gap:12px';
    panel.innerHTML = `<h2 style="margin:0;font-size:18px">${title}</h2>
<p style="margin:0">Test wallet · nothing is charged. Total <strong>${total}</strong></p>
<label style="display:grid;gap:4px">Card<select name="card">${TEST_CARDS.map(
      (c, i) => `<option value="${i}">${c.label}</option>`,
    ).join('')}</select></label>
<label><input type="checkbox" name="address" checked> Share my billing address</label>
<details><summary>Contact the wallet shares (empty a field to leave it out)</summary>
<div style="display:grid;grid-template-columns:1fr 1fr;gap:8px;margin-top:8px">${CONTACT_INPUTS.map(
      (input) =>
        `<label style="display:grid;gap:2px;font-size:14px">${input.label}<input name="${input.field}" autocomplete="${input.autocomplete}"></label>`,
    ).join('')}</div></details>
<div style="display:flex;gap:8px;justify-content:flex-end"><button type="button" name="cancel">Cancel</button><button type="submit">Pay ${total}</button></div>`;
    for (const { field } of CONTACT_INPUTS)
      panel.querySelector<HTMLInputElement>(`input[name="${field}"]`)!.value = TEST_CONTACT[field];
    root.append(panel);
    const done = (choice: SheetChoice | null) => {
      root.remove();
      resolve(choice);
    };
    panel.querySelector<HTMLButtonElement>('button[name="cancel"]')!.onclick = () => done(null);
    panel.onsubmit = (e) => {
      e.preventDefault();
      const data = new FormData(panel);
      const contact: StandInContact = {};
      for (const { field } of CONTACT_INPUTS) {
        const value = String(data.get(field) ?? '').trim();
        if (value) contact[field] = value;
      }
      done({
        card: TEST_CARDS[Number(data.get('card'))]!,
        shareAddress: data.get('address') === 'on',
        contact,
      });
    };
    document.body.append(root);
    panel.querySelector('select')!.focus();
  });
}

/** The contact fields an ApplePayPaymentRequest asks for. */
export interface ApplePayContactRequest {
  requiredBillingContactFields?: string[];
  requiredShippingContactFields?: string[];
}

/**
 * Apple's payment as the stand-in hands it over, with only what the request asked for, as Apple
 * does: the billing contact has the name with `postalAddress` or `name`, and the address (when
 * shared) with `postalAddress`; the shipping contact has the phone with `phone`.
 */
export function applePayContacts(
  { shareAddress, contact }: Omit<SheetChoice, 'card'>,
  request: ApplePayContactRequest,
) {
  const billing = request.requiredBillingContactFields ?? [];
  const shipping = request.requiredShippingContactFields ?? [];
  const [givenName, ...family] = (contact.name ?? '').split(/\s+/).filter(Boolean);
  const name =
    billing.includes('postalAddress') || billing.includes('name')
      ? { ...(givenName ? { givenName } : {}), ...(family.length ? { familyName: family.join(' ') } : {}) }
      : {};
  const address =
    shareAddress && billing.includes('postalAddress')
      ? {
          ...(contact.address1 ? { addressLines: [contact.address1] } : {}),
          ...(contact.locality ? { locality: contact.locality } : {}),
          ...(contact.administrativeArea ? { administrativeArea: contact.administrativeArea } : {}),
          ...(contact.postalCode ? { postalCode: contact.postalCode } : {}),
          ...(contact.countryCode ? { countryCode: contact.countryCode } : {}),
        }
      : {};
  const shippingContact =
    shipping.includes('phone') && contact.phoneNumber ? { phoneNumber: contact.phoneNumber } : {};
  return { billingContact: { ...name, ...address }, shippingContact };
}

/** Google's billing address as the stand-in hands it over (phone included), or none when not shared. */
export const googlePayBillingAddress = ({ shareAddress, contact }: Omit<SheetChoice, 'card'>) =>
  shareAddress ? contact : undefined;

let installing: Promise<void> | null = null;

/**
 * Installs the stand-ins once. Every caller waits for the same install: a second caller while the
 * first still loads Apple's stub (the checkout's rails asked on pointing at Buy, then on the press)
 * must not look for the wallets before they exist.
 */
export function installWalletStandIns(config: PaymentsConfigJson): Promise<void> {
  installing ??= (async () => {
    if (config.applePay) await installApplePay();
    if (config.googlePay) installGooglePay(config.googlePay);
  })();
  return installing;
}

async function installApplePay() {
  await import('apple-pay-js-stubs');
  type Stub = (new (
    version: number,
    request: unknown,
  ) => EventTarget) & {
    stubCanMakePayments: boolean;
    stubCanMakePaymentsWithActiveCard: boolean;
    stubExecuteAfterMerchantValidation: (
      session: EventTarget & { request: ApplePayContactRequest & { total: { amount: string } } },
    ) => void;
    STATUS_SUCCESS: number;
    STATUS_FAILURE: number;
  };
  const Base = window.ApplePaySession as unknown as Stub;
  // Safari refuses a malformed payment request when the session is made.
  const ApplePaySession = class extends Base {
    constructor(version: number, request: unknown) {
      const problem = applePayRequestProblem(request);
      if (problem) throw new TypeError(`ApplePaySession: ${problem}`);
      super(version, request);
    }
  } as unknown as Stub;
  window.ApplePaySession = ApplePaySession as never;
  ApplePaySession.stubCanMakePayments = true;
  ApplePaySession.stubCanMakePaymentsWithActiveCard = true;
  // Apple's status constants, which the stub leaves out.
  ApplePaySession.STATUS_SUCCESS = 0;
  ApplePaySession.STATUS_FAILURE = 1;
  // After the merchant validation, the buyer authorizes (or cancels) in the test wallet's sheet.
  ApplePaySession.stubExecuteAfterMerchantValidation = (session) => {
    const total = Number(session.request.total.amount);
    void showSheet('Apple Pay (test wallet)', `$${total.toFixed(2)}`).then((choice) => {
      if (!choice) {
        session.dispatchEvent(new Event('cancel'));
        return;
      }
      const Authorized = (
        window as unknown as { ApplePayPaymentAuthorizedEvent: new (payment: unknown) => Event }
      ).ApplePayPaymentAuthorizedEvent;
      session.dispatchEvent(
        new Authorized({
          token: {
            paymentData: applePayTestToken(choice.card.number, { amount: Math.round(total * 100) }),
            paymentMethod: { displayName: choice.card.label, network: choice.card.network, type: 'credit' },
            transactionIdentifier: crypto.randomUUID().replace(/-/g, '').toUpperCase(),
          },
          ...applePayContacts(choice, session.request),
        }),
      );
    });
  };
}

/** Google's refusal of a malformed request (the shape of its client's PaymentsError). */
const developerError = (statusMessage: string) => ({ statusCode: 'DEVELOPER_ERROR', statusMessage });

/** Google's PaymentsClient, as far as the checkout uses it, backed by the test wallet's sheet. */
export class PaymentsClientStandIn implements GooglePaymentsClient {
  constructor(
    private readonly options: { environment: string },
    private readonly gatewayMerchantId: string,
  ) {
    if (options.environment !== 'TEST' && options.environment !== 'PRODUCTION')
      throw new Error(`Unsupported environment: ${options.environment}`);
  }
  private check(request: unknown, call: 'isReadyToPay' | 'loadPaymentData') {
    const problem = googlePayRequestProblem(request, call, {
      environment: this.options.environment,
      gateway: 'checkoutltd',
      gatewayMerchantId: this.gatewayMerchantId,
    });
    if (problem) throw developerError(problem);
  }
  /** Ready in TEST only: the sandbox's tokens are test tokens. */
  async isReadyToPay(request: unknown): Promise<{ result: boolean }> {
    this.check(request, 'isReadyToPay');
    return { result: this.options.environment === 'TEST' };
  }
  async loadPaymentData(request: unknown) {
    this.check(request, 'loadPaymentData');
    const { transactionInfo, allowedPaymentMethods } = request as {
      transactionInfo: { totalPrice: string };
      allowedPaymentMethods: { parameters: { allowedAuthMethods: GooglePayAuthMethod[] } }[];
    };
    const choice = await showSheet('Google Pay (test wallet)', `$${transactionInfo.totalPrice}`);
    if (!choice) throw { statusCode: 'CANCELED', statusMessage: 'User closed the Payment Request UI.' };
    const authMethod = allowedPaymentMethods[0]!.parameters.allowedAuthMethods.at(-1)!;
    const token = googlePayTestToken(choice.card.number, authMethod, {
      gatewayMerchantId: this.gatewayMerchantId,
    });
    const billingAddress = googlePayBillingAddress(choice);
    return {
      apiVersion: 2,
      apiVersionMinor: 0,
      paymentMethodData: {
        type: 'CARD',
        description: choice.card.label,
        info: {
          cardNetwork: choice.card.network.toUpperCase(),
          cardDetails: choice.card.number.slice(-4),
          ...(billingAddress ? { billingAddress } : {}),
        },
        tokenizationData: { type: 'PAYMENT_GATEWAY', token: JSON.stringify(token) },
      },
    };
  }
}

function installGooglePay({ gatewayMerchantId }: NonNullable<PaymentsConfigJson['googlePay']>) {
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
