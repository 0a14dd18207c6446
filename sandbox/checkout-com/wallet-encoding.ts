/**
 * The encoding the wallets' test payloads use: base64 of JSON, random bytes. Web APIs only (btoa,
 * atob, TextEncoder, crypto.getRandomValues): the browser stand-ins of the wallets import it.
 */

export function randomBytes(n: number): Uint8Array {
  const bytes = new Uint8Array(n);
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export const randomBase64 = (n: number) => bytesToBase64(randomBytes(n));
export const randomHex = (n: number) =>
  Array.from(randomBytes(n), (b) => b.toString(16).padStart(2, '0')).join('');
export const jsonToBase64 = (value: unknown) =>
  bytesToBase64(new TextEncoder().encode(JSON.stringify(value)));

/** The JSON object behind base64 text, or null. */
export function base64ToJson(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  try {
    const binary = atob(text);
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    const value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
