import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';

/** The six fields the partner signs, in the signer's order. */
export const SIGNED_KEYS = [
  'address',
  'commodity',
  'commodity_amount',
  'network',
  'sc_address',
  'sc_input_data',
] as const;

/** The public key (hex) of an Ed25519 seed (hex, optional 0x). */
export function publicKeyOf(privateKey: string): string {
  return bytesToHex(ed25519.getPublicKey(hexToBytes(privateKey.replace(/^0x/i, ''))));
}

/**
 * The message the partner signs (widget-sc-signer 3.x): one `key:value` line per signed key, joined
 * by "\n"; commodity and network lower-cased; commodity_amount as the number it reads as (the
 * widget sends the number's decimal form). Null when a field is missing.
 */
export function signedMessage(fields: Partial<Record<(typeof SIGNED_KEYS)[number], string>>): string | null {
  const lines: string[] = [];
  for (const key of SIGNED_KEYS) {
    const raw = fields[key];
    if (typeof raw !== 'string' || raw === '') return null;
    const value =
      key === 'commodity' || key === 'network'
        ? raw.toLowerCase()
        : key === 'commodity_amount'
          ? String(Number.parseFloat(raw))
          : raw;
    lines.push(`${key}:${value}`);
  }
  return lines.join('\n');
}

/** Whether `signature` (128 hex digits, any case) signs the fields for the public key (hex). */
export function signatureValid(
  fields: Partial<Record<(typeof SIGNED_KEYS)[number], string>>,
  signature: string | undefined,
  publicKey: string,
): boolean {
  const message = signedMessage(fields);
  if (!message || typeof signature !== 'string' || !/^[0-9a-fA-F]{128}$/.test(signature)) return false;
  try {
    return ed25519.verify(
      hexToBytes(signature.toLowerCase()),
      new TextEncoder().encode(message),
      hexToBytes(publicKey),
    );
  } catch {
    return false;
  }
}
