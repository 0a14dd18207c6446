import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { ErrorCode } from '../../src/domain/errors';
import { fusdToCents } from '../../src/domain/money';
import type { NftJson } from '../../src/domain/nft';
import {
  NftIdParams,
  NftListQuery,
  PurchaseRecordInput,
  SaleListingCancelInput,
  SaleListingIdParams,
  SaleListingRecordInput,
} from '../../src/domain/schemas/nfts';
import { blueprintJson } from '../catalog/json';
import { getEditionToken, getListing } from '../chain/actions';
import { eventsOf, type FlowClient } from '../chain/client';
import { endListing, indexedEventTypes, moveNft, upsertListing, upsertNft } from '../chain/indexer';
import type { Executor } from '../db';
import { blueprints, nftPurchases, nfts, saleListings, storefronts, users } from '../db/schema';
import type { Services } from '../deps';
import { type AppContext, apiError, badRequest, defineRoute, forbidden, notFound, type Route } from '../http';
import { findKyc } from '../users/store';

type NftRow = typeof nfts.$inferSelect;
type ListingRow = typeof saleListings.$inferSelect;

function listingJson(l: ListingRow) {
  return {
    id: l.id,
    blockchainListingId: l.blockchainListingId,
    price: l.price,
    nft: { id: l.nftId },
    seller: l.seller,
    status: l.status,
    purchasedBy: l.purchasedBy,
    listedOn: l.listedOn.toISOString(),
    completedOn: l.completedOn?.toISOString() ?? null,
  };
}

async function nftJson(db: Executor, n: NftRow): Promise<NftJson> {
  const [owner] = await db
    .select({ id: users.id, username: users.username, avatarUrl: users.avatarUrl })
    .from(users)
    .where(eq(users.walletAddress, n.owner));
  const [listing] = await db
    .select()
    .from(saleListings)
    .where(
      and(eq(saleListings.nftId, n.id), eq(saleListings.status, 'active'), eq(saleListings.seller, n.owner)),
    );
  const [purchase] = await db
    .select()
    .from(nftPurchases)
    .where(eq(nftPurchases.nftId, n.id))
    .orderBy(desc(nftPurchases.purchasedOn))
    .limit(1);
  const [blueprint] = await db
    .select({ blueprint: blueprints, storefront: storefronts })
    .from(blueprints)
    .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
    .where(eq(blueprints.flowBlueprintId, n.blueprintId));
  return {
    id: n.id,
    blueprint: blueprint ? blueprintJson(blueprint.blueprint, blueprint.storefront) : null,
    blueprintId: String(n.blueprintId),
    seriesNumber: n.serialNumber,
    serialNumber: n.serialNumber,
    metadata: n.metadata,
    status: n.status,
    owner: {
      id: owner?.id ?? null,
      username: owner?.username ?? null,
      avatarUrl: owner?.avatarUrl ?? null,
      wallet: { walletAddress: n.owner },
    },
    activeSaleListing: listing
      ? { id: listing.id, price: listing.price, blockchainListingId: listing.blockchainListingId }
      : null,
    nftPurchase: purchase
      ? { amount: purchase.amount, purchasedOn: purchase.purchasedOn.toISOString() }
      : null,
  };
}

function requireChain(s: Services): FlowClient {
  if (!s.chainClient) throw apiError(503, 'unavailable', undefined, 'The chain is not available.');
  return s.chainClient;
}

/** The caller must hold the wallet the input names. */
function requireOwnWallet(c: AppContext, walletAddress: string) {
  const user = c.get('user')!;
  if (user.walletAddress !== walletAddress) throw forbidden();
  return user;
}

