import { and, asc, eq, isNull } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import { splitCents } from '#domain/money';
import { seriesLabel } from '#domain/nft';
import { MintConflictError, MintFailedError, type MintResult, type MintService } from '../chain/mint';
import type { Log } from '../clock';
import type { Config } from '../config';
import type { Database } from '../db';
import {
  blueprints,
  cardCharges,
  coinbaseCharges,
  freeBlueprintClaims,
  nftPurchases,
  nfts,
  orderEvents,
  orderItems,
  orders,
  tokenCharges,
  wertCharges,
} from '../db/schema';
import type { JobHandler, JobRow } from '../jobs';
import { enqueueJob } from '../jobs';
import { type CardProvider, ProviderRefusedError } from '../payments/provider';
import { recordSaleNotices } from '../sales/notices';
import { failureOf, REFUND_TOKEN_JOB } from './failures';
import { chargeOf, nextSerial, setRailStatus } from './fulfilment-queries';
import { refundAcceptedPayment } from './fusd/fusd';
import { addEvent, findOrder, lockOrder, type OrderRow, release } from './orders';
import { voidFailedOrder } from './settle';
import { WERT_REFUND_JOB } from './wert/wert';

/** The job that sends FUSD from the treasury for a crypto charge: a top-up, or a refund. */
export const SEND_FUSD_JOB = 'sendFusd';

/**
 * The `fulfil` job of an order (docs/checkout.md steps 4–5), safe to run again after a crash at
 * any point, because every step is recorded before the next and every outside call is idempotent:
 *
 * 1. authorized → capture at the provider (key capture-{orderId}; free claims have nothing to
 *    capture) → one transaction: serial numbers assigned once (under each blueprint's row lock),
 *    order captured, charge Captured;
 * 2. captured → minting (charge MINTING) → each edition minted by the mint service (purchase key
 *    order-{orderId}-{blueprintId}: one mint per edition, whatever the retries);
 * 3. one transaction records the NFTs (nfts, as the indexer would) and the purchases
 *    (nft_purchases, one per mint transaction), and the order is minted (charge MINTED); when it
 *    fails the charge is NFT_SYNC_FAILED and the job retries;
 * 4. a mint the chain keeps refusing (after `maxMintAttempts` runs) or an edition that belongs to
 *    another purchase: the order is marked MINT_SAVE_FAILED (the decision is stored first), then
 *    refunded (key refund-{orderId}) and its unit released;
 * 5. an order that failed before it was paid (canceled, expired, refused) but whose payment the
 *    provider authorized: voided.
 *
 * A crypto order (method coinbase) is paid when the provider says so: there is nothing to capture,
 * and a payment that must be given back is sent as FUSD to the buyer's wallet (the sendFusd job),
 * since crypto payments cannot be reversed. An order paid with the FUSD balance (method fusd) is
 * paid when its on-chain payment is seen, and is given back the same way (the refundFusd job).
 * An on-ramp order (method wert) is paid when the provider confirms its card payment arrived as
 * FUSD in the treasury; what must go back is sent as FUSD too (the wertRefund job).
 * An order paid in NFM (method token) is paid when its transfer is read from the EVM chain; what
 * must go back is sent back in NFM (the refundToken job).
 * The order's payment record (card charge, crypto charge or FUSD payment) follows the order:
 * MINTING, MINTED, MINT_SAVE_FAILED, NFT_SYNC_FAILED.
 */

export const MINT_FAILED_MESSAGE = 'The edition could not be minted; your payment was refunded.';
export const CRYPTO_MINT_FAILED_MESSAGE =
  'The edition could not be minted; your payment is refunded as FUSD to your wallet.';
export const TOKEN_MINT_FAILED_MESSAGE =
  'The edition could not be minted; your NFM is sent back to the address that paid it.';
export const CLAIM_MINT_FAILED_MESSAGE = 'The edition could not be minted. You can claim it again.';

export type FulfilmentStep = 'captured' | 'minted-edition' | 'minted' | 'recorded';

export interface FulfilmentDeps {
  db: Database;
  /** The card provider; card orders wait (the job retries) without one. */
  provider: CardProvider | null;
  mint: MintService;
  now?: () => Date;
  log?: Log;
  /** Job runs after which a mint the chain refuses is given up and the payment refunded (5). */
  maxMintAttempts?: number;
  /** Called after each step (tests interrupt the job here). */
  onStep?: (step: FulfilmentStep, orderId: string) => void | Promise<void>;
  /** Base of the links in sale emails (PUBLIC_URL) and the secret of their unsubscribe links (JWT_SECRET). */
  site?: Pick<Config, 'publicUrl' | 'jwtSecret'>;
  /** Told, once per order, the seconds from its payment (authorized) to its editions recorded minted. */
  onMinted?: (seconds: number) => void;
}

