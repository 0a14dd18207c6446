/**
 * A generated username: the letters of a seed (name or email) plus "_" and a random suffix of six
 * letters (wallet-connect registration generates it). It satisfies the sign-up rule (at least 3
 * letters, hyphens or underscores; at most 50).
 */
export const USERNAME_SUFFIX_LENGTH = 6;

export function generatedUsername(seed: string, randomLetters: string): string {
  const base =
    (seed.split('@')[0] ?? '')
      .replace(/[^A-Za-z]/g, '')
      .slice(0, 30)
      .toLowerCase() || 'collector';
  const suffix = randomLetters.replace(/[^a-z]/g, '').slice(0, USERNAME_SUFFIX_LENGTH);
  return `${base}_${suffix}`;
}

export function randomLetters(count: number, random: (n: number) => Uint8Array): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz';
  return Array.from(random(count), (b) => alphabet[b % alphabet.length]).join('');
}

/** Wallet-connect registration: a random 12-character password; the wallet is how they sign in. */
export const WALLET_PASSWORD_LENGTH = 12;
export function generatedPassword(random: (n: number) => Uint8Array): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  return Array.from(random(WALLET_PASSWORD_LENGTH), (b) => alphabet[b % alphabet.length]).join('');
}
