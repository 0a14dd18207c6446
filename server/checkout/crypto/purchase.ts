import { and, eq } from 'drizzle-orm';
import type * as v from 'valibot';
import { ErrorCode } from '#domain/errors';
import type { CoinbaseChargeJson, CreateCoinbaseChargeBody } from '#domain/schemas/crypto';
import { coinbaseCharges } from '../../db/schema';
import type { Services } from '../../deps';
import { apiError, badRequest, type UserRow } from '../../http';
import {
  type CryptoCharge,
  type CryptoProvider,
  CryptoProviderRefusedError,
  CryptoProviderUnavailableError,
} from '../../payments/crypto-provider';
import { type CheckoutItemRecord, checkNewEdition } from '../items';
import type { OrderRow } from '../orders';
import { methodOf } from '../rails';
import { type Started, startPurchase } from '../workflow/start';
import {
  abandonCharge,
  type CoinbaseChargeRow,
  type CryptoSettleOutcome,
  cryptoChargeJson,
  settleCrypto,
} from './charges';
import { cryptoRail } from './rail';

/** A direct purchase's body (a top-up is ./routes.ts's, with `openTopup`). */
type Body = Extract<v.InferOutput<typeof CreateCoinbaseChargeBody>, { type: 'directPurchase' }>;

/** The crypto provider, or 503 when crypto payments are off. */
export function cryptoProviderOf(s: Services): CryptoProvider {
  if (!s.cryptoProvider) throw apiError(503, 'unavailable', undefined, 'Crypto payments are not available.');
  return s.cryptoProvider;
}

export const cryptoAnswer = (s: Services, row: CoinbaseChargeRow): Promise<CoinbaseChargeJson> =>
  cryptoChargeJson(s.db, row, s.clock());

export const reread = async (s: Services, id: string) =>
  (await s.db.select().from(coinbaseCharges).where(eq(coinbaseCharges.id, id)))[0]!;

/** What the hosted page says of the charge (at most 100 and 200 characters) and where it returns. */
export interface HostedPage {
  name: string;
  description: string;
  redirectUrl: string;
  cancelUrl?: string;
}

/** The provider answered a charge without a hosted page: nobody can pay it. */
class NoHostedPage extends Error {
  constructor(readonly providerChargeId: string) {
    super('the provider answered a charge without a hosted page');
  }
}

/** authorize: the hosted charge of our charge's amount is opened at the provider. */
async function openHosted(s: Services, row: CoinbaseChargeRow, page: HostedPage): Promise<CryptoCharge> {
  const base = s.config.publicUrl.replace(/\/+$/, '');
  const charge = await cryptoProviderOf(s).createCharge({
    name: page.name,
    description: page.description,
    amount: row.amount,
    currency: 'USD',
    metadata: { vitrineChargeId: row.id, ...(row.orderId ? { orderId: row.orderId } : {}) },
    redirectUrl: page.redirectUrl,
    cancelUrl: page.cancelUrl ?? `${base}/coinbasecanceled/${row.id}`,
  });
  if (!charge.hostedUrl) throw new NoHostedPage(charge.id);
  return charge;
}

/**
 * Compensation of opening the hosted charge: ours ends CANCELED and its order fails (the unit
 * released); a provider charge without a hosted page is canceled there. Answers the error to throw.
 */
async function abandonHosted(s: Services, row: CoinbaseChargeRow, err: unknown): Promise<unknown> {
  if (err instanceof NoHostedPage) {
    await abandonCharge(s.db, row.id, s.clock(), err.providerChargeId);
    await cryptoProviderOf(s)
      .cancelCharge(err.providerChargeId)
      .catch(() => undefined);
    return apiError(502, ErrorCode.CREATE_COINBASE_CHARGE);
  }
  await abandonCharge(s.db, row.id, s.clock());
  if (err instanceof CryptoProviderUnavailableError) return apiError(502, ErrorCode.CRYPTO_PROVIDER);
  if (err instanceof CryptoProviderRefusedError) return apiError(502, ErrorCode.CREATE_COINBASE_CHARGE);
  return err;
}

/** settle: the provider's view of the charge applied; the worker starts on whatever changed. */
export async function settleHosted(s: Services, row: CoinbaseChargeRow, charge: CryptoCharge) {
  const outcome = await settleCrypto(s.db, row.id, charge, s.clock());
  if (outcome.kind !== 'unchanged') s.jobs?.nudge();
  return outcome;
}

