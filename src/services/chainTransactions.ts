import { ApiError, ErrorCode, errorMessage } from '#domain/errors';

/**
 * One way to send a wallet transaction and wait for its seal, for every NFT action (list, remove,
 * buy a listing, transfer) and the other wallet transactions: resume a transaction already sent, or
 * send it.
 *
 * A transaction whose seal did not come within the wait fails with a SealTimeoutError, and is kept
 * under its key (the operation and everything it acts with: the NFT and price of a listing, the
 * NFTs and recipient of a transfer): the next try of the same operation waits for that transaction
 * again instead of sending a second one, which could act twice. It is still waited for in the
 * background: if it fails it is forgotten at once; if it seals it is kept for one more wait, so that
 * a try right after the timeout gets its outcome, while a separate attempt later sends afresh. A
 * transaction that failed, or never left the wallet, is forgotten: the next try sends it again.
 */

/** Sent, not sealed within the wait; the same operation tried again waits for this transaction. */
export class SealTimeoutError extends ApiError {
  constructor(readonly transactionId: string) {
    const body = { code: ErrorCode.SEAL_TIMEOUT, params: { transactionId } };
    super(504, { ...body, message: errorMessage(body) });
    this.name = 'SealTimeoutError';
  }
}

export interface SealedTransaction<T> {
  transactionId: string;
  sealed: T;
}

/** How long a sent transaction's seal is waited for before SEAL_TIMEOUT. */
export const SEAL_TIMEOUT_MS = 120_000;

export function chainTransactions(options: { sealTimeoutMs?: number } = {}) {
  const timeoutMs = options.sealTimeoutMs ?? SEAL_TIMEOUT_MS;
  /** Transactions sent whose seal did not come within the wait, by operation key. */
  const unsealed = new Map<string, string>();

  const withinWait = <T>(seal: Promise<T>, transactionId: string) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new SealTimeoutError(transactionId)), timeoutMs);
      seal.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (err) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });

  return {
    /**
     * The transaction of `key`, sealed: the one sent before and not sealed yet (resumed), else
     * `send()`'s. `seal` waits for a transaction id's seal and fails when the transaction failed.
     */
    async sendSealed<T>(
      key: string,
      send: () => Promise<string>,
      seal: (transactionId: string) => Promise<T>,
    ): Promise<SealedTransaction<T>> {
      const transactionId = unsealed.get(key) ?? (await send());
      const sealing = seal(transactionId);
      try {
        const sealed = await withinWait(sealing, transactionId);
        unsealed.delete(key);
        return { transactionId, sealed };
      } catch (err) {
        if (err instanceof SealTimeoutError) {
          unsealed.set(key, transactionId);
          const forget = () => {
            if (unsealed.get(key) === transactionId) unsealed.delete(key);
          };
          sealing.then(() => setTimeout(forget, timeoutMs), forget);
        } else unsealed.delete(key);
        throw err;
      }
    },
    /** The transaction sent for `key` and not sealed yet, if any. */
    pending: (key: string): string | null => unsealed.get(key) ?? null,
  };
}
