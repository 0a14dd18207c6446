import { fromCallback } from 'xstate';
import type { MobileWallet, WalletPaymentEvent, WalletSheetCommand } from '#domain/ports/checkout';
import type { PaymentsConfigJson } from '#domain/schemas/checkout';
import type { Api } from './api';
import {
  type ApplePayContact,
  type ApplePaySessionLike,
  appleBilling,
  applePayRequest,
  type GooglePaymentsClient,
  googleBilling,
  googlePayRequest,
} from './wallet-requests';

/**
 * The wallet's payment sheet as the walletPayment machine's `sheet` actor: Safari's ApplePaySession
 * (merchant validation through our server) or Google's `loadPaymentData`.
 */
export function walletSheet({
  api,
  config,
  loadGoogle,
  googleClient,
}: {
  api: Api;
  config: () => Promise<PaymentsConfigJson>;
  loadGoogle: (c: PaymentsConfigJson) => Promise<boolean>;
  googleClient: (c: PaymentsConfigJson) => GooglePaymentsClient | null;
}) {
  return fromCallback<WalletSheetCommand, { wallet: MobileWallet; price: number; label: string }>(
    ({ input, sendBack, receive }) => {
      const send = (event: WalletPaymentEvent) => sendBack(event as never);
      let ended = false;
      if (input.wallet === 'applepay') {
        const ApplePaySession = window.ApplePaySession;
        if (!ApplePaySession) {
          send({ type: 'wallet.failed', error: new Error('Apple Pay is not available') });
          return;
        }
        // Version 3: supports3DS and the contact fields used here. Safari throws on a malformed request.
        let session: ApplePaySessionLike;
        try {
          session = new ApplePaySession(3, applePayRequest(input.price, input.label));
        } catch (error) {
          send({ type: 'wallet.failed', error });
          return;
        }
        session.onvalidatemerchant = (event) => {
          api
            .post('/checkout-com-charges/actions/applepay', { json: { validationURL: event.validationURL } })
            .then((merchantSession) => session.completeMerchantValidation(merchantSession))
            .catch((error) => {
              ended = true;
              session.abort();
              send({ type: 'wallet.failed', error });
            });
        };
        session.addEventListener('paymentauthorized', (event) => {
          const { payment } = event as unknown as {
            payment: {
              token: { paymentData: unknown };
              billingContact?: ApplePayContact;
              shippingContact?: ApplePayContact;
            };
          };
          send({
            type: 'wallet.authorized',
            authorization: {
              tokenData: payment.token.paymentData,
              billing: appleBilling(payment.billingContact, payment.shippingContact),
            },
          });
        });
        session.addEventListener('cancel', () => {
          if (ended) return;
          ended = true;
          send({ type: 'wallet.canceled' });
        });
        receive((command) => {
          ended = true;
          session.completePayment(
            command.success ? (ApplePaySession.STATUS_SUCCESS ?? 0) : (ApplePaySession.STATUS_FAILURE ?? 1),
          );
        });
        session.begin();
        return () => {
          if (!ended) session.abort();
        };
      }
      let stopped = false;
      void config()
        .then(async (c) => {
          if (c.googlePay) await loadGoogle(c);
          const client = googleClient(c);
          if (!client || !c.googlePay) throw new Error('Google Pay is not available');
          const data = await client.loadPaymentData(googlePayRequest(input.price, c.googlePay));
          if (stopped) return;
          send({
            type: 'wallet.authorized',
            authorization: {
              tokenData: JSON.parse(data.paymentMethodData.tokenizationData.token),
              billing: googleBilling(data.paymentMethodData.info?.billingAddress),
            },
          });
        })
        .catch((error: { statusCode?: string }) => {
          if (stopped) return;
          send(
            error?.statusCode === 'CANCELED' ? { type: 'wallet.canceled' } : { type: 'wallet.failed', error },
          );
        });
      return () => {
        stopped = true;
      };
    },
  );
}
