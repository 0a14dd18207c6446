import * as v from 'valibot';
import { queryList } from '../validation';
import { IdempotencyKey } from './newEdition';

/**
 * Crypto charges (the coinbase-charges API): a hosted charge page at the crypto provider where the
 * buyer pays in ETH, BTC, BCH or USDC. A `directPurchase` buys a blueprint or a pack (an order,
 * minted once paid); a `topup` adds FUSD to the buyer's balance (sent to the wallet once paid).
 * Resale listings are bought with the balance: top it up first. Money is integer cents.
 *
 * Error codes: CREATE_COINBASE_CHARGE (the provider gave no hosted page), CRYPTO_PROVIDER (the
 * crypto processor could not be reached), CHARGE_PENDING (another crypto charge of the buyer is
 * open; its id is in `chargeId`), CHARGE_NOT_CANCELLABLE (a payment was made already), and the
 * checkout's SOLD_OUT, PRICE_CHANGED, NOT_PURCHASABLE, WALLET_REQUIRED.
 */

const uuid = (field: string) => v.pipe(v.string(`INVALID_VALUE.${field}`), v.uuid(`INVALID_VALUE.${field}`));
const idempotencyKey = IdempotencyKey;
const cents = (field: string, min: number, max: number) =>
  v.pipe(
    v.number(`INVALID_VALUE.${field}`),
    v.integer(`INVALID_VALUE.${field}`),
    v.minValue(min, `INVALID_VALUE.${field}`),
    v.maxValue(max, `INVALID_VALUE.${field}`),
  );

/** The least and most a top-up may add to the balance, in cents ($1 to $10,000). */
export const TOPUP_MIN_CENTS = 100;
export const TOPUP_MAX_CENTS = 1_000_000;
/** The top-up that covers a shortfall: at least TOPUP_MIN_CENTS, at most TOPUP_MAX_CENTS. */
export function topupAmount(price: number, balance: number): number {
  return Math.min(TOPUP_MAX_CENTS, Math.max(TOPUP_MIN_CENTS, price - balance));
}

/** The longest path a top-up may return to. */
export const RETURN_PATH_MAX = 512;

/**
 * Where a top-up's payment page sends the buyer back (its redirect and cancel URLs): a path of this
 * site with its query, never another origin. It starts with exactly one slash (not `//` or `/\`,
 * which browsers read as another host), holds only the characters of a URL's path and query (no
 * backslash, space, control character or fragment) and is at most RETURN_PATH_MAX characters.
 */
export const ReturnPath = v.pipe(
  v.string('INVALID_VALUE.returnTo'),
  v.maxLength(RETURN_PATH_MAX, 'INVALID_VALUE.returnTo'),
  v.regex(/^\/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*$/, 'INVALID_VALUE.returnTo'),
  // Read against an origin, the path stays on it.
  v.check((path) => {
    const origin = 'https://vitrine.invalid';
    try {
      return new URL(path, origin).origin === origin;
    } catch {
      return false;
    }
  }, 'INVALID_VALUE.returnTo'),
);

/**
 * POST coinbase-charges. A direct purchase names exactly one of blueprintId, blueprintPackId or
 * nftSaleListingId and the price the buyer saw; a top-up names its amount and may name where to
 * return.
 */
export const CreateCoinbaseChargeBody = v.variant(
  'type',
  [
    v.pipe(
      v.object({
        type: v.literal('directPurchase'),
        blueprintId: v.optional(uuid('blueprintId')),
        blueprintPackId: v.optional(uuid('blueprintPackId')),
        nftSaleListingId: v.optional(uuid('nftSaleListingId')),
        expectedPrice: cents('expectedPrice', 0, 100_000_000),
        idempotencyKey,
      }),
      v.check(
        (b) => [b.blueprintId, b.blueprintPackId, b.nftSaleListingId].filter(Boolean).length === 1,
        'INVALID_VALUE.item',
      ),
    ),
    v.object({
      type: v.literal('topup'),
      topupAmount: cents('topupAmount', TOPUP_MIN_CENTS, TOPUP_MAX_CENTS),
      idempotencyKey,
      /**
       * The page the buyer topped up from (a purchase dialog's item page): the payment page sends
       * them back there, `topup={charge id}` added, paid or canceled. Without it: Settings → Wallet.
       */
      returnTo: v.optional(ReturnPath),
    }),
  ],
  'INVALID_VALUE.type',
);
export type CreateCoinbaseChargeBody = v.InferOutput<typeof CreateCoinbaseChargeBody>;

/** PATCH coinbase-charges/{id}: `status: CANCELED` cancels an unpaid charge; no status re-reads it. */
export const UpdateCoinbaseChargeBody = v.object({
  status: v.optional(v.literal('CANCELED', 'INVALID_VALUE.status')),
});

export const coinbaseChargeStatuses = [
  'NEW',
  'PENDING',
  'COMPLETED',
  'UNRESOLVED',
  'RESOLVED',
  'EXPIRED',
  'CANCELED',
  'MINTING',
  'MINTED',
  'MINT_SAVE_FAILED',
  'NFT_SYNC_FAILED',
  'SEND_FUSD_SUCCEEDED',
  'SEND_FUSD_FAILED',
  /** Ours: the provider's charge did not pay what was asked (price, currency, paid); nothing credited. */
  'REVIEW',
] as const;
export type CoinbaseChargeStatus = (typeof coinbaseChargeStatuses)[number];

/** GET coinbase-charges?userId=…&statuses=NEW,PENDING: the caller's charges, newest first. */
export const CoinbaseChargeListQuery = v.object({
  userId: uuid('userId'),
  statuses: v.optional(queryList('statuses', { values: coinbaseChargeStatuses })),
});

/** Answers of these routes: their schemas are in domain/responses/checkout. */
export type { CoinbaseChargeJson } from '../responses/checkout';
