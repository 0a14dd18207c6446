import { describe, expect, it } from 'vitest';
import { createAccount } from '../../server/chain/accounts';
import { getFusdBalance, setupAccount } from '../../server/chain/actions';
import { FlowClient } from '../../server/chain/client';
import { emulatorChainConfig, emulatorContracts } from '../../server/chain/config';
import { deployContracts } from '../../server/chain/deploy';
import { centsToUfix64, FusdSendError, type FusdSendStore, sendFusd } from '../../server/chain/treasury';
import { chainClient, newCollector } from './support';

const client = chainClient();

/** The caller's persistence, in memory; `saved` lists every save in order. */
function memoryStore(initial: Record<string, string> = {}) {
  const ids = new Map(Object.entries(initial));
  const saved: Array<[string, string]> = [];
  const store: FusdSendStore = {
    async get(key) {
      const transactionId = ids.get(key);
      return transactionId ? { transactionId } : null;
    },
    async save(key, transactionId) {
      ids.set(key, transactionId);
      saved.push([key, transactionId]);
    },
  };
  return { store, ids, saved };
}

let nextKey = 0;
const freshKey = () => `topup-${Date.now()}-${++nextKey}`;

describe('treasury funding (deploy)', () => {
  it('leaves the emulator treasury with at least 100,000 FUSD after the global deploy', async () => {
    const balance = await getFusdBalance(client, client.config.admin.address);
    expect(Number(balance)).toBeGreaterThanOrEqual(100_000);
    expect((await deployContracts(client)).treasuryFunded).toBe(false);
  });

  it('mints 1,000,000 FUSD into an empty emulator treasury, once', async () => {
    const admin = await createAccount(client);
    const own = new FlowClient(
      emulatorChainConfig(client.config.accessNode, {
        admin,
        contracts: { ...emulatorContracts, FUSD: admin.address },
      }),
    );
    const logged: string[] = [];
    const first = await deployContracts(own, (line) => logged.push(line));
    expect(first).toMatchObject({ deployed: ['FUSD'], adminSetUp: true, treasuryFunded: true });
    expect(logged.at(-1)).toMatch(/funded the treasury .* 1000000\.0 FUSD/);
    expect(await getFusdBalance(own, admin.address)).toBe('1000000.00000000');

    const second = await deployContracts(own);
    expect(second).toMatchObject({ deployed: [], present: ['FUSD'], treasuryFunded: false });
    expect(await getFusdBalance(own, admin.address)).toBe('1000000.00000000');
  });

  it('mints nothing on other networks', async () => {
    const admin = await createAccount(client);
    const testnetLike = new FlowClient({
      ...emulatorChainConfig(client.config.accessNode, {
        admin,
        contracts: { ...emulatorContracts, FUSD: admin.address },
      }),
      network: 'testnet',
    });
    const result = await deployContracts(testnetLike);
    expect(result).toMatchObject({ deployed: ['FUSD'], treasuryFunded: false });
    expect(await getFusdBalance(testnetLike, admin.address)).toBe('0.00000000');
  });
});

