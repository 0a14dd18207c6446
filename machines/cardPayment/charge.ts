import { type BillingFormValues, billingDetails } from '#domain/billing';
import { type ApiErrorBody, toErrorBody } from '#domain/errors';
import type { CardCheckpoint } from '#domain/ports/checkout';
import type {
  BillingInfoJson,
  CardChargeJson,
  CheckoutItemKind,
  CreateCardChargeBody,
} from '#domain/schemas/checkout';
import { type RailOutcome, railPaid } from '../railOutcome';

export type { CardCheckpoint, CardToken, TokenizeInput } from '#domain/ports/checkout';

/** The card rail's input, context, events and output, and the charge request it builds. */
export interface CardPaymentInput {
  item: { kind: CheckoutItemKind; id: string; title: string };
  /** The price the buyer sees, in cents (sent as expectedPrice). */
  price: number;
  /** Where the receipt goes. */
  email: string;
  /** A charge of the buyer still waiting for 3-D Secure, to resume instead of paying again. */
  resume?: CardChargeJson | null;
  /** The charge the buyer left for 3-D Secure (kept across the redirect). */
  checkpoint?: CardCheckpoint | null;
  /**
   * What the new-card form starts with, from what the account and the browser already know: the
   * buyer's name and the country of the last card they paid with (an unsupported one is ignored).
   */
  prefill?: { firstName?: string; lastName?: string | null; country?: string | null };
}
/** How the card rail ends: paid (the charge's order), 3-D Secure's page, declined or back. */
export type CardPaymentOutput = RailOutcome;

/** Paid by card (or a mobile wallet): the purchase-complete page follows the charge's order. */
export const cardPaid = (charge: CardChargeJson): RailOutcome =>
  railPaid(charge.order, 'creditCard', charge.id);

/** One purchase attempt: its idempotency key and, for a new card, the token it was made with. */
export interface CardAttempt {
  key: string;
  token: string | null;
}
export type CardFieldErrors = Partial<Record<string, ApiErrorBody>>;

export interface CardPaymentContext {
  item: CardPaymentInput['item'];
  price: number;
  email: string;
  checkpoint: CardCheckpoint | null;
  cards: BillingInfoJson[];
  /** Pay with a saved card or a new one. */
  method: 'saved' | 'new';
  selectedId: string | null;
  /** The security code of the chosen saved card. */
  cvv: string;
  values: BillingFormValues;
  /** Field → error, shown once Pay was pressed. */
  errors: CardFieldErrors;
  acknowledged: boolean;
  attempt: CardAttempt | null;
  /** Why the last payment did not go through, or why the saved cards or the charge could not load. */
  error: ApiErrorBody | null;
  result: CardPaymentOutput | null;
}
export type CardPaymentEvent =
  | { type: 'card.select'; id: string }
  | { type: 'card.cvv'; value: string }
  | { type: 'card.new' }
  | { type: 'card.saved' }
  | { type: 'card.change'; values: Partial<BillingFormValues> }
  | { type: 'card.acknowledge'; value: boolean }
  | { type: 'card.submit' }
  | { type: 'card.back' }
  | { type: 'card.retry' };

export const selectedCard = (context: CardPaymentContext) =>
  context.cards.find((c) => c.id === context.selectedId);

/** The request body of the attempt. */
export function chargeBody(context: CardPaymentContext): CreateCardChargeBody {
  const base = {
    item: { kind: context.item.kind, id: context.item.id },
    expectedPrice: context.price,
    idempotencyKey: context.attempt!.key,
  };
  if (context.method === 'saved')
    return { ...base, savedBillingInfo: { id: context.selectedId!, cvv: context.cvv } };
  return {
    ...base,
    billingInfo: {
      cardToken: context.attempt!.token!,
      ...billingDetails(context.values),
      save: context.values.save,
    },
  };
}

/** A charge the provider has not answered the server about yet (its message is the text shown). */
export const CHARGE_PROCESSING = 'CHARGE_PROCESSING';

export const apiStatus = (error: unknown) => (error as { status?: number } | null)?.status;
/** The order a 402 decline names. */
export const declinedOrderId = (error: unknown) => {
  const orderId = (toErrorBody(error) as ApiErrorBody & { orderId?: unknown }).orderId;
  return apiStatus(error) === 402 && typeof orderId === 'string' ? orderId : null;
};
