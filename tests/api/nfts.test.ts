import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { nfts, saleListings } from '../../server/db/schema';
import { approveKyc, databases, flowAddress, provenWallet, register, useTestApp } from './support/harness';

/** The nfts and nfts/sale-listings routes without a chain: reads, validation, auth and 404s. */
describe.each(databases)('NFT and sale listing routes on %s', (database) => {
  const t = useTestApp(database);
  const owner = flowAddress();
  let serial = 0;

  async function seed() {
    const now = new Date();
    const [nft] = await t.database.db
      .insert(nfts)
      .values({
        id: String(Date.now() * 100 + serial),
        blueprintId: 42,
        serialNumber: ++serial,
        owner,
        metadata: { name: 'A' },
      })
      .returning();
    const [listing] = await t.database.db
      .insert(saleListings)
      .values({
        blockchainListingId: String(Date.now() + 1),
        seller: owner,
        nftId: nft!.id,
        price: 1250,
        listedOn: now,
      })
      .returning();
    await t.database.db.update(nfts).set({ status: 'forSale' }).where(eq(nfts.id, nft!.id));
    return { nft: nft!, listing: listing! };
  }

  it('reads an NFT with its owner and active listing, and a sale listing', async () => {
    const { nft, listing } = await seed();
    const res = await t.request('GET', `/api/nfts/${nft.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: nft.id,
      blueprintId: '42',
      seriesNumber: nft.serialNumber,
      status: 'forSale',
      metadata: { name: 'A' },
      owner: { id: null, wallet: { walletAddress: owner } },
      activeSaleListing: { id: listing.id, price: 1250, blockchainListingId: listing.blockchainListingId },
    });
    const got = await t.request('GET', `/api/nfts/sale-listings/${listing.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: listing.id, price: 1250, nft: { id: nft.id }, status: 'active' });

    const list = await t.request('GET', `/api/nfts?owner=${owner}&status=forSale&blueprintId=42`);
    expect(list.status).toBe(200);
    expect(list.body.results.map((n: { id: string }) => n.id)).toContain(nft.id);
    expect((await t.request('GET', '/api/nfts?status=minting')).body).toEqual({ results: [], total: 0 });
  });

  it('answers 404 for unknown or malformed ids', async () => {
    expect((await t.request('GET', '/api/nfts/999999999')).status).toBe(404);
    expect((await t.request('GET', '/api/nfts/abc')).status).toBe(404);
    expect((await t.request('GET', '/api/nfts/sale-listings/not-a-uuid')).status).toBe(404);
    const unknown = await t.request('GET', '/api/nfts/sale-listings/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
  });

  it('validates list filters', async () => {
    const bad = await t.request('GET', '/api/nfts?status=sold');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_VALUE', field: 'status' });
    expect((await t.request('GET', '/api/nfts?ownerId=nope')).body).toMatchObject({ field: 'ownerId' });
    expect((await t.request('GET', '/api/nfts?from=0')).body).toMatchObject({ field: 'from' });
    expect((await t.request('GET', '/api/nfts?from=1&to=500')).status).toBe(400);
  });

  it('refuses ids its columns cannot hold with 400: blueprint ids and editions up to 2^53 − 1, token and listing ids up to 2^64 − 1', async () => {
    for (const id of [
      '9223372036854775808',
      '9223372036854775807',
      '9007199254740992',
      '99999999999999999999',
    ]) {
      const list = await t.request('GET', `/api/nfts?blueprintId=${id}`);
      expect(list.status, id).toBe(400);
      expect(list.body).toMatchObject({ code: 'INVALID_VALUE', field: 'blueprintId' });
    }
    expect((await t.request('GET', '/api/nfts?blueprintId=9007199254740991')).body).toEqual({
      results: [],
      total: 0,
    });
    expect((await t.request('GET', '/api/nfts/18446744073709551615')).status).toBe(404);
    expect((await t.request('GET', '/api/nfts/18446744073709551616')).status).toBe(404);

    const { authToken } = await register(t);
    const record = (body: object) =>
      t.request('POST', '/api/nfts/sale-listings/actions/record', {
        token: authToken,
        body: {
          blockchainListingId: '17',
          flowBlueprintId: '42',
          nftSeriesNumber: '1',
          walletAddress: flowAddress(),
          ...body,
        },
      });
    for (const [field, value] of [
      ['flowBlueprintId', '9223372036854775808'],
      ['flowBlueprintId', '9007199254740992'],
      ['nftSeriesNumber', '18446744073709551615'],
      ['blockchainListingId', '18446744073709551616'],
      ['flowBlueprintId', 2 ** 64],
    ] as const) {
      const res = await record({ [field]: value });
      expect(res.status, `${field} ${value}`).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_VALUE', field });
    }
    // A listing date the database can store: no year 0, nothing past 9999.
    for (const listedOn of ['0000-01-01T00:00:00Z', '9999-12-31T23:00:00-05:00']) {
      expect((await record({ listedOn })).body, listedOn).toMatchObject({ field: 'listedOn' });
    }
    // In range, the input passes validation (another account's wallet: 403).
    expect((await record({ blockchainListingId: '18446744073709551615' })).status).toBe(403);
    expect((await record({ flowBlueprintId: '9007199254740991', nftSeriesNumber: 2 ** 53 - 1 })).status).toBe(
      403,
    );
  });

  it('requires a login to record or cancel listings and purchases', async () => {
    for (const path of [
      '/api/nfts/sale-listings/actions/record',
      '/api/nfts/sale-listings/actions/cancel',
      '/api/nfts/purchases/actions/record',
    ]) {
      const res = await t.request('POST', path, { body: {} });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    }
  });

  it('validates record and cancel input with the shared schemas', async () => {
    const { authToken } = await register(t);
    const record = (body: unknown) =>
      t.request('POST', '/api/nfts/sale-listings/actions/record', { token: authToken, body });
    const valid = {
      blockchainListingId: '17',
      flowBlueprintId: 42,
      nftSeriesNumber: 1,
      listedOn: new Date().toISOString(),
      walletAddress: flowAddress(),
    };
    expect((await record({ ...valid, blockchainListingId: 'x' })).body).toMatchObject({
      code: 'INVALID_VALUE',
      field: 'blockchainListingId',
    });
    expect((await record({ ...valid, flowBlueprintId: -1 })).body).toMatchObject({
      field: 'flowBlueprintId',
    });
    expect((await record({ ...valid, walletAddress: 'nope' })).body).toMatchObject({
      field: 'walletAddress',
    });
    expect((await record({ ...valid, listedOn: 'yesterday' })).body).toMatchObject({ field: 'listedOn' });
    // Another account's wallet: forbidden.
    expect((await record(valid)).status).toBe(403);

    const cancel = await t.request('POST', '/api/nfts/sale-listings/actions/cancel', {
      token: authToken,
      body: { blockchainListingId: '123456789' },
    });
    expect(cancel.status).toBe(404);
    const purchase = await t.request('POST', '/api/nfts/purchases/actions/record', {
      token: authToken,
      body: { ...valid, transactionId: 'zz', type: 'saleListing' },
    });
    expect(purchase.body).toMatchObject({ code: 'INVALID_VALUE', field: 'transactionId' });
    const badType = await t.request('POST', '/api/nfts/purchases/actions/record', {
      token: authToken,
      body: { ...valid, transactionId: 'a'.repeat(64), type: 'gift' },
    });
    expect(badType.body).toMatchObject({ code: 'INVALID_VALUE', field: 'type' });
  });

  it('lets only identity-verified sellers record a listing (KYC); 503 without a chain', async () => {
    const wallet = await provenWallet(t);
    const { authToken, id } = await register(t, { ...wallet, cid: 'dev-wallet' });
    const record = () =>
      t.request('POST', '/api/nfts/sale-listings/actions/record', {
        token: authToken,
        body: {
          blockchainListingId: '17',
          flowBlueprintId: '42',
          nftSeriesNumber: '1',
          walletAddress: wallet.walletAddress,
        },
      });
    const unverified = await record();
    expect(unverified.status).toBe(403);
    expect(unverified.body.code).toBe('KYC_REQUIRED');
    await approveKyc(t, id);
    expect((await record()).status).toBe(503);
  });

  it('cancels only the seller’s own listing', async () => {
    const { listing } = await seed();
    const { authToken } = await register(t);
    const res = await t.request('POST', '/api/nfts/sale-listings/actions/cancel', {
      token: authToken,
      body: { blockchainListingId: listing.blockchainListingId },
    });
    expect(res.status).toBe(403);
  });
});