describe('sendFusd', () => {
  it('writes integer cents as an exact UFix64 amount', () => {
    expect(centsToUfix64(1250)).toBe('12.50000000');
    expect(centsToUfix64(5)).toBe('0.05000000');
    expect(centsToUfix64(100_000_00)).toBe('100000.00000000');
    expect(centsToUfix64(0)).toBe('0.00000000');
    expect(() => centsToUfix64(12.5)).toThrow(/cents/);
    expect(() => centsToUfix64(-1)).toThrow(/cents/);
  });

  it('refuses bad requests before touching the chain', async () => {
    const { store } = memoryStore();
    await expect(sendFusd(client, { to: '0x01', cents: 0, key: 'k' }, store)).rejects.toThrow(/positive/);
    await expect(sendFusd(client, { to: '0x01', cents: 12.5, key: 'k' }, store)).rejects.toThrow(/positive/);
    await expect(sendFusd(client, { to: '0x01', cents: 1, key: '' }, store)).rejects.toThrow(/key/);
    await expect(sendFusd(client, { to: 'nope', cents: 1, key: 'k' }, store)).rejects.toThrow(/address/);
  });

  it('sends exactly 12.50 FUSD from the treasury, saving the id, and never twice for one key', async () => {
    const buyer = await newCollector(client);
    const { store, ids, saved } = memoryStore();
    const key = freshKey();
    const treasuryBefore = await getFusdBalance(client, client.config.admin.address);

    const first = await sendFusd(client, { to: buyer.address, cents: 1250, key }, store);
    expect(first.transactionId).toMatch(/^[0-9a-f]{64}$/);
    expect(saved).toEqual([[key, first.transactionId]]);
    expect(await getFusdBalance(client, buyer.address)).toBe('12.50000000');
    expect(
      Number(treasuryBefore) - Number(await getFusdBalance(client, client.config.admin.address)),
    ).toBeCloseTo(12.5, 6);

    const again = await sendFusd(client, { to: buyer.address, cents: 1250, key }, store);
    expect(again).toEqual(first);
    expect(saved).toHaveLength(1);
    expect(ids.get(key)).toBe(first.transactionId);
    expect(await getFusdBalance(client, buyer.address)).toBe('12.50000000');
  });

  it('shares one transfer between concurrent calls with one key', async () => {
    const buyer = await newCollector(client);
    const { store, saved } = memoryStore();
    const key = freshKey();
    const [a, b] = await Promise.all([
      sendFusd(client, { to: buyer.address, cents: 300, key }, store),
      sendFusd(client, { to: buyer.address, cents: 300, key }, store),
    ]);
    expect(a).toEqual(b);
    expect(saved).toHaveLength(1);
    expect(await getFusdBalance(client, buyer.address)).toBe('3.00000000');
  });

  it('throws FusdSendError when the recipient has no FUSD vault, then sends again once it has one', async () => {
    const recipient = await newCollector(client, { setup: false });
    const { store, ids, saved } = memoryStore();
    const key = freshKey();

    const error = await sendFusd(client, { to: recipient.address, cents: 1250, key }, store).catch((e) => e);
    expect(error).toBeInstanceOf(FusdSendError);
    expect(error.message).toMatch(/has no FUSD vault/);
    expect(error.key).toBe(key);
    expect(error.transactionId).toMatch(/^[0-9a-f]{64}$/);
    // The failed transaction's id was saved before it was sent.
    expect(ids.get(key)).toBe(error.transactionId);

    await setupAccount(client, recipient);
    const retried = await sendFusd(client, { to: recipient.address, cents: 1250, key }, store);
    expect(retried.transactionId).not.toBe(error.transactionId);
    expect(saved.map(([, id]) => id)).toEqual([error.transactionId, retried.transactionId]);
    expect(await getFusdBalance(client, recipient.address)).toBe('12.50000000');
  });

  it('sends anew when the stored id is one the chain never saw (after the grace period)', async () => {
    const buyer = await newCollector(client);
    const key = freshKey();
    const { store, saved } = memoryStore({ [key]: 'ab'.repeat(32) });
    const sent = await sendFusd(client, { to: buyer.address, cents: 1, key }, store, { unknownGraceMs: 0 });
    expect(saved).toEqual([[key, sent.transactionId]]);
    expect(await getFusdBalance(client, buyer.address)).toBe('0.01000000');
  });

  it('refuses a stored transaction that is another transfer', async () => {
    const buyer = await newCollector(client);
    const { store } = memoryStore();
    const key = freshKey();
    await sendFusd(client, { to: buyer.address, cents: 200, key }, store);
    await expect(sendFusd(client, { to: buyer.address, cents: 201, key }, store)).rejects.toThrow(
      /is not a transfer of 2\.01000000 FUSD/,
    );
    expect(await getFusdBalance(client, buyer.address)).toBe('2.00000000');
  });
});
