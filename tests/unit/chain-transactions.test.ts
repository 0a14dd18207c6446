import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, toErrorBody } from '#domain/errors';
import { chainTransactions, SealTimeoutError } from '../../src/services/chainTransactions';

/** A chain where each sent transaction seals when told to, or fails. */
function chain() {
  const sent: string[] = [];
  const seals = new Map<string, { resolve: (events: string[]) => void; reject: (err: unknown) => void }>();
  return {
    sent,
    send: async () => {
      const id = `tx${sent.length + 1}`;
      sent.push(id);
      return id;
    },
    seal: (id: string) =>
      new Promise<string[]>((resolve, reject) => {
        seals.set(id, { resolve, reject });
      }),
    sealNow: (id: string) => seals.get(id)!.resolve([`sealed ${id}`]),
    failNow: (id: string) => seals.get(id)!.reject(new Error('reverted')),
  };
}

describe('one transaction per operation: resumed after a seal timeout, sent again after a failure', () => {
  afterEach(() => vi.useRealTimers());

  it('sends a transaction and answers its seal', async () => {
    const c = chain();
    const tx = chainTransactions({ sealTimeoutMs: 1000 });
    const done = tx.sendSealed('createListing:42', c.send, c.seal);
    await vi.waitFor(() => expect(c.sent).toEqual(['tx1']));
    c.sealNow('tx1');
    expect(await done).toEqual({ transactionId: 'tx1', sealed: ['sealed tx1'] });
    expect(tx.pending('createListing:42')).toBeNull();
  });

  it('fails with a typed SEAL_TIMEOUT, then waits for the same transaction instead of sending it twice', async () => {
    vi.useFakeTimers();
    const c = chain();
    const tx = chainTransactions({ sealTimeoutMs: 1000 });
    const first = tx.sendSealed('buyListing:99', c.send, c.seal);
    const failed = first.catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(1000);
    const err = await failed;
    expect(err).toBeInstanceOf(SealTimeoutError);
    expect((err as SealTimeoutError).transactionId).toBe('tx1');
    expect(toErrorBody(err).code).toBe(ErrorCode.SEAL_TIMEOUT);
    expect(tx.pending('buyListing:99')).toBe('tx1');

    const again = tx.sendSealed('buyListing:99', c.send, c.seal);
    await vi.advanceTimersByTimeAsync(10);
    c.sealNow('tx1');
    expect(await again).toEqual({ transactionId: 'tx1', sealed: ['sealed tx1'] });
    expect(c.sent).toEqual(['tx1']);
    expect(tx.pending('buyListing:99')).toBeNull();
  });

  it('forgets a timed-out transaction when it fails in the background, and a wait after it seals', async () => {
    vi.useFakeTimers();
    const c = chain();
    const tx = chainTransactions({ sealTimeoutMs: 1000 });
    const failing = tx.sendSealed('removeListing:7', c.send, c.seal).catch((err: unknown) => err);
    const sealing = tx.sendSealed('transferNfts:1,2:0xabc', c.send, c.seal).catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await failing).toBeInstanceOf(SealTimeoutError);
    expect(await sealing).toBeInstanceOf(SealTimeoutError);
    expect(tx.pending('removeListing:7')).toBe('tx1');
    expect(tx.pending('transferNfts:1,2:0xabc')).toBe('tx2');

    c.failNow('tx1');
    c.sealNow('tx2');
    await vi.advanceTimersByTimeAsync(0);
    expect(tx.pending('removeListing:7')).toBeNull();
    // Sealed in the background: a try within the next wait still gets this transaction…
    expect(tx.pending('transferNfts:1,2:0xabc')).toBe('tx2');
    await vi.advanceTimersByTimeAsync(1000);
    // …a later attempt sends afresh.
    expect(tx.pending('transferNfts:1,2:0xabc')).toBeNull();
    expect(c.sent).toEqual(['tx1', 'tx2']);
  });

  it('sends again after a failed transaction, and keeps other operations apart', async () => {
    const c = chain();
    const tx = chainTransactions({ sealTimeoutMs: 1000 });
    const first = tx.sendSealed('removeListing:7', c.send, c.seal).catch((err: unknown) => err);
    await vi.waitFor(() => expect(c.sent).toEqual(['tx1']));
    c.failNow('tx1');
    expect(await first).toBeInstanceOf(Error);
    expect(tx.pending('removeListing:7')).toBeNull();

    const other = tx.sendSealed('transferNfts:1,2', c.send, c.seal);
    const again = tx.sendSealed('removeListing:7', c.send, c.seal);
    await vi.waitFor(() => expect(c.sent).toEqual(['tx1', 'tx2', 'tx3']));
    c.sealNow('tx2');
    c.sealNow('tx3');
    expect((await other).transactionId).toBe('tx2');
    expect((await again).transactionId).toBe('tx3');
  });

  it('sends nothing more when the wallet refuses: the next try sends afresh', async () => {
    const tx = chainTransactions({ sealTimeoutMs: 1000 });
    const refused = tx.sendSealed(
      'createListing:42',
      async () => {
        throw new Error('declined');
      },
      async () => [],
    );
    await expect(refused).rejects.toThrow('declined');
    expect(tx.pending('createListing:42')).toBeNull();
  });
});
