import scSigner from '@wert-io/widget-sc-signer';
import ky, { TimeoutError } from 'ky';
import {
  type OnrampOrder,
  type OnrampProvider,
  OnrampProviderUnavailableError,
  type OnrampScFields,
  type OnrampSignedData,
} from './onramp-provider';

/**
 * Wert as the on-ramp (docs.wert.io): signing with the official `@wert-io/widget-sc-signer`, and
 * the partner Data API (`GET {apiUrl}/api/external/orders?search_by=…`, header `X-API-KEY`,
 * answer `{ success, data: [order], total }`) over plain HTTP with `ky`, pointed at Wert
 * (https://partner-sandbox.wert.io, https://partner.wert.io) or the local sandbox (sandbox/wert).
 *
 * Rules:
 * - the signature is Ed25519 over `key:value` lines of address, commodity, commodity_amount,
 *   network, sc_address, sc_input_data (commodity and network lower-cased), 128 upper-case hex
 *   digits; the private key is a 32-byte seed in hex (0x optional);
 * - `commodity_amount` is signed as a number and must have at most 8 decimals (Wert refuses more);
 * - a Data API answer that is not `success: true` with a `data` array, a refused key, a timeout or
 *   a 5xx is OnrampProviderUnavailableError: the caller did not learn anything and may ask again;
 * - no retries here (the callers — webhooks, the buyer's sync — come again).
 */
export interface WertOptions {
  partnerId: string;
  /** The widget's origin the browser opens. */
  origin: string;
  /** The partner's Ed25519 private key (32-byte seed, hex). */
  privateKey: string;
  /** The Data API base, e.g. https://partner-sandbox.wert.io or http://127.0.0.1:8792. */
  apiUrl: string;
  apiKey: string;
  timeoutMs?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: the provider's answers are plain JSON read field by field
type Json = any;

/** Signs the six fields with the official helper (throws on missing or extra fields, or no key). */
export function signScData(fields: OnrampScFields, privateKey: string): OnrampSignedData {
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(privateKey))
    throw new Error('the Wert private key must be 32 bytes of hex');
  if (!Number.isFinite(fields.commodity_amount) || fields.commodity_amount <= 0)
    throw new Error('commodity_amount must be a positive number');
  if (Math.round(fields.commodity_amount * 1e8) / 1e8 !== fields.commodity_amount)
    throw new Error('commodity_amount has more than 8 decimals');
  const { address, commodity, commodity_amount, network, sc_address, sc_input_data } = fields;
  // Exactly the six keys: the helper refuses any other.
  return scSigner.signSmartContractData(
    { address, commodity, commodity_amount, network, sc_address, sc_input_data },
    privateKey,
  );
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
const amount = (value: unknown) => {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

/** A Data API order as the checkout reads it; null without an order id. */
export function orderOf(data: Json): OnrampOrder | null {
  if (!data || typeof data !== 'object') return null;
  const id = text(data.order_id) ?? text(data.id);
  if (!id) return null;
  return {
    id,
    clickId: text(data.click_id) ?? '',
    status: text(data.status) ?? 'unknown',
    txId: text(data.tx_id) ?? text(data.transaction_id),
    commodityAmount: amount(data.crypto_amount ?? data.commodity_amount),
    scAddress: text(data.sc_address),
    scInputData: text(data.sc_input_data),
    address: text(data.address),
  };
}

export function createWertProvider(options: WertOptions): OnrampProvider {
  const api = ky.create({
    prefixUrl: options.apiUrl.replace(/\/+$/, ''),
    timeout: options.timeoutMs ?? 10_000,
    retry: 0,
    throwHttpErrors: false,
    headers: { Accept: 'application/json', 'X-API-KEY': options.apiKey },
  });
  return {
    partnerId: options.partnerId,
    origin: options.origin.replace(/\/+$/, ''),
    sign: (fields) => signScData(fields, options.privateKey),
    async findOrders(search) {
      // Ids are ULIDs or UUIDs: anything else finds nothing, and is never sent.
      if (!/^[A-Za-z0-9-]{1,64}$/.test(search)) return [];
      let res: Response;
      let body: Json;
      try {
        res = await api.get('api/external/orders', {
          searchParams: { search_by: search, limit: 20, order_by: 'desc' },
        });
        body = await res.json().catch(() => null);
      } catch (err) {
        const why =
          err instanceof TimeoutError ? 'timeout' : err instanceof Error ? err.message : 'no answer';
        throw new OnrampProviderUnavailableError(`on-ramp provider unavailable (${why})`);
      }
      if (!res.ok || body?.success !== true || !Array.isArray(body.data))
        throw new OnrampProviderUnavailableError(`on-ramp provider unavailable (HTTP ${res.status})`);
      return body.data.map(orderOf).filter((o: OnrampOrder | null): o is OnrampOrder => o !== null);
    },
  };
}
