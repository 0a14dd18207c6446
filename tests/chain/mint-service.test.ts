import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNfts, mintNft, setupAccount } from '../../server/chain/actions';
import type { AccountKey } from '../../server/chain/config';
import {
  createMintService,
  MintConflictError,
  MintFailedError,
  type MintService,
} from '../../server/chain/mint';
import { type DatabaseHandle, openDb } from '../../server/db';
import { mints } from '../../server/db/schema';
import { chainClient, freshBlueprintId, newCollector } from './support';

const client = chainClient();

describe('minting service (PGlite)', () => {
  let dataDir: string;
  let database: DatabaseHandle;
  let service: MintService;
  let buyer: AccountKey;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vitrine-mint-'));
    database = await openDb({ databaseUrl: 'memory://', dataDir });
    service = createMintService({ db: database.db, client });
    buyer = await newCollector(client);
  });

  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const request = (overrides: Partial<Parameters<MintService['mint']>[0]> = {}) => ({
    purchaseKey: `purchase-${freshBlueprintId()}`,
    to: buyer.address,
    blueprintId: freshBlueprintId(),
    serialNumber: 1,
    metadata: { name: 'Tide' },
    ...overrides,
  });

  it('mints to the buyer and records the sealed mint', async () => {
    const req = request({ serialNumber: 4 });
    const result = await service.mint(req);

    expect(result).toMatchObject({
      purchaseKey: req.purchaseKey,
      status: 'sealed',
      recipient: buyer.address,
    });
    expect(await getNfts(client, buyer.address, [result.nftId])).toEqual([
      {
        id: result.nftId,
        blueprintId: String(req.blueprintId),
        serialNumber: '4',
        metadata: { name: 'Tide' },
        owner: buyer.address,
      },
    ]);
    expect(await service.get(req.purchaseKey)).toMatchObject({
      status: 'sealed',
      transactionId: result.transactionId,
      nftId: result.nftId,
      attempts: 1,
      error: null,
    });
  });

  it('mints once for a purchase key called twice: the retry answers the first result', async () => {
    const req = request();
    const first = await service.mint(req);
    const second = await service.mint(req);

    expect(second).toEqual(first);
    const owned = await getNfts(client, buyer.address);
    expect(owned.filter((n) => n.blueprintId === String(req.blueprintId))).toHaveLength(1);
    expect((await service.get(req.purchaseKey))?.attempts).toBe(1);
  });

  it('mints once for concurrent calls with one purchase key', async () => {
    const req = request();
    const results = await Promise.all([service.mint(req), service.mint(req), service.mint(req)]);
    expect(new Set(results.map((r) => r.nftId)).size).toBe(1);
    const owned = await getNfts(client, buyer.address);
    expect(owned.filter((n) => n.blueprintId === String(req.blueprintId))).toHaveLength(1);
  });

  it('refuses a purchase key reused for another edition, and an edition claimed by another key', async () => {
    const req = request();
    await service.mint(req);
    await expect(service.mint({ ...req, serialNumber: 2 })).rejects.toThrow(MintConflictError);
    await expect(service.mint({ ...req, purchaseKey: `${req.purchaseKey}-other` })).rejects.toThrow(
      /belongs to another purchase/,
    );
    expect(await service.get(`${req.purchaseKey}-other`)).toBeUndefined();
  });

  it('records a mint the chain refused as failed, and a retry after account setup succeeds', async () => {
    const newcomer = await newCollector(client, { setup: false });
    const req = request({ to: newcomer.address });

    const error = await service.mint(req).catch((e) => e);
    expect(error).toBeInstanceOf(MintFailedError);
    expect(error.message).toMatch(/has no VitrineNFT collection/);
    expect(await service.get(req.purchaseKey)).toMatchObject({ status: 'failed', nftId: null, attempts: 1 });
    expect(error.transactionId).toBe((await service.get(req.purchaseKey))?.transactionId);

    await setupAccount(client, newcomer);
    const result = await service.mint(req);
    expect(await getNfts(client, newcomer.address)).toMatchObject([{ id: result.nftId }]);
    expect(await service.get(req.purchaseKey)).toMatchObject({ status: 'sealed', attempts: 2, error: null });
  });

  it('resends a mint whose transaction never reached the chain (a crash between signing and sending)', async () => {
    const req = request();
    await database.db.insert(mints).values({
      purchaseKey: req.purchaseKey,
      recipient: req.to,
      blueprintId: req.blueprintId,
      serialNumber: req.serialNumber,
      metadata: req.metadata,
      status: 'submitted',
      transactionId: 'ab'.repeat(32),
      attempts: 1,
    });

    const result = await service.mint(req);
    expect(result.transactionId).not.toBe('ab'.repeat(32));
    expect(await getNfts(client, buyer.address, [result.nftId])).toHaveLength(1);
    expect((await service.get(req.purchaseKey))?.attempts).toBe(2);
  });

  it('resumes a mint whose transaction was sent: waits for it instead of minting again', async () => {
    const req = request();
    const sent = await mintNft(client, { ...req, to: req.to });
    await database.db.insert(mints).values({
      purchaseKey: req.purchaseKey,
      recipient: req.to,
      blueprintId: req.blueprintId,
      serialNumber: req.serialNumber,
      metadata: req.metadata,
      status: 'submitted',
      transactionId: sent.id,
      attempts: 1,
    });

    const result = await service.mint(req);
    expect(result).toMatchObject({ transactionId: sent.id, nftId: sent.nftId });
    const row = (await database.db.select().from(mints).where(eq(mints.purchaseKey, req.purchaseKey)))[0];
    expect(row).toMatchObject({ status: 'sealed', attempts: 1 });
  });

  it('takes over an edition an earlier attempt minted before its transaction id was stored', async () => {
    const req = request();
    const earlier = await mintNft(client, { ...req });
    await database.db.insert(mints).values({
      purchaseKey: req.purchaseKey,
      recipient: req.to,
      blueprintId: req.blueprintId,
      serialNumber: req.serialNumber,
      metadata: req.metadata,
    });

    const result = await service.mint(req);
    expect(result.nftId).toBe(earlier.nftId);
    const owned = await getNfts(client, buyer.address);
    expect(owned.filter((n) => n.blueprintId === String(req.blueprintId))).toHaveLength(1);
    expect(await service.get(req.purchaseKey)).toMatchObject({ status: 'sealed', nftId: earlier.nftId });
  });
});
