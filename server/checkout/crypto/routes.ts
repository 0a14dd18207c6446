import * as v from 'valibot';
import { ErrorCode } from '#domain/errors';
import { CoinbaseChargeJson, CoinbaseChargeList } from '#domain/responses/checkout';
import {
  CoinbaseChargeListQuery,
  CreateCoinbaseChargeBody,
  UpdateCoinbaseChargeBody,
} from '#domain/schemas/crypto';
import type { Services } from '../../deps';
import { apiError, badRequest, defineRoute, forbidden, notFound, type Route } from '../../http';
import {
  type CryptoCharge,
  CryptoProviderRefusedError,
  CryptoProviderUnavailableError,
} from '../../payments/crypto-provider';
import { createTopup, listCryptoCharges, ownCryptoCharge } from './charges';
import {
  cryptoAnswer,
  cryptoProviderOf,
  openTopup,
  reread,
  settleHosted,
  startCryptoPurchase,
} from './purchase';

const ChargeIdParams = v.object({ id: v.pipe(v.string(), v.uuid('INVALID_VALUE.id')) });

/**
 * A top-up's way back: the return path (a ReturnPath: one path of this site) on the public URL,
 * with `topup={charge id}` set in its query.
 */
export function returnUrl(base: string, returnTo: string, chargeId: string): string {
  const url = new URL(`${base}${returnTo}`);
  url.searchParams.set('topup', chargeId);
  return url.href;
}

/**
 * coinbase-charges: pay with crypto on the provider's hosted page. A direct purchase
 * reserves one unit of a blueprint or pack (an order, as the card checkout does) and opens a hosted
 * charge for its price; a top-up opens one for the amount asked, paid out as FUSD to the wallet.
 * Resale listings are bought with the balance (NOT_PURCHASABLE here: top up, then buy). The amount
 * is always the server's. One open crypto charge per buyer (CHARGE_PENDING with its id).
 */
export function coinbaseChargeRoutes(s: Services): Route[] {
  return [...chargeStartRoutes(s), ...chargeReadRoutes(s), ...chargeChangeRoutes(s)];
}

/** Starting a crypto charge. */
function chargeStartRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/coinbase-charges',
      tag: 'checkout',
      auth: 'required',
      summary:
        'Opens a hosted crypto charge: a direct purchase of a blueprint or pack (one unit reserved) or a top-up of the FUSD balance; answers its hostedUrl',
      body: CreateCoinbaseChargeBody,
      response: CoinbaseChargeJson,
      responses: {
        200: 'CoinbaseCharge: the charge of an earlier request with the same idempotencyKey',
        201: 'CoinbaseCharge with hostedUrl',
        400: 'Invalid field; NOT_PURCHASABLE (also resale listings: pay them with the balance), WALLET_REQUIRED',
        401: 'Not logged in',
        404: 'No such item',
        409: 'PRICE_CHANGED, SOLD_OUT, CHARGE_PENDING (with chargeId), ITEM_HELD (the buyer or their address holds an unpaid unit of it), HOLD_LIMIT (3 unpaid holds)',
        429: 'HOLD_COOLDOWN: the buyer’s hold of this item expired under a minute ago (Retry-After)',
        502: 'CRYPTO_PROVIDER (unreachable), CREATE_COINBASE_CHARGE (no hosted page); the reservation is released',
        503: 'Crypto payments are off',
      },
      async handler(c, { body }) {
        cryptoProviderOf(s);
        const user = c.get('user')!;
        const now = s.clock();
        const base = s.config.publicUrl.replace(/\/+$/, '');
        if (!user.walletAddress) throw badRequest(ErrorCode.WALLET_REQUIRED);
        if (body.type === 'topup') {
          const { charge, repeated } = await createTopup(s.db, {
            buyerId: user.id,
            idempotencyKey: body.idempotencyKey,
            amount: body.topupAmount,
            walletAddress: user.walletAddress,
            now,
          });
          if (repeated) return c.json(await cryptoAnswer(s, charge), 200);
          // Back, paid or canceled, to the purchase dialog it was opened from, which follows the
          // top-up until its FUSD arrives; else paid to Settings → Wallet, which does the same.
          const back = body.returnTo && returnUrl(base, body.returnTo, charge.id);
          const opened = await openTopup(s, charge, {
            name: 'FUSD balance top-up',
            description: `Adds FUSD to the Vitrine balance of ${user.walletAddress}.`,
            redirectUrl: back || `${base}/settings/wallet?topup=${charge.id}`,
            ...(back ? { cancelUrl: back } : {}),
          });
          return c.json(opened, 201);
        }
        const { walletAddress } = user;
        const started = await startCryptoPurchase(s, {
          user: { ...user, walletAddress },
          clientAddress: s.clientAddress(c),
          body,
        });
        return c.json(started.answer, started.repeated ? 200 : 201);
      },
    }),
  ];
}