/** Opens a top-up's hosted charge (no order: nothing reserved) and applies the provider's answer. */
export async function openTopup(s: Services, row: CoinbaseChargeRow, page: HostedPage) {
  let charge: CryptoCharge;
  try {
    charge = await openHosted(s, row, page);
  } catch (err) {
    throw await abandonHosted(s, row, err);
  }
  await settleHosted(s, row, charge);
  return cryptoAnswer(s, await reread(s, row.id));
}

interface CryptoRun {
  s: Services;
  user: UserRow & { walletAddress: string };
  clientAddress: string;
  body: Body;
  now: Date;
  /** Our crypto charge of the order, once reserved. */
  row?: CoinbaseChargeRow;
}

/** dedupe: a retry of a purchase answers the first one's charge, whatever happened to it since. */
async function dedupe({ s, user, body }: CryptoRun) {
  const [earlier] = await s.db
    .select()
    .from(coinbaseCharges)
    .where(
      and(eq(coinbaseCharges.buyerId, user.id), eq(coinbaseCharges.idempotencyKey, body.idempotencyKey)),
    );
  return earlier ? cryptoAnswer(s, earlier) : undefined;
}

/** check: the item exists, is for sale, at the price the buyer saw. */
async function check({ s, body, now }: CryptoRun): Promise<{ item: CheckoutItemRecord }> {
  return { item: await checkNewEdition(s.db, body, now) };
}

/** The order's crypto charge; none: the key is another rail's purchase (400). */
async function chargeOf(run: CryptoRun, order: OrderRow) {
  const [row] = await run.s.db.select().from(coinbaseCharges).where(eq(coinbaseCharges.orderId, order.id));
  if (!row)
    throw badRequest(ErrorCode.INVALID_VALUE, 'idempotencyKey', 'This key belongs to another purchase.');
  run.row = row;
  return row;
}

/** authorize: the hosted charge for the item; the purchase-complete page follows it. */
async function authorize(run: CryptoRun, order: OrderRow, { item }: { item: CheckoutItemRecord }) {
  const row = await chargeOf(run, order);
  const base = run.s.config.publicUrl.replace(/\/+$/, '');
  const kind = item.kind === 'pack' ? 'blueprintPack' : 'blueprint';
  const since = order.createdAt.getTime() - 15_000;
  const type = methodOf(cryptoRail);
  return openHosted(run.s, row, {
    name: item.title.slice(0, 100),
    description: `A new edition of ${item.title}`.slice(0, 200),
    // A payment that comes too late is refunded on the purchase-complete page.
    redirectUrl: `${base}/ordercomplete/${item.id}?e=${kind}&t=${since}&type=${type}&charge=${row.id}`,
  });
}

/**
 * A crypto purchase of a new edition (POST coinbase-charges, directPurchase): the purchase workflow
 * (../workflow/start.ts) with the crypto rail's steps; settling is the provider's answer to the
 * hosted charge (its later word comes by webhook).
 */
export function startCryptoPurchase(
  s: Services,
  p: { user: CryptoRun['user']; clientAddress: string; body: Body },
): Promise<Started<CoinbaseChargeJson>> {
  const run: CryptoRun = { ...p, s, now: s.clock() };
  return startPurchase<{ item: CheckoutItemRecord }, CryptoCharge, CryptoSettleOutcome, CoinbaseChargeJson>(
    s.db,
    {
      rail: cryptoRail,
      validate() {
        if (p.body.nftSaleListingId)
          throw badRequest(
            ErrorCode.NOT_PURCHASABLE,
            undefined,
            'Resale listings are paid with your balance. Top it up with crypto first.',
          );
      },
      dedupe: () => dedupe(run),
      check: () => check(run),
      reservation: () => ({
        buyerId: p.user.id,
        clientAddress: p.clientAddress,
        idempotencyKey: p.body.idempotencyKey,
        walletAddress: p.user.walletAddress,
        now: run.now,
      }),
      repeated: async (order) => cryptoAnswer(s, await chargeOf(run, order)),
      authorize: (order, checked) => authorize(run, order, checked),
      release: (_order, err) => (run.row ? abandonHosted(s, run.row, err) : Promise.resolve(err)),
      settle: (_order, charge) => settleHosted(s, run.row!, charge),
      // Nothing to undo at once: a payment for an order that ended goes back as FUSD (./charges.ts).
      compensate: async () => undefined,
      answer: async () => cryptoAnswer(s, await reread(s, run.row!.id)),
    },
  );
}
