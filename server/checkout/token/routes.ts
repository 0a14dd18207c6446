import * as v from 'valibot';
import { ErrorCode } from '#domain/errors';
import { TokenChargeJson, TokenChargeList, TokenPriceConversionJson } from '#domain/responses/checkout';
import {
  CreateTokenChargeBody,
  TokenChargeListQuery,
  TokenPriceConversionQuery,
  UpdateTokenChargeBody,
} from '#domain/schemas/token';
import type { Services } from '../../deps';
import { type TokenPriceSource, TokenPriceUnavailableError } from '../../evm/price';
import { type TokenChain, TokenChainUnavailableError } from '../../evm/token';
import { apiError, defineRoute, forbidden, notFound, type Route } from '../../http';
import { startTokenPurchase } from './purchase';
import { listTokenCharges, tokenChargeJson } from './queries';
import { cancelTokenCharge, reconcileTokenCharge } from './reconcile';
import { ownTokenCharge, reportTokenTransfer, signTokenCharge, tokenAmountFor } from './token';

const ChargeIdParams = v.object({ id: v.pipe(v.string(), v.uuid('INVALID_VALUE.id')) });

/**
 * An unreachable node is 502 TOKEN_NETWORK, a price source that cannot be read 502
 * TOKEN_NETWORK field rate; never a 500: nothing was changed.
 */
async function reaching<T>(s: Services, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof TokenChainUnavailableError) throw apiError(502, ErrorCode.TOKEN_NETWORK);
    if (err instanceof TokenPriceUnavailableError) {
      s.log.error(err.message);
      throw apiError(502, ErrorCode.TOKEN_NETWORK, 'rate');
    }
    throw err;
  }
}

/** The caller's token charge: 404 when there is none. */
async function ownCharge(s: Services, userId: string, id: string) {
  const row = await ownTokenCharge(s.db, userId, id);
  if (!row) throw notFound();
  return row;
}

/**
 * token-charges and token-price-conversions: a new edition paid in NFM from a browser
 * wallet. Mounted only while the NFM_PAYMENTS flag is on (server/app.ts): otherwise these paths do
 * not exist. POST reserves one unit (an order, method token) unless the wallet's NFM falls short
 * (lowFunds, nothing reserved); PATCH takes the wallet's signature, the transfer's transaction hash
 * (read from the chain by the server) or a cancel. A buyer sees only their own charges.
 */
export function tokenChargeRoutes(s: Services, chain: TokenChain, price: TokenPriceSource): Route[] {
  return [
    ...priceRoutes(s, price),
    ...tokenStartRoutes(s, chain, price),
    ...tokenChargeStateRoutes(s, chain),
  ];
}

/** Converting a price into the token. */
function priceRoutes(s: Services, price: TokenPriceSource): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/token-price-conversions',
      tag: 'checkout',
      summary: 'Converts a USD amount (cents) to FRR: the rate and the NFM due (smallest unit, 18 decimals)',
      query: TokenPriceConversionQuery,
      response: TokenPriceConversionJson,
      responses: {
        200: '{ from: USD, to: FRR, rate, amount, value }',
        502: 'TOKEN_NETWORK field rate: the configured price source could not be read',
      },
      async handler(c, { query }) {
        const frrPerUsd = await reaching(s, () => price.frrPerUsd());
        const body: TokenPriceConversionJson = {
          from: 'USD',
          to: 'FRR',
          rate: frrPerUsd,
          amount: query.amount,
          value: tokenAmountFor(query.amount, frrPerUsd).toString(),
        };
        return c.json(body);
      },
    }),
  ];
}

