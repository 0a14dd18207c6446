import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mintFusd, mintNft, transferFusd } from '../../server/chain/actions';
import { eventsOf, FlowTransactionError } from '../../server/chain/client';
import type { AccountKey } from '../../server/chain/config';
import { latestSealedHeight } from '../../server/chain/events';
import { runIndexerOnce } from '../../server/chain/indexer';
import { nftPurchases, nfts, offers, users } from '../../server/db/schema';
import { acceptOffer, cancelOffer, makeOffer, offerEventType } from '../../server/offers/chain';
import { refreshFunding } from '../../server/offers/jobs';
import { offerIndexerEvents } from '../../server/offers/record';
import { register, type TestApi, useTestApp } from '../api/support/harness';
import { chainClient, freshBlueprintId, newCollector } from './support';

/**
 * Offers recorded from the real chain: the record route reads a reported transaction's
 * VitrineOffers events (made, then accepted: the NFT moves to the buyer and the sale is a purchase of
 * type offer), a repeat or the indexer reading the same events afterwards changes nothing, the
 * indexer alone records what no client reported (made and canceled), and a failed accept reported by
 * the owner and the funding sweep mark an offer whose buyer's balance no longer covers it `unfunded`,
 * and the sweep marks it `open` again once it does.
 */
const client = chainClient();

describe('offers recorded from the chain', () => {
  const t: TestApi = useTestApp('pglite', {}, { chainClient: client });
  const db = () => t.database.db;

  async function person(fusd = '0') {
    const account = await newCollector(client);
    if (fusd !== '0') await mintFusd(client, account.address, fusd);
    const me = await register(t);
    await db().update(users).set({ walletAddress: account.address }).where(eq(users.id, me.id));
    return { ...me, account };
  }
  async function nftOf(owner: AccountKey) {
    const blueprintId = freshBlueprintId();
    const { nftId } = await mintNft(client, {
      to: owner.address,
      blueprintId,
      serialNumber: 1,
      metadata: { name: 'Offered' },
    });
    await db()
      .insert(nfts)
      .values({ id: nftId, blueprintId, serialNumber: 1, owner: owner.address, chainOwner: owner.address });
    return nftId;
  }
  const record = (who: { authToken: string }, transactionId: string) =>
    t.request('POST', '/api/offers/actions/record', { token: who.authToken, body: { transactionId } });
  const offerId = (tx: { events: Parameters<typeof eventsOf>[0]['events'] }) =>
    String(eventsOf(tx, offerEventType(client, 'OfferMade'))[0]!.offerId);
  async function index(from: number) {
    const stream = `offers-test-${randomUUID()}`;
    const extraEvents = offerIndexerEvents(client, t.config);
    while (await runIndexerOnce(client, db(), { stream, startHeight: from, extraEvents })) {
      // catch up
    }
  }

  it('records a reported offer and its acceptance once, moving the NFT; the indexer changes nothing after', async () => {
    const from = await latestSealedHeight(client);
    const [owner, buyer] = [await person(), await person('60.0')];
    const nftId = await nftOf(owner.account);
    const made = await makeOffer(client, buyer.account, { nftId, amount: '25.5', expiryDays: 3 });

    const first = await record(buyer, made.id);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      chainOfferId: offerId(made),
      nft: { id: nftId },
      buyer: { id: buyer.id, walletAddress: buyer.account.address },
      owner: { id: owner.id, walletAddress: owner.account.address },
      amount: 2550,
      status: 'open',
      transactionId: made.id,
    });
    const again = await record(buyer, made.id);
    expect([again.status, again.body.id]).toEqual([200, first.body.id]);

    const accepted = await acceptOffer(client, owner.account, buyer.account.address, offerId(made));
    const closed = await record(owner, accepted.id);
    expect([closed.status, closed.body.id, closed.body.status, closed.body.closingTransactionId]).toEqual([
      201,
      first.body.id,
      'accepted',
      accepted.id,
    ]);
    const [nft] = await db().select().from(nfts).where(eq(nfts.id, nftId));
    expect(nft!.owner).toBe(buyer.account.address);
    const purchases = () => db().select().from(nftPurchases).where(eq(nftPurchases.nftId, nftId));
    expect(await purchases()).toMatchObject([
      { type: 'offer', amount: 2550, buyerId: buyer.id, transactionId: accepted.id },
    ]);

    await index(from);
    expect(await purchases()).toHaveLength(1);
    expect(await db().select().from(offers).where(eq(offers.nftId, nftId))).toMatchObject([
      { status: 'accepted', closingTransactionId: accepted.id },
    ]);
    expect((await record(owner, accepted.id)).status).toBe(200);
  });

  it('the indexer records offers nobody reported: made, then canceled', async () => {
    const from = await latestSealedHeight(client);
    const [owner, buyer] = [await person(), await person('20.0')];
    const nftId = await nftOf(owner.account);
    const made = await makeOffer(client, buyer.account, { nftId, amount: '10.0', expiryDays: 1 });
    const canceled = await cancelOffer(client, buyer.account, offerId(made));
    await index(from);
    expect(await db().select().from(offers).where(eq(offers.nftId, nftId))).toMatchObject([
      {
        chainOfferId: offerId(made),
        buyerId: buyer.id,
        ownerId: owner.id,
        amount: 1000,
        status: 'canceled',
        transactionId: made.id,
        closingTransactionId: canceled.id,
      },
    ]);
    const answer = await record(buyer, canceled.id);
    expect([answer.status, answer.body.status]).toEqual([200, 'canceled']);
  });

  it('marks an offer the buyer can no longer pay unfunded, and open again once they can', async () => {
    const [owner, buyer] = [await person(), await person('30.0')];
    const nftId = await nftOf(owner.account);
    const made = await makeOffer(client, buyer.account, { nftId, amount: '25.0', expiryDays: 7 });
    expect((await record(buyer, made.id)).status).toBe(201);
    const status = async () => (await db().select().from(offers).where(eq(offers.nftId, nftId)))[0]!.status;

    // The owner's accept fails once the balance is short; its report marks the offer at once.
    await transferFusd(client, buyer.account, owner.account.address, '10.0');
    const failed = await acceptOffer(client, owner.account, buyer.account.address, offerId(made)).catch(
      (err: FlowTransactionError) => err,
    );
    expect(failed).toBeInstanceOf(FlowTransactionError);
    const answer = await record(owner, (failed as FlowTransactionError).transactionId);
    expect([answer.status, answer.body.code]).toEqual([400, 'TRANSACTION']);
    expect(await status()).toBe('unfunded');

    // The sweep follows the balance both ways.
    await mintFusd(client, buyer.account.address, '5.0');
    await refreshFunding(db(), client, t.clock.now(), 1000);
    expect(await status()).toBe('open');
    await transferFusd(client, buyer.account, owner.account.address, '0.01');
    await refreshFunding(db(), client, t.clock.now(), 1000);
    expect(await status()).toBe('unfunded');
  });
});
