/** Keys whose values never leave the app in inspection data: passwords, tokens, card and KYC data. */
const SECRET_KEY =
  /pass(word)?|confirm|token|secret|signature|cvv|card|pan|kyc|billing|cid|nonce|session(id)?$/i;

export const REDACTED = '[redacted]';

/** A deep copy with every secret-looking value replaced (used by the Stately inspector). */
export function redact<T>(value: T, depth = 0): T {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1)) as T;
  if (typeof (value as { send?: unknown }).send === 'function') return '[actor]' as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as object)) {
    out[k] = SECRET_KEY.test(k) && v !== null && v !== undefined ? REDACTED : redact(v, depth + 1);
  }
  return out as T;
}
