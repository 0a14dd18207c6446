import { createHash } from 'node:crypto';
import { bounded } from '../http';
import {
  amountOf,
  type Charge,
  COIN_NAMES,
  COINS,
  type Coin,
  cryptoOf,
  hex,
  iso,
  MAX_ENTRIES,
  type Payment,
  type Status,
} from './types';

/** A charge's status: the last on its timeline. */
export const statusOf = (c: Charge) => c.timeline.at(-1)!.status;
export const hostedUrl = (c: Charge, origin: string) => `${origin}/charges/${c.code}`;

/** A charge as the API answers it (and as its webhooks carry it). */
export function chargeJson(c: Charge, origin: string) {
  const pricing: Record<string, { amount: string; currency: string }> = {
    local: { amount: amountOf(c.amount), currency: 'USD' },
  };
  const exchangeRates: Record<string, string> = {};
  for (const coin of COIN_NAMES) {
    pricing[coin] = { amount: cryptoOf(c.amount, coin), currency: COINS[coin].symbol };
    exchangeRates[`${COINS[coin].symbol}-USD`] = amountOf(Number(COINS[coin].rateCents));
  }
  return {
    id: c.id,
    resource: 'charge',
    code: c.code,
    name: c.name,
    description: c.description,
    ...(c.hosted ? { hosted_url: hostedUrl(c, origin) } : {}),
    created_at: iso(c.createdAt),
    expires_at: iso(c.expiresAt),
    ...(c.confirmedAt ? { confirmed_at: iso(c.confirmedAt) } : {}),
    pricing_type: 'fixed_price',
    pricing,
    exchange_rates: exchangeRates,
    addresses: c.addresses,
    timeline: c.timeline.map((t) => ({
      time: iso(t.time),
      status: t.status,
      ...(t.context ? { context: t.context } : {}),
    })),
    payments: c.payments.map((p) => ({
      network: p.network,
      transaction_id: p.transactionId,
      status: p.status,
      detected_at: iso(p.detectedAt),
      value: {
        local: { amount: amountOf(p.localCents), currency: 'USD' },
        crypto: { amount: cryptoOf(p.localCents, p.coin), currency: COINS[p.coin].symbol },
      },
      block: {
        height: p.status === 'CONFIRMED' ? 100_000 : null,
        hash: p.status === 'CONFIRMED' ? createHash('sha256').update(p.transactionId).digest('hex') : null,
        confirmations_accumulated: p.status === 'CONFIRMED' ? 6 : 0,
        confirmations_required: 6,
      },
    })),
    metadata: c.metadata,
    redirects: {
      success_url: c.redirectUrl,
      cancel_url: c.cancelUrl,
      will_redirect_after_success: c.redirectUrl !== null,
    },
    organization_name: 'Vitrine (sandbox)',
    support_email: 'support@vitrine.invalid',
  };
}

/**
 * The charges in memory (the newest MAX_ENTRIES), by id and by code, and how they move: each
 * status change is emitted as a webhook.
 */
export function createChargeStore(options: { now: () => Date; emit: (c: Charge) => void }) {
  const { now, emit } = options;
  const charges = bounded<string, Charge>(MAX_ENTRIES);
  const codes = bounded<string, string>(MAX_ENTRIES);

  function setStatus(c: Charge, status: Status, context?: string) {
    c.timeline.push({ time: now(), status, ...(context ? { context } : {}) });
    emit(c);
  }

  /** A NEW charge past its expiry becomes EXPIRED (checked on every read and by the sweep). */
  function expireIfDue(c: Charge) {
    if (statusOf(c) === 'NEW' && now().getTime() > c.expiresAt.getTime()) setStatus(c, 'EXPIRED');
    return c;
  }

  function find(idOrCode: string) {
    const c = charges.get(idOrCode) ?? charges.get(codes.get(idOrCode) ?? '');
    return c ? expireIfDue(c) : undefined;
  }

  function addPayment(c: Charge, coin: Coin, localCents: number, status: Payment['status']) {
    const payment: Payment = {
      network: COINS[coin].network,
      transactionId: COINS[coin].network === 'ethereum' ? `0x${hex(32)}` : hex(32),
      status,
      detectedAt: now(),
      localCents,
      coin,
    };
    c.payments.push(payment);
    return payment;
  }

  return { charges, codes, setStatus, expireIfDue, find, addPayment };
}

export type ChargeStore = ReturnType<typeof createChargeStore>;
