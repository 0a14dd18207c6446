import { createHmac, timingSafeEqual } from 'node:crypto';

export const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
export const hmac = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(payload, 'utf8').digest('hex');

/** Whether a header is the hex HMAC-SHA256 of the payload with the secret (compared in constant time). */
export function signatureOk(secret: string, payload: string, header: string | undefined): boolean {
  if (!header || !/^[0-9a-f]{64}$/i.test(header)) return false;
  return timingSafeEqual(Buffer.from(hmac(secret, payload), 'hex'), Buffer.from(header, 'hex'));
}