/** Starting a token charge and listing the caller's. */
function tokenStartRoutes(s: Services, chain: TokenChain, price: TokenPriceSource): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/token-charges',
      tag: 'checkout',
      auth: 'required',
      summary:
        'A charge in NFM for one unit of a blueprint or pack: created (the unit reserved) or lowFunds (the address holds less NFM than the price)',
      body: CreateTokenChargeBody,
      response: TokenChargeJson,
      responses: {
        200: 'TokenCharge: the charge of an earlier request with the same idempotencyKey',
        201: 'TokenCharge { id, status: created | lowFunds, tokenPrice, tokenAmount, chainId, tokenAddress, paymentsAddress, … }',
        400: 'Invalid field; NOT_PURCHASABLE, WALLET_REQUIRED',
        401: 'Not logged in',
        404: 'No such item',
        409: 'PRICE_CHANGED, SOLD_OUT, ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS (with chargeId), ITEM_HELD (the buyer or their address holds an unpaid unit of it), HOLD_LIMIT (3 unpaid holds)',
        429: 'HOLD_COOLDOWN: the buyer’s hold of this item expired under a minute ago (Retry-After)',
        502: 'TOKEN_NETWORK: the EVM node (or, field rate, the price source) could not be reached',
      },
      async handler(c, { body }) {
        const { answer, repeated } = await reaching(s, () =>
          startTokenPurchase(s, chain, price, {
            user: c.get('user')!,
            clientAddress: s.clientAddress(c),
            body,
          }),
        );
        return c.json(await tokenChargeJson(s.db, chain, answer), repeated ? 200 : 201);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/token-charges',
      tag: 'checkout',
      auth: 'required',
      summary: 'The caller’s token charges, newest first (at most 50), by status and item',
      query: TokenChargeListQuery,
      response: TokenChargeList,
      responses: { 200: '{ results: TokenCharge[] }', 401: 'Not logged in', 403: 'Another user' },
      async handler(c, { query }) {
        const user = c.get('user')!;
        if (query.userId !== user.id) throw forbidden();
        const rows = await listTokenCharges(s.db, user.id, query);
        return c.json({ results: await Promise.all(rows.map((row) => tokenChargeJson(s.db, chain, row))) });
      },
    }),
  ];
}

/** Reading and changing the caller's token charge. */
function tokenChargeStateRoutes(s: Services, chain: TokenChain): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/token-charges/{id}',
      tag: 'checkout',
      auth: 'required',
      summary:
        'One of the caller’s token charges with its order and timeline; a signed charge with no reported transfer takes one found on chain (from its address to the platform’s, since it was created)',
      params: ChargeIdParams,
      response: TokenChargeJson,
      responses: {
        200: 'TokenCharge',
        401: 'Not logged in',
        404: 'No such charge of the caller',
        502: 'TOKEN_NETWORK: the EVM node could not be reached',
      },
      async handler(c, { params }) {
        const userId = c.get('user')!.id;
        const charge = await ownCharge(s, userId, params.id);
        if (await reaching(s, () => reconcileTokenCharge(s.db, chain, charge, s.clock()))) {
          s.jobs?.nudge();
          return c.json(await tokenChargeJson(s.db, chain, (await ownTokenCharge(s.db, userId, charge.id))!));
        }
        return c.json(await tokenChargeJson(s.db, chain, charge));
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/token-charges/{id}',
      tag: 'checkout',
      auth: 'required',
      summary:
        'signature: the wallet’s EIP-712 signature of the charge; transactionHash: its NFM transfer, read from the chain (only for a signed charge; completes it at 95 % of the amount or more); status canceled: only while no transfer was reported or is on chain',
      params: ChargeIdParams,
      body: UpdateTokenChargeBody,
      response: TokenChargeJson,
      responses: {
        200: 'TokenCharge',
        400: 'Invalid field; ERROR_TOKEN_CHARGE_ETH_ADDRESS, ERROR_TOKEN_CHARGE_COMPLETE, low_funds, TRANSACTION (field signature: the charge is not signed yet), CHARGE_NOT_CANCELLABLE',
        401: 'Not logged in',
        404: 'No such charge of the caller',
        409: 'TRANSACTION_PENDING: the transaction is not mined yet',
        502: 'TOKEN_NETWORK: the EVM node could not be reached',
      },
      async handler(c, { params, body }) {
        const charge = await ownCharge(s, c.get('user')!.id, params.id);
        const now = s.clock();
        if (body.signature) await signTokenCharge(s.db, chain, charge, body.signature, now);
        else if (body.transactionHash) {
          const hash = body.transactionHash.toLowerCase();
          await reaching(s, () => reportTokenTransfer(s.db, chain, charge, hash, now));
          s.jobs?.nudge();
        } else await reaching(s, () => cancelTokenCharge(s.db, chain, charge, now));
        return c.json(
          await tokenChargeJson(s.db, chain, (await ownTokenCharge(s.db, charge.buyerId, charge.id))!),
        );
      },
    }),
  ];
}