/** The caller's crypto charges: the list and one by id. */
function chargeReadRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/coinbase-charges',
      tag: 'checkout',
      auth: 'required',
      summary: 'The caller’s crypto charges, newest first (at most 50), optionally of some statuses',
      query: CoinbaseChargeListQuery,
      response: CoinbaseChargeList,
      responses: { 200: '{ results: CoinbaseCharge[] }', 401: 'Not logged in', 403: 'Another user' },
      async handler(c, { query }) {
        const user = c.get('user')!;
        if (query.userId !== user.id) throw forbidden();
        const rows = await listCryptoCharges(s.db, user.id, query.statuses);
        return c.json({ results: await Promise.all(rows.map((row) => cryptoAnswer(s, row))) });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/coinbase-charges/{id}',
      tag: 'checkout',
      auth: 'required',
      summary: 'One of the caller’s crypto charges with its order and timeline',
      params: ChargeIdParams,
      response: CoinbaseChargeJson,
      responses: { 200: 'CoinbaseCharge', 401: 'Not logged in', 404: 'No such charge of the caller' },
      async handler(c, { params }) {
        const row = await ownCryptoCharge(s.db, c.get('user')!.id, params.id);
        if (!row) throw notFound();
        return c.json(await cryptoAnswer(s, row));
      },
    }),
  ];
}

/** Changing a crypto charge. */
function chargeChangeRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'patch',
      path: '/coinbase-charges/{id}',
      tag: 'checkout',
      auth: 'required',
      summary:
        'status CANCELED cancels an unpaid charge at the provider (order canceled, unit released); without a status, reads the charge from the provider and applies it as a webhook would',
      params: ChargeIdParams,
      body: UpdateCoinbaseChargeBody,
      response: CoinbaseChargeJson,
      responses: {
        200: 'CoinbaseCharge',
        400: 'CHARGE_NOT_CANCELLABLE: a payment was made already',
        401: 'Not logged in',
        404: 'No such charge of the caller',
        502: 'CRYPTO_PROVIDER',
        503: 'Crypto payments are off',
      },
      async handler(c, { params, body }) {
        const user = c.get('user')!;
        const row = await ownCryptoCharge(s.db, user.id, params.id);
        if (!row) throw notFound();
        if (!row.providerChargeId) {
          if (body.status === 'CANCELED' && row.status !== 'CANCELED')
            throw badRequest(ErrorCode.CHARGE_NOT_CANCELLABLE);
          return c.json(await cryptoAnswer(s, row));
        }
        let charge: CryptoCharge;
        try {
          charge =
            body.status === 'CANCELED'
              ? await cryptoProviderOf(s).cancelCharge(row.providerChargeId)
              : await cryptoProviderOf(s).getCharge(row.providerChargeId);
        } catch (err) {
          if (err instanceof CryptoProviderRefusedError && body.status === 'CANCELED') {
            // Paid (or ended) meanwhile: apply what the provider says, then refuse when it was paid.
            const now = await cryptoProviderOf(s)
              .getCharge(row.providerChargeId)
              .catch(() => null);
            if (now) await settleHosted(s, row, now);
            if (now?.status !== 'CANCELED') throw badRequest(ErrorCode.CHARGE_NOT_CANCELLABLE);
            return c.json(await cryptoAnswer(s, await reread(s, row.id)));
          }
          if (err instanceof CryptoProviderUnavailableError || err instanceof CryptoProviderRefusedError)
            throw apiError(502, ErrorCode.CRYPTO_PROVIDER);
          throw err;
        }
        await settleHosted(s, row, charge);
        return c.json(await cryptoAnswer(s, await reread(s, row.id)));
      },
    }),
  ];
}
