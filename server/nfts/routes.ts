import type * as v from 'valibot';
import { ErrorCode } from '#domain/errors';
import { fusdToCents } from '#domain/money';
import {
  NftJson,
  NftPage,
  PurchasePage,
  PurchaseRecordAnswer,
  SaleListingJson,
} from '#domain/responses/nfts';
import {
  NftIdParams,
  NftListQuery,
  NftPurchaseListQuery,
  PurchaseRecordInput,
  SaleListingCancelInput,
  SaleListingIdParams,
  SaleListingRecordInput,
} from '#domain/schemas/nfts';
import {
  checkTransaction,
  getEditionToken,
  getListing,
  ownsNft,
  type TransactionCheck,
} from '../chain/actions';
import type { FlowClient } from '../chain/client';
import { indexedEventTypes } from '../chain/events';
import { confirmHolder, endListing, recordSale, saleInTransaction, upsertListing } from '../chain/facts';
import type { Services } from '../deps';
import { type AppContext, apiError, badRequest, defineRoute, forbidden, notFound, type Route } from '../http';
import { findKyc } from '../users/queries';
import { listingJson, nftJson, purchaseJson, purchaseListJson } from './json';
import {
  findListing,
  findNft,
  listingOnChain,
  mintedEditions,
  nftPage,
  purchaseOfTransaction,
  purchasesPage,
} from './queries';

/** How long the purchase route waits for the access node's answer about a transaction. */
export const TRANSACTION_STATUS_TIMEOUT_MS = 3000;

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

/** NFTs, their sale listings and their purchases. The chain indexer keeps these rows in step. */
export function nftRoutes(s: Services): Route[] {
  return [...nftReadRoutes(s), ...listingRecordRoutes(s), ...purchaseRecordRoutes(s)];
}

/** NFTs, the caller's purchases and sale listings. */
function nftReadRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/nfts',
      tag: 'nfts',
      summary:
        'NFTs by owner (ownerId or owner address), status, blueprint and purchase type, sorted by listing price, edition or purchase date; paged by from/to',
      query: NftListQuery,
      response: NftPage,
      responses: { 200: '{ results, total }', 400: 'Invalid filter' },
      async handler(c, { query }) {
        const found = await nftPage(s.db, query);
        if (!found) return c.json({ results: [], total: 0 });
        const { rows, total } = found;
        const results = [];
        for (const row of rows) results.push(await nftJson(s.db, row));
        return c.json({ results, total });
      },
    }),
    // Declared before /nfts/{id}: routes are tried in this order, and "purchases" is no token id.
    defineRoute({
      method: 'get',
      path: '/nfts/purchases',
      tag: 'nfts',
      auth: 'required',
      summary:
        'The caller’s purchases, newest first, optionally of one storefront or blueprint; paged by from/to (at most 10)',
      query: NftPurchaseListQuery,
      response: PurchasePage,
      responses: {
        200: '{ results: [{ id, transactionId, type, amount, purchasedOn, walletAddress, nft { id, seriesNumber, blueprint { id, title, previewImageUrl, storefront { id, name } } | null }, blueprintId, blueprintPackId, nftSaleListingId, order { id, item { kind, id, title, coverImageUrl }, amount, editions [{ nftId, blueprintId, title, previewImageUrl, seriesNumber }] } | null }], total }',
        400: 'Invalid filter or paging',
        401: 'Not signed in',
      },
      async handler(c, { query }) {
        const page = {
          buyerId: c.get('user')!.id,
          storefrontId: query.storefrontId ?? null,
          blueprintId: query.blueprintId ?? null,
          offset: query.from - 1,
          limit: query.to - query.from + 1,
        };
        const { rows, total } = await purchasesPage(s.db, page);
        const orderIds = [...new Set(rows.flatMap((r) => (r.order ? [r.order.id] : [])))];
        const results = purchaseListJson(rows, await mintedEditions(s.db, orderIds));
        return c.json({ results, total });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nfts/{id}',
      tag: 'nfts',
      summary: 'An NFT by its chain token id',
      params: NftIdParams,
      response: NftJson,
      responses: { 200: 'the NFT', 404: 'No such NFT' },
      async handler(c, { params }) {
        const row = await findNft(s.db, params.id);
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
      response: SaleListingJson,
      responses: { 200: 'the sale listing', 404: 'No such listing' },
      async handler(c, { params }) {
        const row = await findListing(s.db, params.id);
        if (!row) throw notFound();
        return c.json(listingJson(row));
      },
    }),
  ];
}

/** What the seller's wallet did on chain: a listing made or removed. */
function listingRecordRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/nfts/sale-listings/actions/record',
      tag: 'nfts',
      auth: 'required',
      summary:
        'Records the listing the seller’s wallet just created (checked on chain; the indexer confirms it)',
      body: SaleListingRecordInput,
      response: SaleListingJson,
      responses: {
        201: 'the sale listing',
        400: 'Invalid input; the listing is not on chain, is not of that edition, or its NFT is not in the wallet',
        403: 'The wallet is not the caller’s, or KYC_REQUIRED: selling needs identity verification',
        503: 'No chain is configured',
      },
      async handler(c, { body }) {
        requireOwnWallet(c, body.walletAddress);
        const kyc = await findKyc(s.db, c.get('user')!.id);
        if (kyc?.status !== 'approved') throw apiError(403, ErrorCode.KYC_REQUIRED);
        const row = await recordListing(s, body);
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
      response: SaleListingJson,
      responses: {
        200: 'the sale listing',
        400: 'Invalid input; the listing is still on chain',
        403: 'The listing is not the caller’s',
        404: 'No such listing',
      },
      async handler(c, { body }) {
        const row = await listingOnChain(s.db, body.blockchainListingId);
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
  ];
}

