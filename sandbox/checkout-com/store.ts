import { createHmac } from 'node:crypto';
import { bounded } from '../http';
import type { Card } from './cards';
import { MAX_ENTRIES, newId, type Payment, SESSION_TTL_MS, type Status } from './types';
import type { MobileWallet } from './wallets';

/** The payment's card source, as the API shows it (in payments and webhooks). */
export function sourceJson(p: Payment) {
  return {
    type: 'card',
    id: p.sourceId,
    scheme: p.card.scheme,
    last4: p.card.last4,
    bin: p.card.bin,
    expiry_month: p.card.expiryMonth,
    expiry_year: p.card.expiryYear,
    fingerprint: createHmac('sha256', 'fingerprint').update(p.card.number).digest('hex').toUpperCase(),
    card_type: 'CREDIT',
    issuer_country: 'US',
  };
}

/**
 * The sandbox's state in memory (the newest MAX_ENTRIES of each kind): tokens, the card sources
 * payments made of them, payments, 3-D Secure sessions and idempotent answers; and how a payment
 * moves (each change is emitted as a webhook).
 */
export function createStore(options: { now: () => Date; origin: () => string; emit: (p: Payment) => void }) {
  const { now, emit } = options;
  const tokens = bounded<
    string,
    { card: Card; expiresAt: Date; used: boolean; wallet: MobileWallet | null; cryptogram: boolean }
  >(MAX_ENTRIES);
  const sources = bounded<string, Card>(MAX_ENTRIES);
  const payments = bounded<string, Payment>(MAX_ENTRIES);
  const sessions = bounded<string, string>(MAX_ENTRIES);
  const idempotent = bounded<string, { status: number; body: unknown }>(MAX_ENTRIES);

  /** Settles an unanswered challenge that is too old. */
  function expire(p: Payment) {
    if (p.status === 'Pending' && now().getTime() - p.requestedOn.getTime() > SESSION_TTL_MS) {
      setStatus(p, 'Expired', false, null, null);
    }
    return p;
  }

  function setStatus(
    p: Payment,
    status: Status,
    approved: boolean,
    code: string | null,
    summary: string | null,
  ) {
    p.status = status;
    p.approved = approved;
    p.responseCode = code;
    p.responseSummary = summary;
    p.processedOn = now();
    p.actions.push({
      id: newId('act'),
      type: status === 'Declined' ? 'Authorization' : status,
      processed_on: p.processedOn.toISOString(),
      amount: p.amount,
      approved,
    });
    emit(p);
  }

  function paymentJson(p: Payment, bySession = false) {
    const links: Record<string, { href: string }> = {
      self: { href: `${options.origin()}/payments/${p.id}` },
      actions: { href: `${options.origin()}/payments/${p.id}/actions` },
    };
    if (p.status === 'Pending' && p.sessionId)
      links.redirect = { href: `${options.origin()}/3ds/${p.sessionId}` };
    if (p.status === 'Authorized') {
      links.capture = { href: `${options.origin()}/payments/${p.id}/captures` };
      links.void = { href: `${options.origin()}/payments/${p.id}/voids` };
    }
    if (p.status === 'Captured') links.refund = { href: `${options.origin()}/payments/${p.id}/refunds` };
    return {
      id: p.id,
      action_id: p.actionId,
      requested_on: p.requestedOn.toISOString(),
      amount: p.amount,
      currency: p.currency,
      approved: p.approved,
      status: p.status,
      ...(p.responseCode ? { response_code: p.responseCode, response_summary: p.responseSummary } : {}),
      ...(p.processedOn ? { processed_on: p.processedOn.toISOString() } : {}),
      reference: p.reference,
      source: sourceJson(p),
      customer: p.customer ?? undefined,
      metadata: p.metadata,
      '3ds': p.threeDs ?? undefined,
      risk: { flagged: false },
      ...(bySession ? { actions: p.actions } : {}),
      _links: links,
    };
  }

  const find = (id: string) => {
    if (!/^(pay|sid)_(\w{26})$/.test(id)) return undefined;
    const payId = id.startsWith('sid_') ? sessions.get(id) : id;
    const p = payId ? payments.get(payId) : undefined;
    return p ? expire(p) : undefined;
  };

  return { tokens, sources, payments, sessions, idempotent, emit, setStatus, paymentJson, find };
}

export type Store = ReturnType<typeof createStore>;
