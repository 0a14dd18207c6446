import { fromCallback, fromPromise } from 'xstate';
import { ApiError, ErrorCode, errorMessage } from '#domain/errors';
import type {
  OnrampChargeRequest,
  OnrampPaymentEvent,
  OnrampReport,
  WidgetPaymentStatus,
} from '#domain/ports/checkout';
import { type CreateWertChargeBody, openWertChargeStatuses, type WertChargeJson } from '#domain/schemas/wert';
import type { Api } from './api';

/**
 * The card-to-crypto on-ramp: the product API's wert-charges, and the provider's widget opened with
 * its official initializer (`@wert-io/widget-initializer`, loaded only when this rail is used),
 * pointed at the origin the server names (the provider, or its sandbox outside production).
 */

/** 502 from wert-charges: the provider could not be asked (nothing was opened), not a network failure. */
async function providerReached<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError && error.status === 502)
      throw new ApiError(502, {
        code: ErrorCode.ONRAMP_PROVIDER,
        message: errorMessage({ code: ErrorCode.ONRAMP_PROVIDER }),
      });
    throw error;
  }
}

/** POST wert-charges' body: a blueprint or a pack at the price seen. */
export function wertChargeBody({ item, price, idempotencyKey }: OnrampChargeRequest): CreateWertChargeBody {
  return {
    ...(item.kind === 'pack' ? { blueprintPackId: item.id } : { blueprintId: item.id }),
    expectedPrice: price,
    idempotencyKey,
  };
}

export function wertService(api: Api) {
  return {
    createCharge: (request: OnrampChargeRequest) =>
      providerReached(api.post('/wert-charges', { json: wertChargeBody(request) })),
    /** PATCH without a status: the server asks the provider and answers the charge as it stands. */
    getCharge: (chargeId: string) =>
      providerReached(api.patch('/wert-charges/{id}', { params: { id: chargeId }, json: {} })),
    reportStarted: ({ id: chargeId, status }: OnrampReport) =>
      api.patch('/wert-charges/{id}', { params: { id: chargeId }, json: { status } }),
    /** The buyer's first on-ramp charge still payable (its order held, not expired), or null. */
    findOpenCharge: async (userId: string) => {
      const { results } = await api.get('/wert-charges', {
        query: {
          userId,
          statuses: openWertChargeStatuses.join(','),
        },
      });
      return results.find((charge) => charge.unresolved) ?? null;
    },
    cancelCharge: (chargeId: string) =>
      providerReached(
        api.patch('/wert-charges/{id}', { params: { id: chargeId }, json: { status: 'canceled' } }),
      ),
  };
}
export type WertService = ReturnType<typeof wertService>;

const STATUSES: WidgetPaymentStatus[] = ['pending', 'success', 'failed', 'canceled', 'failover'];

/**
 * The widget actor: opens the provider's widget for the charge and reports its payment statuses
 * (`onramp.widget.status`) and its closing (`onramp.widget.close`); stopping the actor closes it.
 */
export const wertWidget = fromCallback<OnrampPaymentEvent, { charge: WertChargeJson }>(
  ({ input, sendBack }) => {
    let widget: { open(): void; close(): void; removeEventListeners(): void } | null = null;
    let stopped = false;
    void import('@wert-io/widget-initializer').then(({ default: WertWidget }) => {
      if (stopped) return;
      const { charge } = input;
      widget = new WertWidget({
        ...charge.signedData,
        partner_id: charge.partnerId,
        click_id: charge.clickId,
        origin: charge.origin,
        extra: { item_info: charge.itemInfo },
        listeners: {
          'payment-status': (data: { status?: string; tx_id?: string }) => {
            const status = data?.status as WidgetPaymentStatus;
            const txId = typeof data?.tx_id === 'string' && data.tx_id !== '' ? data.tx_id : null;
            if (STATUSES.includes(status)) sendBack({ type: 'onramp.widget.status', status, txId });
          },
          close: () => {
            widget = null;
            sendBack({ type: 'onramp.widget.close' });
          },
        },
      } as never);
      widget.open();
    });
    return () => {
      stopped = true;
      const open = widget;
      widget = null;
      if (!open) return;
      // Closed by the flow: its own close listener must not report a buyer's close.
      open.removeEventListeners();
      open.close();
    };
  },
);

/** The actors onrampPaymentMachine names: `onrampPaymentMachine.provide({ actors: wertActors(api) })`. */
export function wertActors(api: Api, service: WertService = wertService(api)) {
  return {
    findOpenCharge: fromPromise<WertChargeJson | null, { userId: string }>(({ input }) =>
      service.findOpenCharge(input.userId),
    ),
    createCharge: fromPromise<WertChargeJson, OnrampChargeRequest>(({ input }) =>
      service.createCharge(input),
    ),
    widget: wertWidget,
    reportStarted: fromPromise<WertChargeJson, OnrampReport>(({ input }) => service.reportStarted(input)),
    cancelCharge: fromPromise<WertChargeJson, { id: string }>(({ input }) => service.cancelCharge(input.id)),
    getCharge: fromPromise<WertChargeJson, { id: string }>(({ input }) => service.getCharge(input.id)),
  };
}
