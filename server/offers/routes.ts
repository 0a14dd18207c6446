import { ErrorCode } from '#domain/errors';
import { OfferPage, OfferRecordAnswer } from '#domain/responses/offers';
import { OfferListQuery, OfferRecordInput } from '#domain/schemas/offers';
import { checkTransaction, ownsNft, type TransactionCheck } from '../chain/actions';
import type { FlowClient } from '../chain/client';
import { moveNft, setChainOwner } from '../chain/facts';
import type { Services } from '../deps';
import { apiError, badRequest, defineRoute, type Route } from '../http';
import { TRANSACTION_STATUS_TIMEOUT_MS } from '../nfts/routes';
import { refreshAfterFailedAccept } from './jobs';
import { offerJson, offersJson } from './json';
import { offerOfTransaction, offerPage } from './queries';
import { type Applied, applyOfferEvent, offerEventTypes } from './record';

function requireChain(s: Services): FlowClient {
  if (!s.chainClient) throw apiError(503, 'unavailable', undefined, 'The chain is not available.');
  return s.chainClient;
}

/** Offers on NFTs: listed by anyone; recorded from the chain when a wallet reports its transaction. */
export function offerRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/offers',
      tag: 'offers',
      summary: 'Offers on NFTs by NFT, buyer, owner and status, newest first; paged by from/to (at most 50)',
      query: OfferListQuery,
      response: OfferPage,
      responses: { 200: '{ results, total }', 400: 'Invalid filter or paging' },
      async handler(c, { query }) {
        const { rows, total } = await offerPage(s.db, query);
        return c.json({ results: await offersJson(s.db, rows), total });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/offers/actions/record',
      tag: 'offers',
      auth: 'required',
      summary:
        'Records the offer a wallet’s transaction made, canceled or accepted (read from the chain; once per transaction)',
      body: OfferRecordInput,
      response: OfferRecordAnswer,
      responses: {
        200: 'the offer, recorded before (by an earlier call or the indexer), as it stands',
        201: 'the offer as the transaction left it',
        202: '{ status: "pending", transactionId }: not sealed yet, or about an offer not recorded yet; the indexer records it',
        400: 'Invalid input, or TRANSACTION: the transaction is unknown, failed, or made, canceled or accepted no offer',
        401: 'Not signed in',
        503: 'No chain is configured, or the access node did not answer',
      },
      async handler(c, { body }) {
        const pending = { status: 'pending' as const, transactionId: body.transactionId };
        // A transaction is recorded once: a repeat answers the offer as it stands and changes nothing.
        const known = await offerOfTransaction(s.db, body.transactionId);
        if (known) return c.json(await offerJson(s.db, known), 200);
        const client = requireChain(s);
        const events = await offerEvents(client, body.transactionId, () =>
          refreshAfterFailedAccept(s.db, client, body.transactionId, s.clock()).catch(() => {}),
        );
        if (events === 'pending') return c.json(pending, 202);
        const accepted = events.find((e) => e.type === offerEventTypes(client).accepted);
        // The NFT moves now only if it is in the buyer's collection now; otherwise the indexer moves it.
        const holds = accepted
          ? await ownsNft(client, accepted.data.buyer, String(accepted.data.nftId)).catch(() => false)
          : false;
        const now = s.clock();
        const applied = await s.db.transaction(async (tx) => {
          let last: Applied = { changed: false };
          for (const e of events) last = await applyOfferEvent(tx, client, e, now, now, s.config);
          if (accepted && holds) {
            const nftId = String(accepted.data.nftId);
            await setChainOwner(tx, nftId, accepted.data.buyer, now);
            await moveNft(tx, nftId, accepted.data.buyer, now);
          }
          return last;
        });
        if (!applied.offer) return c.json(pending, 202);
        return c.json(await offerJson(s.db, applied.offer), applied.changed ? 201 : 200);
      },
    }),
  ];
}

/** The VitrineOffers events of a sealed transaction, 'pending' while it is not sealed. */
async function offerEvents(client: FlowClient, transactionId: string, onFailed: () => Promise<void>) {
  // Asked once with a short timeout: an unknown id fails at once, a pending one is left to the indexer.
  let check: TransactionCheck;
  try {
    check = await checkTransaction(client, transactionId, TRANSACTION_STATUS_TIMEOUT_MS);
  } catch {
    throw apiError(503, 'unavailable', undefined, 'The chain did not answer.');
  }
  if (check.state === 'unknown')
    throw badRequest(ErrorCode.TRANSACTION, 'transactionId', 'The chain does not know this transaction.');
  if (check.state === 'failed') {
    await onFailed();
    throw badRequest(ErrorCode.TRANSACTION, 'transactionId', 'The transaction failed.');
  }
  if (check.state === 'pending') return 'pending';
  const types = new Set(Object.values(offerEventTypes(client)));
  const events = check.events
    .filter((e) => types.has(e.type))
    .sort((a, b) => Number(a.eventIndex) - Number(b.eventIndex))
    .map((e) => ({ type: e.type, transactionId, data: e.data }));
  if (events.length === 0)
    throw badRequest(
      ErrorCode.TRANSACTION,
      'transactionId',
      'The transaction made, canceled or accepted no offer.',
    );
  return events;
}