/** What the buyer's wallet did on chain: a resale bought. */
function purchaseRecordRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/nfts/purchases/actions/record',
      tag: 'nfts',
      auth: 'required',
      summary: 'Records the resale the buyer’s wallet completed (read from the chain; once per transaction)',
      body: PurchaseRecordInput,
      response: PurchaseRecordAnswer,
      responses: {
        200: 'the purchase, recorded before (by an earlier call or the indexer): the first record, unchanged',
        201: 'the purchase { id, transactionId, nft, amount, type, blockchainListingId, purchasedOn }',
        202: '{ status: "pending", transactionId }: not sealed yet; the indexer records it once sealed',
        400: 'Invalid input, or TRANSACTION: the transaction is unknown, failed, or is not a purchase of that NFT by the wallet',
        403: 'The wallet is not the caller’s',
        503: 'No chain is configured, or the access node did not answer',
      },
      async handler(c, { body }) {
        requireOwnWallet(c, body.walletAddress);
        // A transaction is recorded once: a repeat answers the first record and changes nothing.
        const known = await purchaseOfTransaction(s.db, body.transactionId);
        if (known) return c.json(purchaseJson(known), 200);
        const client = requireChain(s);
        const verified = await verifiedSale(client, body);
        if (verified === 'pending')
          return c.json({ status: 'pending', transactionId: body.transactionId }, 202);
        const { sale, token } = verified;
        // Ownership moves only if the NFT is in the buyer's wallet now; otherwise the indexer moves it.
        const holds = await ownsNft(client, sale.buyer, token);
        const now = s.clock();
        const { purchase, created } = await s.db.transaction(async (tx) => {
          const recorded = await recordSale(tx, sale, now, now);
          if (recorded.created && holds) {
            await confirmHolder(
              tx,
              {
                id: token,
                blueprintId: Number(body.flowBlueprintId),
                serialNumber: Number(body.nftSeriesNumber),
                owner: sale.buyer,
              },
              now,
            );
          }
          return recorded;
        });
        return c.json(purchaseJson(purchase), created ? 201 : 200);
      },
    }),
  ];
}

/**
 * Records a listing the seller's wallet made: it must be on chain, unsold, of the named edition, and
 * its NFT in the wallet (a listing stays in the storefront after its NFT left; only the holder's
 * counts). The holder is confirmed with it, in one transaction.
 */
async function recordListing(s: Services, body: v.InferOutput<typeof SaleListingRecordInput>) {
  const client = requireChain(s);
  const onChain = await getListing(client, body.walletAddress, body.blockchainListingId);
  if (!onChain || onChain.purchased) throw badRequest(ErrorCode.INVALID_VALUE, 'blockchainListingId');
  const token = await getEditionToken(client, body.flowBlueprintId, body.nftSeriesNumber);
  if (token !== onChain.nftID || onChain.nftType !== indexedEventTypes(client).nftType) {
    throw badRequest(ErrorCode.INVALID_VALUE, 'nftSeriesNumber');
  }
  if (!(await ownsNft(client, body.walletAddress, token))) {
    throw badRequest(ErrorCode.INVALID_VALUE, 'blockchainListingId', 'The listed NFT is not in this wallet.');
  }
  const now = s.clock();
  return s.db.transaction(async (tx) => {
    await confirmHolder(
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
}

/**
 * The resale a buyer's transaction made, read from the chain: the transaction must be sealed and
 * successful and complete a listing of the named edition, delivering it to the wallet. 'pending'
 * while it is not sealed (the indexer records it once it is).
 */
async function verifiedSale(client: FlowClient, body: v.InferOutput<typeof PurchaseRecordInput>) {
  // Asked once with a short timeout: an unknown id fails at once, a pending one is left to the indexer.
  let check: TransactionCheck;
  try {
    check = await checkTransaction(client, body.transactionId, TRANSACTION_STATUS_TIMEOUT_MS);
  } catch {
    throw apiError(503, 'unavailable', undefined, 'The chain did not answer.');
  }
  if (check.state === 'unknown') {
    throw badRequest(ErrorCode.TRANSACTION, 'transactionId', 'The chain does not know this transaction.');
  }
  if (check.state === 'failed') {
    throw badRequest(ErrorCode.TRANSACTION, 'transactionId', 'The transaction failed.');
  }
  if (check.state === 'pending') return 'pending';
  const token = await getEditionToken(client, body.flowBlueprintId, body.nftSeriesNumber);
  if (!token) throw badRequest(ErrorCode.INVALID_VALUE, 'nftSeriesNumber');
  // Only a completed listing of this NFT is a sale; the request's `type` does not matter.
  const sale = saleInTransaction(client, body.transactionId, check.events, token, body.blockchainListingId);
  if (!sale) {
    throw badRequest(
      ErrorCode.TRANSACTION,
      'transactionId',
      'The transaction is not a purchase of this NFT.',
    );
  }
  if (sale.buyer !== body.walletAddress) {
    throw badRequest(
      ErrorCode.TRANSACTION,
      'transactionId',
      'The transaction did not deliver this NFT to the wallet.',
    );
  }
  return { sale, token };
}
