import { hash, verify } from '@node-rs/argon2';

/** Password hashing with argon2id (the library's default algorithm; 19 MiB, 2 passes, 1 lane). */

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the time of a real verification, so an unknown email answers as slowly as a wrong password. */
export async function verifyNobody(password: string): Promise<false> {
  dummyHash ??= hashPassword('vitrine: no such account');
  await verifyPassword(await dummyHash, password);
  return false;
}
