import * as v from 'valibot';
import { queryInteger, queryList } from '../validation';
import { newEditionBody } from './newEdition';

/**
 * Token charges (the token-charges API): a new edition paid in NFM, the marketplace's ERC20 utility
 * token (currency code FRR), from the buyer's browser wallet. Only while the NFM_PAYMENTS flag is
 * on; otherwise none of these routes exist.
 *
 * The flow: create (`created`, or `lowFunds` when the wallet holds less NFM than the price, with no
 * edition held) → the wallet signs the charge (EIP-712 typed data, `signed`) → the wallet transfers
 * the NFM to the platform's address → the server reads the transfer from the chain (`completed`; the
 * edition is then minted). Cancel (`canceled`) only until a transfer was reported.
 *
 * Error codes: ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS (the buyer has an active charge for this address;
 * its id is in `chargeId`), ERROR_TOKEN_CHARGE_ETH_ADDRESS (the signature or the transfer comes from
 * another address), ERROR_TOKEN_CHARGE_COMPLETE (the charge is completed already), LOW_FUNDS (the
 * transfer is under 95 % of the price), TRANSACTION (the transaction is no NFM payment of this
 * charge, or paid another), TRANSACTION_PENDING (not mined yet), CHARGE_NOT_CANCELLABLE, and the
 * checkout's SOLD_OUT, PRICE_CHANGED, NOT_PURCHASABLE, WALLET_REQUIRED.
 */

const uuid = (field: string) => v.pipe(v.string(`INVALID_VALUE.${field}`), v.uuid(`INVALID_VALUE.${field}`));
const ethAddress = v.pipe(
  v.string('INVALID_VALUE.ethAddress'),
  v.regex(/^0x[0-9a-fA-F]{40}$/, 'INVALID_VALUE.ethAddress'),
);

/** The least share of the price a transfer must carry: 95 %. */
export const TOKEN_PAYMENT_MIN_PERCENT = 95;

/** POST token-charges. */
export const CreateTokenChargeBody = newEditionBody(1, {
  type: v.literal('directPurchase', 'INVALID_VALUE.type'),
  ethAddress,
  toCurrency: v.picklist(['USD', 'FRR'], 'INVALID_VALUE.toCurrency'),
});
export type CreateTokenChargeBody = v.InferOutput<typeof CreateTokenChargeBody>;

/**
 * PATCH token-charges/{id}: exactly one of the wallet's `signature` of the charge, the
 * `transactionHash` of its transfer, or `status: canceled`.
 */
export const UpdateTokenChargeBody = v.pipe(
  v.object({
    signature: v.optional(
      v.pipe(v.string('INVALID_VALUE.signature'), v.regex(/^0x[0-9a-fA-F]{130}$/, 'INVALID_VALUE.signature')),
    ),
    transactionHash: v.optional(
      v.pipe(
        v.string('INVALID_VALUE.transactionHash'),
        v.regex(/^0x[0-9a-fA-F]{64}$/, 'INVALID_VALUE.transactionHash'),
      ),
    ),
    status: v.optional(v.literal('canceled', 'INVALID_VALUE.status')),
  }),
  v.check(
    (b) => [b.signature, b.transactionHash, b.status].filter((x) => x !== undefined).length === 1,
    'INVALID_VALUE.body',
  ),
);
export type UpdateTokenChargeBody = v.InferOutput<typeof UpdateTokenChargeBody>;

export const tokenChargeStatuses = [
  'created',
  'signed',
  'lowFunds',
  'expired',
  'completed',
  'canceled',
  'MINTING',
  'MINTED',
] as const;
export type TokenChargeStatus = (typeof tokenChargeStatuses)[number];

/** GET token-charges?userId=…: the caller's charges, newest first; filters optional. */
export const TokenChargeListQuery = v.object({
  userId: uuid('userId'),
  type: v.optional(v.literal('directPurchase', 'INVALID_VALUE.type')),
  statuses: v.optional(queryList('statuses', { values: tokenChargeStatuses })),
  blueprintId: v.optional(uuid('blueprintId')),
  blueprintPackId: v.optional(uuid('blueprintPackId')),
});

/** GET token-price-conversions?from=USD&to=FRR&amount=<cents>. */
export const TokenPriceConversionQuery = v.object({
  from: v.literal('USD', 'INVALID_VALUE.from'),
  to: v.literal('FRR', 'INVALID_VALUE.to'),
  amount: queryInteger('amount', 0),
});

/** What the wallet signs (EIP-712): the charge, the amount and where it goes. */
export const tokenChargeTypes = {
  TokenCharge: [
    { name: 'charge', type: 'string' },
    { name: 'amount', type: 'uint256' },
    { name: 'to', type: 'address' },
  ],
} as const;
export const tokenChargeDomain = (chainId: number, token: string) => ({
  name: 'Vitrine',
  version: '1',
  chainId,
  verifyingContract: token,
});

/** Answers of these routes: their schemas are in domain/responses/checkout. */
export type { TokenChargeJson, TokenPriceConversionJson } from '../responses/checkout';