type ItemRow = typeof orderItems.$inferSelect & { title: string };

export function createFulfilment(
  deps: FulfilmentDeps,
): JobHandler & { fulfil(orderId: string, attempts?: number): Promise<void> } {
  const { db, mint } = deps;
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? console;
  const maxMintAttempts = deps.maxMintAttempts ?? 5;
  const step = async (name: FulfilmentStep, orderId: string) => deps.onStep?.(name, orderId);

  const provider = () => {
    if (!deps.provider) throw new Error('no card provider is configured');
    return deps.provider;
  };
  /** The provider no longer holds the authorization (it expired or was voided): nothing to fulfil. */
  async function authorizationLost(order: OrderRow, status: string) {
    const failure = failureOf(
      ErrorCode.CARD_DECLINED,
      'The card payment could not be completed. You were not charged.',
    );
    await db.transaction(async (tx) => {
      const locked = await lockOrder(tx, order.id);
      if (locked?.status !== 'authorized') return;
      const at = now();
      await tx
        .update(orders)
        .set({ status: 'voided', failureCode: failure.code, failureMessage: failure.message, updatedAt: at })
        .where(eq(orders.id, order.id));
      await release(tx, locked, at);
      await tx.update(cardCharges).set({ status, updatedAt: at }).where(eq(cardCharges.orderId, order.id));
      await addEvent(tx, order.id, 'voided', at, failure.message);
    });
  }

  /** Captures and assigns the serial numbers; false when the payment can no longer be captured. */
  async function capture(order: OrderRow): Promise<boolean> {
    if (order.method === 'creditCard') {
      const charge = await chargeOf(db, order.id);
      if (!charge?.paymentId) throw new Error(`order ${order.id} has no payment to capture`);
      try {
        await provider().capture(charge.paymentId, `capture-${order.id}`);
      } catch (err) {
        if (!(err instanceof ProviderRefusedError)) throw err;
        const payment = await provider().getPayment(charge.paymentId);
        if (['Voided', 'Expired', 'Declined', 'Canceled'].includes(payment.status)) {
          await authorizationLost(order, payment.status);
          return false;
        }
        if (payment.status !== 'Captured') throw err;
      }
      await step('captured', order.id);
    }
    await db.transaction(async (tx) => {
      const locked = await lockOrder(tx, order.id);
      if (locked?.status !== 'authorized') return;
      const at = now();
      const items = await tx
        .select()
        .from(orderItems)
        .where(eq(orderItems.orderId, order.id))
        .orderBy(asc(orderItems.flowBlueprintId));
      for (const item of items) {
        if (item.serialNumber !== null) continue;
        // One order at a time per blueprint picks its next edition.
        await tx
          .select({ id: blueprints.id })
          .from(blueprints)
          .where(eq(blueprints.id, item.blueprintId))
          .for('update');
        const serialNumber = await nextSerial(tx, item.flowBlueprintId);
        await tx
          .update(orderItems)
          .set({ serialNumber })
          .where(and(eq(orderItems.id, item.id), isNull(orderItems.serialNumber)));
      }
      await tx.update(orders).set({ status: 'captured', updatedAt: at }).where(eq(orders.id, order.id));
      if (locked.method === 'creditCard') {
        await tx
          .update(cardCharges)
          .set({ status: 'Captured', updatedAt: at })
          .where(eq(cardCharges.orderId, order.id));
        await addEvent(tx, order.id, 'captured', at, 'Your card was charged.');
      }
    });
    return true;
  }

  async function startMinting(orderId: string): Promise<OrderRow | undefined> {
    return db.transaction(async (tx) => {
      const locked = await lockOrder(tx, orderId);
      if (locked?.status !== 'captured') return locked;
      const at = now();
      await tx.update(orders).set({ status: 'minting', updatedAt: at }).where(eq(orders.id, orderId));
      await setRailStatus(tx, locked, 'MINTING', at);
      await addEvent(tx, orderId, 'minting', at);
      return { ...locked, status: 'minting' as const };
    });
  }

  async function items(orderId: string): Promise<ItemRow[]> {
    const rows = await db
      .select({ item: orderItems, title: blueprints.title })
      .from(orderItems)
      .innerJoin(blueprints, eq(blueprints.id, orderItems.blueprintId))
      .where(eq(orderItems.orderId, orderId))
      .orderBy(asc(orderItems.flowBlueprintId));
    return rows.map((r) => ({ ...r.item, title: r.title }));
  }

  /** The decision to give up is stored before anything is undone, so a re-run refunds. */
  async function markMintFailed(order: OrderRow, reason: string) {
    const message =
      order.method === 'creditCard'
        ? MINT_FAILED_MESSAGE
        : order.method === 'coinbase' || order.method === 'fusd' || order.method === 'wert'
          ? CRYPTO_MINT_FAILED_MESSAGE
          : order.method === 'token'
            ? TOKEN_MINT_FAILED_MESSAGE
            : CLAIM_MINT_FAILED_MESSAGE;
    await db.transaction(async (tx) => {
      const at = now();
      await tx
        .update(orders)
        .set({ failureCode: 'MINT_SAVE_FAILED', failureMessage: message, updatedAt: at })
        .where(and(eq(orders.id, order.id), eq(orders.status, 'minting')));
      await setRailStatus(tx, order, 'MINT_SAVE_FAILED', at);
      await addEvent(tx, order.id, 'mint_failed', at, message);
    });
    log.error(`order ${order.id}: minting failed for good: ${reason}`);
  }

  async function refund(order: OrderRow): Promise<void> {
    if (order.method === 'creditCard') {
      const charge = await chargeOf(db, order.id);
      if (charge?.paymentId) await provider().refund(charge.paymentId, `refund-${order.id}`);
    }
    await db.transaction(async (tx) => {
      const locked = await lockOrder(tx, order.id);
      if (locked?.status !== 'minting') return;
      const at = now();
      const status = locked.method === 'freeBlueprintClaim' ? 'voided' : 'refunded';
      await tx.update(orders).set({ status, updatedAt: at }).where(eq(orders.id, order.id));
      await release(tx, locked, at);
      if (locked.method === 'creditCard') {
        await tx
          .update(cardCharges)
          .set({ status: 'Refunded', updatedAt: at })
          .where(eq(cardCharges.orderId, order.id));
      } else if (locked.method === 'wert') {
        // The card payment arrived as FUSD in the treasury: it goes back as FUSD to the buyer's wallet.
        const [charge] = await tx
          .select({ id: wertCharges.id })
          .from(wertCharges)
          .where(eq(wertCharges.orderId, order.id));
        if (charge) await enqueueJob(tx, WERT_REFUND_JOB, charge.id, at);
      } else if (locked.method === 'coinbase') {
        // The payment goes back as FUSD to the buyer's wallet.
        const [charge] = await tx
          .select({ id: coinbaseCharges.id })
          .from(coinbaseCharges)
          .where(eq(coinbaseCharges.orderId, order.id));
        if (charge) await enqueueJob(tx, SEND_FUSD_JOB, charge.id, at);
      } else if (locked.method === 'fusd') {
        // The balance payment goes back to the buyer's wallet.
        await refundAcceptedPayment(tx, order.id, at);
      } else if (locked.method === 'token') {
        // The NFM goes back to the address that paid it.
        const [charge] = await tx
          .select({ id: tokenCharges.id })
          .from(tokenCharges)
          .where(eq(tokenCharges.orderId, order.id));
        if (charge) await enqueueJob(tx, REFUND_TOKEN_JOB, charge.id, at);
      } else {
        // The claim did not happen: the buyer may claim again.
        await tx.delete(freeBlueprintClaims).where(eq(freeBlueprintClaims.orderId, order.id));
      }
      await addEvent(tx, order.id, status, at, locked.failureMessage);
    });
  }

  /** Records the minted editions; answers when the order was paid, if this run recorded them. */
  async function record(
    order: OrderRow,
    editions: { item: ItemRow; minted: MintResult }[],
  ): Promise<Date | undefined> {
    return db.transaction(async (tx) => {
      const locked = await lockOrder(tx, order.id);
      if (locked?.status !== 'minting') return undefined;
      const at = now();
      const [paid] = await tx
        .select({ at: orderEvents.createdAt })
        .from(orderEvents)
        .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.type, 'authorized')));
      // A pack's price is split over its editions in chain id order (as the sales ledger does).
      const amounts = splitCents(locked.amount, editions.length);
      // The purchase method as the purchase record names it: creditCard, coinbase, freeBlueprintClaim.
      const type = locked.method;
      for (const [i, { item, minted }] of editions.entries()) {
        // The chain indexer writes the same row when it sees the mint; whichever comes first stays.
        await tx
          .insert(nfts)
          .values({
            id: minted.nftId,
            blueprintId: item.flowBlueprintId,
            serialNumber: minted.serialNumber,
            owner: minted.recipient,
            metadata: { title: item.title },
            status: 'parked',
            createdAt: at,
            updatedAt: at,
          })
          .onConflictDoNothing();
        await tx
          .insert(nftPurchases)
          .values({
            transactionId: minted.transactionId,
            buyerId: locked.buyerId,
            walletAddress: locked.walletAddress,
            nftId: minted.nftId,
            type,
            amount: amounts[i]!,
            purchasedOn: at,
            orderId: locked.id,
          })
          .onConflictDoNothing({ target: nftPurchases.transactionId });
      }
      await tx.update(orders).set({ status: 'minted', updatedAt: at }).where(eq(orders.id, order.id));
      await setRailStatus(tx, locked, 'MINTED', at);
      // The creators whose items sold hear of it (a notice, and an email unless turned off).
      await recordSaleNotices(
        tx,
        editions.map(({ item, minted }, i) => ({
          blueprintId: item.blueprintId,
          title: item.title,
          serialNumber: minted.serialNumber,
          nftId: minted.nftId,
          amount: amounts[i]!,
        })),
        at,
        deps.site ?? { publicUrl: '', jwtSecret: '' },
      );
      await addEvent(
        tx,
        order.id,
        'minted',
        at,
        editions.map(({ item, minted }) => `${item.title} ${seriesLabel(minted.serialNumber)}`).join(', '),
      );
      return paid?.at;
    });
  }

  async function mintAll(order: OrderRow, attempts: number): Promise<void> {
    if (order.failureCode === 'MINT_SAVE_FAILED') return refund(order);
    const editions: { item: ItemRow; minted: MintResult }[] = [];
    for (const item of await items(order.id)) {
      if (item.serialNumber === null)
        throw new Error(`order ${order.id}: edition of ${item.blueprintId} has no serial`);
      let minted: MintResult;
      try {
        minted = await mint.mint({
          purchaseKey: `order-${order.id}-${item.blueprintId}`,
          to: order.walletAddress,
          blueprintId: item.flowBlueprintId,
          serialNumber: item.serialNumber,
          metadata: { title: item.title },
        });
      } catch (err) {
        const hopeless =
          err instanceof MintConflictError || (err instanceof MintFailedError && attempts >= maxMintAttempts);
        if (!hopeless) throw err;
        await markMintFailed(order, err.message);
        return refund({ ...order, failureCode: 'MINT_SAVE_FAILED' });
      }
      if (item.nftId !== minted.nftId) {
        await db
          .update(orderItems)
          .set({ nftId: minted.nftId, transactionId: minted.transactionId })
          .where(eq(orderItems.id, item.id));
      }
      editions.push({ item, minted });
      await step('minted-edition', order.id);
    }
    await step('minted', order.id);
    try {
      const paidAt = await record(order, editions);
      if (paidAt) deps.onMinted?.((now().getTime() - paidAt.getTime()) / 1000);
    } catch (err) {
      await setRailStatus(db, order, 'NFT_SYNC_FAILED', now()).catch(() => undefined);
      throw err;
    }
    await step('recorded', order.id);
  }

  /** Runs the order's fulfilment from where it stands; throws to be retried. */
  async function fulfil(orderId: string, attempts = 1): Promise<void> {
    let order = await findOrder(db, orderId);
    if (!order) return;
    switch (order.status) {
      case 'declined':
      case 'canceled':
      case 'expired':
        if (order.method === 'creditCard') await voidFailedOrder(db, provider(), orderId, now);
        return;
      case 'authorized':
        if (!(await capture(order))) return;
        order = await findOrder(db, orderId);
        if (!order) return;
        break;
      case 'captured':
      case 'minting':
        break;
      default:
        // created (nothing to do until it is paid), minted, voided, refunded.
        return;
    }
    if (order.status === 'captured') order = await startMinting(orderId);
    if (order?.status !== 'minting') return;
    await mintAll(order, attempts);
  }

  return {
    fulfil,
    run: (job: JobRow) => fulfil(job.key, job.attempts),
  };
}
