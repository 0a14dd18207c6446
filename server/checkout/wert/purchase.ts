import { and, eq } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import type { WertChargeJson } from '#domain/responses/checkout';
import type { CreateWertChargeBody } from '#domain/schemas/wert';
import { wertCharges } from '../../db/schema';
import type { Services } from '../../deps';
import { apiError, badRequest } from '../../http';
import type { OnrampProvider } from '../../payments/onramp-provider';
import { checkNewEdition } from '../items';
import type { OrderRow } from '../orders';
import { type PurchaseRequest, type Started, startPurchase } from '../workflow/start';
import { wertChargeJson } from './queries';
import { wertRail } from './rail';
import { type WertChargeRow, wertCharge } from './wert';

/** The card-to-crypto provider: 503 when card-to-crypto payments are off. */
export function onrampOf(s: Services): OnrampProvider {
  if (!s.onrampProvider)
    throw apiError(503, 'unavailable', undefined, 'Card-to-crypto payments are not available.');
  return s.onrampProvider;
}

/** A charge as the buyer sees it, with what the provider's widget needs. */
export const wertAnswer = (s: Services, row: WertChargeRow): Promise<WertChargeJson> =>
  wertChargeJson(s.db, row, {
    partnerId: onrampOf(s).partnerId,
    origin: onrampOf(s).origin,
    publicUrl: s.config.publicUrl,
    now: s.clock(),
  });

type WertPurchase = PurchaseRequest<CreateWertChargeBody>;

/**
 * An on-ramp purchase of a new edition (POST wert-charges): the purchase workflow
 * (../workflow/start.ts) up to the reservation, whose charge is the widget's signed options; the
 * payment is heard of later (the provider's webhook, or the buyer's sync).
 */
export function startWertPurchase(s: Services, p: WertPurchase): Promise<Started<WertChargeJson>> {
  const now = s.clock();
  const { user, body } = p;
  /** The order's charge: none when the key is another purchase's (by card, crypto, a claim). */
  const chargeOf = async (order: OrderRow) => {
    const [row] = await s.db.select().from(wertCharges).where(eq(wertCharges.orderId, order.id));
    if (!row)
      throw badRequest(ErrorCode.INVALID_VALUE, 'idempotencyKey', 'This key belongs to another purchase.');
    return wertAnswer(s, row);
  };
  return startPurchase(s.db, {
    rail: wertRail,
    validate() {
      onrampOf(s);
      if (!user.walletAddress) throw badRequest(ErrorCode.WALLET_REQUIRED);
    },
    // A retry of a purchase answers the first one's charge, whatever happened to it since.
    async dedupe() {
      const [earlier] = await s.db
        .select()
        .from(wertCharges)
        .where(and(eq(wertCharges.buyerId, user.id), eq(wertCharges.idempotencyKey, body.idempotencyKey)));
      return earlier && wertAnswer(s, earlier);
    },
    check: async () => ({ item: await checkNewEdition(s.db, body, now) }),
    reservation: () => ({
      buyerId: user.id,
      clientAddress: p.clientAddress,
      idempotencyKey: body.idempotencyKey,
      walletAddress: user.walletAddress!,
      now,
      charge: wertCharge(
        onrampOf(s),
        {
          commodity: s.config.wert.commodity,
          network: s.config.wert.network,
          scAddress: s.config.wert.scAddress,
        },
        { buyerId: user.id, idempotencyKey: body.idempotencyKey, now },
      ),
    }),
    repeated: chargeOf,
    answer: chargeOf,
  });
}