/** SPEC §7 nfts, nfts/sale-listings and nfts/purchases. The chain indexer keeps these rows in step. */
export function nftRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/nfts',
      tag: 'nfts',
      summary:
        'NFTs by owner (ownerId or owner address), status, blueprint and purchase type, sorted by listing price, edition or purchase date; paged by from/to',
      query: NftListQuery,
      responses: { 200: '{ results, total }', 400: 'Invalid filter' },
      async handler(c, { query }) {
        const where: SQL[] = [];
        if (query.status) where.push(eq(nfts.status, query.status));
        if (query.blueprintId) where.push(eq(nfts.blueprintId, Number(query.blueprintId)));
        if (query.owner) where.push(eq(nfts.owner, query.owner));
        if (query.ownerId) {
          const [u] = await s.db.select().from(users).where(eq(users.id, query.ownerId));
          if (!u?.walletAddress) return c.json({ results: [], total: 0 });
          where.push(eq(nfts.owner, u.walletAddress));
        }
        if (query.nftPurchaseType)
          where.push(
            sql`exists (select 1 from ${nftPurchases} where ${nftPurchases.nftId} = ${nfts.id} and ${nftPurchases.type} = ${query.nftPurchaseType})`,
          );
        const filter = where.length ? and(...where) : undefined;
        const dir = query['sort[direction]'] === 'desc' ? sql`desc` : sql`asc`;
        // Sorted by the active listing's price (unlisted last), the edition, or the latest purchase.
        const listingPrice = sql`(select ${saleListings.price} from ${saleListings} where ${saleListings.nftId} = ${nfts.id}
          and ${saleListings.status} = 'active' and ${saleListings.seller} = ${nfts.owner} limit 1)`;
        const purchasedOn = sql`(select max(${nftPurchases.purchasedOn}) from ${nftPurchases} where ${nftPurchases.nftId} = ${nfts.id})`;
        const order =
          query['sort[column]'] === 'activeSaleListing.price'
            ? [sql`${listingPrice} ${dir} nulls last`, asc(nfts.id)]
            : query['sort[column]'] === 'seriesNumber'
              ? [sql`${nfts.serialNumber} ${dir}`, asc(nfts.blueprintId)]
              : query['sort[column]'] === 'nftPurchase.purchasedOn'
                ? [sql`${purchasedOn} ${dir} nulls last`, asc(nfts.id)]
                : [asc(nfts.blueprintId), asc(nfts.serialNumber)];
        const rows = await s.db
          .select()
          .from(nfts)
          .where(filter)
          .orderBy(...order)
          .offset(query.from - 1)
          .limit(query.to - query.from + 1);
        const [{ total }] = (await s.db.select({ total: count() }).from(nfts).where(filter)) as [
          { total: number },
        ];
        const results = [];
        for (const row of rows) results.push(await nftJson(s.db, row));
        return c.json({ results, total: Number(total) });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nfts/{id}',
      tag: 'nfts',
      summary: 'An NFT by its chain token id',
      params: NftIdParams,
      responses: { 200: 'the NFT', 404: 'No such NFT' },
      async handler(c, { params }) {
        const [row] = await s.db.select().from(nfts).where(eq(nfts.id, params.id));
        if (!row) throw notFound();
        return c.json(await nftJson(s.db, row));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nfts/sale-listings/{id}',
      tag: 'nfts',
      summary: 'A sale listing',
      params: SaleListingIdParams,
      responses: { 200: 'the sale listing', 404: 'No such listing' },
      async handler(c, { params }) {
        const [row] = await s.db.select().from(saleListings).where(eq(saleListings.id, params.id));
        if (!row) throw notFound();
        return c.json(listingJson(row));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/nfts/sale-listings/actions/record',
      tag: 'nfts',
      auth: 'required',
      summary:
        'Records the listing the seller’s wallet just created (checked on chain; the indexer confirms it)',
      body: SaleListingRecordInput,
      responses: {
        201: 'the sale listing',
        400: 'Invalid input; the listing is not on chain or is not of that edition',
        403: 'The wallet is not the caller’s, or KYC_REQUIRED: selling needs identity verification (SPEC §6)',
        503: 'No chain is configured',
      },
      async handler(c, { body }) {
        requireOwnWallet(c, body.walletAddress);
        const kyc = await findKyc(s.db, c.get('user')!.id);
        if (kyc?.status !== 'approved') throw apiError(403, ErrorCode.KYC_REQUIRED);
        const client = requireChain(s);
        const onChain = await getListing(client, body.walletAddress, body.blockchainListingId);
        if (!onChain || onChain.purchased) throw badRequest(ErrorCode.INVALID_VALUE, 'blockchainListingId');
        const token = await getEditionToken(client, body.flowBlueprintId, body.nftSeriesNumber);
        if (token !== onChain.nftID || onChain.nftType !== indexedEventTypes(client).nftType) {
          throw badRequest(ErrorCode.INVALID_VALUE, 'nftSeriesNumber');
        }
        const now = s.clock();
        const row = await s.db.transaction(async (tx) => {
          await upsertNft(
            tx,
            {
              id: token,
              blueprintId: Number(body.flowBlueprintId),
              serialNumber: Number(body.nftSeriesNumber),
              owner: body.walletAddress,
            },
            now,
          );
          return upsertListing(
            tx,
            {
              blockchainListingId: body.blockchainListingId,
              seller: body.walletAddress,
              nftId: token,
              price: fusdToCents(onChain.salePrice),
              listedOn: body.listedOn ? new Date(body.listedOn) : now,
            },
            now,
          );
        });
        return c.json(listingJson(row), 201);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/nfts/sale-listings/actions/cancel',
      tag: 'nfts',
      auth: 'required',
      summary: 'Records that the seller’s wallet removed a listing from the chain',
      body: SaleListingCancelInput,
      responses: {
        200: 'the sale listing',
        400: 'Invalid input; the listing is still on chain',
        403: 'The listing is not the caller’s',
        404: 'No such listing',
      },
      async handler(c, { body }) {
        const [row] = await s.db
          .select()
          .from(saleListings)
          .where(eq(saleListings.blockchainListingId, body.blockchainListingId));
        if (!row) throw notFound();
        requireOwnWallet(c, row.seller);
        if (row.status !== 'active') return c.json(listingJson(row));
        const onChain = s.chainClient
          ? await getListing(s.chainClient, row.seller, row.blockchainListingId)
          : null;
        if (onChain)
          throw badRequest(ErrorCode.INVALID_VALUE, 'blockchainListingId', 'The listing is still on chain.');
        const now = s.clock();
        const ended = await s.db.transaction((tx) =>
          endListing(tx, row.blockchainListingId, { purchased: false }, now),
        );
        return c.json(listingJson(ended ?? row));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/nfts/purchases/actions/record',
      tag: 'nfts',
      auth: 'required',
      summary:
        'Records the purchase transaction the buyer’s wallet sent (checked on chain; once per transaction)',
      body: PurchaseRecordInput,
      responses: {
        201: 'the purchase { id, transactionId, nft, amount, type, blockchainListingId, purchasedOn }',
        400: 'Invalid input, or TRANSACTION: the transaction did not deliver that NFT to the wallet',
        403: 'The wallet is not the caller’s',
        503: 'No chain is configured',
      },
      async handler(c, { body }) {
        const user = requireOwnWallet(c, body.walletAddress);
        const client = requireChain(s);
        const token = await getEditionToken(client, body.flowBlueprintId, body.nftSeriesNumber);
        if (!token) throw badRequest(ErrorCode.INVALID_VALUE, 'nftSeriesNumber');
        let sealed: Awaited<ReturnType<FlowClient['waitForSeal']>>;
        try {
          sealed = await client.waitForSeal(body.transactionId);
        } catch {
          throw badRequest('TRANSACTION', 'transactionId', 'The transaction failed or is unknown.');
        }
        const types = indexedEventTypes(client);
        const deposited = eventsOf(sealed, types.deposited).some(
          (d) => d.type === types.nftType && String(d.id) === token && d.to === body.walletAddress,
        );
        const completed = eventsOf(sealed, types.completed).find(
          (d) =>
            d.purchased &&
            String(d.listingResourceID) === body.blockchainListingId &&
            String(d.nftID) === token,
        );
        if (!deposited || (body.blockchainListingId && !completed)) {
          throw badRequest(
            'TRANSACTION',
            'transactionId',
            'The transaction did not deliver this NFT to the wallet.',
          );
        }
        const now = s.clock();
        const purchase = await s.db.transaction(async (tx) => {
          if (completed) {
            await endListing(
              tx,
              body.blockchainListingId!,
              { purchased: true, purchasedBy: body.walletAddress },
              now,
            );
            await tx
              .update(saleListings)
              .set({ purchasedBy: body.walletAddress })
              .where(eq(saleListings.blockchainListingId, body.blockchainListingId!));
          }
          await moveNft(tx, token, body.walletAddress, now);
          await tx
            .insert(nftPurchases)
            .values({
              transactionId: body.transactionId,
              buyerId: user.id,
              walletAddress: body.walletAddress,
              nftId: token,
              // What the chain shows, not what the client says: a completed listing is a resale.
              type: completed ? 'saleListing' : body.type,
              blockchainListingId: body.blockchainListingId ?? null,
              amount: completed ? fusdToCents(completed.salePrice) : 0,
              purchasedOn: now,
            })
            .onConflictDoNothing();
          const [row] = await tx
            .select()
            .from(nftPurchases)
            .where(eq(nftPurchases.transactionId, body.transactionId));
          return row!;
        });
        return c.json(
          {
            id: purchase.id,
            transactionId: purchase.transactionId,
            nft: { id: purchase.nftId },
            amount: purchase.amount,
            type: purchase.type,
            blockchainListingId: purchase.blockchainListingId,
            purchasedOn: purchase.purchasedOn.toISOString(),
          },
          201,
        );
      },
    }),
  ];
}
