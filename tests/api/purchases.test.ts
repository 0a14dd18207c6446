import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowClient } from '../../server/chain/client';
import { emulatorChainConfig } from '../../server/chain/config';
import { nftPurchases, nfts, saleListings } from '../../server/db/schema';
import { bothDatabases, flowAddress, provenWallet, register, useTestApp } from './support/harness';

/**
 * POST nfts/purchases/actions/record for the answers of the access node that the emulator cannot
 * give on demand (a transaction still pending, a node that does not answer), over a stand-in access
 * node that speaks the REST API's transaction_results call; and repeats of a recorded transaction,
 * which never reach the chain. Real purchases are in tests/chain/nft-records.test.ts.
 */
const txId = () => randomBytes(32).toString('hex');
const ids = { pending: txId(), failed: txId(), unknown: txId(), silent: txId() };

function transactionResult(status: string, errorMessage = '') {
  return {
    block_id: '',
    collection_id: '',
    execution: status === 'Pending' ? 'Pending' : 'Success',
    status,
    status_code: errorMessage ? 1 : 0,
    error_message: errorMessage,
    computation_used: '0',
    events: [],
  };
}

let node: Server;
const held: (() => void)[] = [];
beforeAll(async () => {
  node = createServer((req, res) => {
    const id = /^\/v1\/transaction_results\/([0-9a-f]{64})/.exec(req.url ?? '')?.[1];
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (id === ids.pending) return reply(200, transactionResult('Pending'));
    if (id === ids.failed) return reply(200, transactionResult('Sealed', 'error: panic: no such listing'));
    // Never answered while the test runs.
    if (id === ids.silent) return void held.push(() => res.destroy());
    reply(404, { code: 404, message: 'transaction not found' });
  });
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const release of held) release();
  await new Promise((resolve) => node.close(resolve));
});

describe.each(bothDatabases)('recording purchases on %s', (database) => {
  const t = useTestApp(
    database,
    {},
    {
      get chainClient() {
        const { port } = node.address() as AddressInfo;
        return new FlowClient(emulatorChainConfig(`http://127.0.0.1:${port}`));
      },
    },
  );

  async function buyer() {
    const wallet = await provenWallet(t);
    const user = await register(t, { ...wallet, cid: 'dev-wallet' });
    const record = (body: Record<string, unknown>) =>
      t.request('POST', '/api/nfts/purchases/actions/record', {
        token: user.authToken,
        body: {
          walletAddress: wallet.walletAddress,
          flowBlueprintId: '7',
          nftSeriesNumber: '1',
          blockchainListingId: '70',
          ...body,
        },
      });
    return { user, wallet: wallet.walletAddress, record };
  }

  it('answers 202 pending for a transaction not sealed yet, and records nothing', async () => {
    const { record } = await buyer();
    // `type` is optional and does not matter.
    const res = await record({ transactionId: ids.pending });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'pending', transactionId: ids.pending });
    expect(
      await t.database.db.select().from(nftPurchases).where(eq(nftPurchases.transactionId, ids.pending)),
    ).toEqual([]);
  });

  it('answers 400 TRANSACTION for an unknown or failed transaction, and 503 when the node is silent', async () => {
    const { record } = await buyer();
    for (const transactionId of [ids.unknown, ids.failed]) {
      const res = await record({ transactionId, type: 'directPurchase' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'TRANSACTION', field: 'transactionId' });
    }
    const started = Date.now();
    const silent = await record({ transactionId: ids.silent });
    expect(silent.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers a recorded transaction with its first record and changes nothing', async () => {
    const { user, wallet, record } = await buyer();
    const holder = flowAddress();
    const nftId = String(Date.now());
    const transactionId = txId();
    const now = new Date();
    // The buyer bought it in that transaction and has since passed it on; the holder lists it.
    await t.database.db.insert(nfts).values({
      id: nftId,
      blueprintId: 7,
      serialNumber: Number(nftId.slice(-6)),
      owner: holder,
      chainOwner: holder,
      status: 'forSale',
    });
    const [listing] = await t.database.db
      .insert(saleListings)
      .values({ blockchainListingId: `${nftId}1`, seller: holder, nftId, price: 900, listedOn: now })
      .returning();
    const [purchase] = await t.database.db
      .insert(nftPurchases)
      .values({
        transactionId,
        buyerId: user.id,
        walletAddress: wallet,
        nftId,
        type: 'saleListing',
        blockchainListingId: '70',
        amount: 500,
        purchasedOn: now,
      })
      .returning();

    for (const type of ['saleListing', 'directPurchase', undefined]) {
      const res = await record({ transactionId, ...(type ? { type } : {}) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: purchase!.id,
        transactionId,
        nft: { id: nftId },
        amount: 500,
        type: 'saleListing',
        blockchainListingId: '70',
        purchasedOn: now.toISOString(),
      });
    }
    expect((await t.database.db.select().from(nfts).where(eq(nfts.id, nftId)))[0]).toMatchObject({
      owner: holder,
      status: 'forSale',
    });
    expect(
      (await t.database.db.select().from(saleListings).where(eq(saleListings.id, listing!.id)))[0],
    ).toMatchObject({ status: 'active', seller: holder });
    expect(
      await t.database.db.select().from(nftPurchases).where(eq(nftPurchases.transactionId, transactionId)),
    ).toHaveLength(1);
  });
});
