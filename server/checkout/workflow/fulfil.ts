import { and, asc, eq, isNull } from 'drizzle-orm';
import { splitCents } from '#domain/money';
import { seriesLabel } from '#domain/nft';
import { recordMintActivity, recordPurchaseActivity } from '../../activity/record';
import { MintConflictError, MintFailedError, type MintResult, type MintService } from '../../chain/mint';
import type { Log } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db';
import { blueprints, nftPurchases, nfts, orderEvents, orderItems, orders } from '../../db/schema';
import type { JobHandler, JobRow } from '../../jobs';
import type { CardProvider } from '../../payments/provider';
import { recordSaleNotices } from '../../sales/notices';
import { addEvent, findOrder, lockOrder, type OrderRow, release } from '../orders';
import type { PaymentRail, RailDeps } from '../payment-rail';
import { railOf } from '../rails';
import { nextSerial } from './fulfil-queries';

/**
 * The `fulfil` job of an order (docs/checkout.md "The purchase workflow", steps 4–5): capture →
 * mint → record, with refund and release as the compensation of a mint that fails for good. Safe to
 * run again after a crash at any point, because every step is recorded before the next and every
 * outside call is idempotent. Each step asks the order's payment rail (../payment-rail.ts), never
 * its method:
 *
 * 1. capture: authorized → the rail's capture at the provider (the card's, key capture-{orderId};
 *    the other rails are paid when they are authorized) → one transaction: serial numbers assigned
 *    once (under each blueprint's row lock), order captured (the rail's `captured`: charge Captured);
 *    compensation: a payment the provider no longer holds voids the order (the card rail);
 * 2. mint: captured → minting (payment record MINTING) → each edition minted by the mint service
 *    (purchase key order-{orderId}-{blueprintId}: one mint per edition, whatever the retries);
 * 3. record: one transaction records the NFTs (nfts, as the indexer would) and the purchases
 *    (nft_purchases, one per mint transaction), and the order is minted (payment record MINTED);
 *    when it fails the record is NFT_SYNC_FAILED and the job retries;
 * 4. refund (compensation of 2): a mint the chain keeps refusing (after `maxMintAttempts` runs) or
 *    an edition that belongs to another purchase: the order is marked MINT_SAVE_FAILED with the
 *    rail's `mintFailedMessage` (the decision is stored first), then the rail gives the payment back
 *    (`refundAtProvider`, then `compensate` in the order's transaction: a refund, or the job that
 *    sends FUSD or NFM back) and the unit is released (order refunded; a free claim voided);
 * 5. void: an order that failed before it was paid (declined, canceled, expired) whose payment the
 *    provider may hold: the rail's `voidFailed`.
 */

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

/** What every step is given. */
interface Run extends RailDeps {
  deps: FulfilmentDeps;
  log: Log;
  step(name: FulfilmentStep, orderId: string): Promise<void>;
}

type ItemRow = typeof orderItems.$inferSelect & { title: string };
type Edition = { item: ItemRow; minted: MintResult };

const rail = (order: Pick<OrderRow, 'method'>): PaymentRail => railOf(order.method);

/* ---- 1. capture ---- */

/** Captures and assigns the serial numbers; false when the payment can no longer be captured. */
async function capture(run: Run, order: OrderRow): Promise<boolean> {
  const paid = rail(order);
  if (paid.capture) {
    if (!(await paid.capture(run, order))) return false;
    await run.step('captured', order.id);
  }
  await run.db.transaction(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    if (locked?.status !== 'authorized') return;
    const at = run.now();
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
    await paid.captured?.(tx, order.id, at);
  });
  return true;
}

/* ---- 2. mint ---- */

async function startMinting(run: Run, orderId: string): Promise<OrderRow | undefined> {
  return run.db.transaction(async (tx) => {
    const locked = await lockOrder(tx, orderId);
    if (locked?.status !== 'captured') return locked;
    const at = run.now();
    await tx.update(orders).set({ status: 'minting', updatedAt: at }).where(eq(orders.id, orderId));
    await rail(locked).setStatus(tx, orderId, 'MINTING', at);
    await addEvent(tx, orderId, 'minting', at);
    return { ...locked, status: 'minting' as const };
  });
}

async function items(run: Run, orderId: string): Promise<ItemRow[]> {
  const rows = await run.db
    .select({ item: orderItems, title: blueprints.title })
    .from(orderItems)
    .innerJoin(blueprints, eq(blueprints.id, orderItems.blueprintId))
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.flowBlueprintId));
  return rows.map((r) => ({ ...r.item, title: r.title }));
}

/** Mints one edition; undefined when the mint failed for good (the order is then refunded). */
async function mintEdition(run: Run, order: OrderRow, item: ItemRow, attempts: number) {
  if (item.serialNumber === null)
    throw new Error(`order ${order.id}: edition of ${item.blueprintId} has no serial`);
  try {
    return await run.deps.mint.mint({
      purchaseKey: `order-${order.id}-${item.blueprintId}`,
      to: order.walletAddress,
      blueprintId: item.flowBlueprintId,
      serialNumber: item.serialNumber,
      metadata: { title: item.title },
    });
  } catch (err) {
    const hopeless =
      err instanceof MintConflictError ||
      (err instanceof MintFailedError && attempts >= (run.deps.maxMintAttempts ?? 5));
    if (!hopeless) throw err;
    await markMintFailed(run, order, err.message);
    return undefined;
  }
}

/* ---- 4. refund: the compensation of a mint that failed for good ---- */

/** The decision to give up is stored before anything is undone, so a re-run refunds. */
async function markMintFailed(run: Run, order: OrderRow, reason: string) {
  const paid = rail(order);
  const message = paid.mintFailedMessage;
  await run.db.transaction(async (tx) => {
    const at = run.now();
    await tx
      .update(orders)
      .set({ failureCode: 'MINT_SAVE_FAILED', failureMessage: message, updatedAt: at })
      .where(and(eq(orders.id, order.id), eq(orders.status, 'minting')));
    await paid.setStatus(tx, order.id, 'MINT_SAVE_FAILED', at);
    await addEvent(tx, order.id, 'mint_failed', at, message);
  });
  run.log.error(`order ${order.id}: minting failed for good: ${reason}`);
}

/** Gives the payment back (the rail's refund) and releases the unit: refunded, or voided when free. */
async function refund(run: Run, order: OrderRow): Promise<void> {
  const paid = rail(order);
  await paid.refundAtProvider?.(run, order);
  await run.db.transaction(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    if (locked?.status !== 'minting') return;
    const at = run.now();
    const status = paid.free ? 'voided' : 'refunded';
    await tx.update(orders).set({ status, updatedAt: at }).where(eq(orders.id, order.id));
    await release(tx, locked, at);
    await paid.compensate(tx, locked, at);
    await addEvent(tx, order.id, status, at, locked.failureMessage);
  });
}

/* ---- 3. record ---- */

/** Records the minted editions; answers when the order was paid, if this run recorded them. */
async function record(run: Run, order: OrderRow, editions: Edition[]): Promise<Date | undefined> {
  return run.db.transaction(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    if (locked?.status !== 'minting') return undefined;
    const at = run.now();
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
      const [purchase] = await tx
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
        .onConflictDoNothing({ target: nftPurchases.transactionId })
        .returning();
      // A new edition shows as its mint to the buyer and its sale by the item's maker.
      const mint = { nftId: minted.nftId, to: minted.recipient, transactionId: minted.transactionId, at };
      await recordMintActivity(tx, mint);
      if (purchase) await recordPurchaseActivity(tx, purchase);
    }
    await tx.update(orders).set({ status: 'minted', updatedAt: at }).where(eq(orders.id, order.id));
    await rail(locked).setStatus(tx, order.id, 'MINTED', at);
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
      run.deps.site ?? { publicUrl: '', jwtSecret: '' },
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

/* ---- the job ---- */

/** Mints every edition of a minting order and records them; a mint failed for good refunds. */
async function mintAll(run: Run, order: OrderRow, attempts: number): Promise<void> {
  if (order.failureCode === 'MINT_SAVE_FAILED') return refund(run, order);
  const editions: Edition[] = [];
  for (const item of await items(run, order.id)) {
    const minted = await mintEdition(run, order, item, attempts);
    if (!minted) return refund(run, { ...order, failureCode: 'MINT_SAVE_FAILED' });
    if (item.nftId !== minted.nftId) {
      await run.db
        .update(orderItems)
        .set({ nftId: minted.nftId, transactionId: minted.transactionId })
        .where(eq(orderItems.id, item.id));
    }
    editions.push({ item, minted });
    await run.step('minted-edition', order.id);
  }
  await run.step('minted', order.id);
  try {
    const paidAt = await record(run, order, editions);
    if (paidAt) run.deps.onMinted?.((run.now().getTime() - paidAt.getTime()) / 1000);
  } catch (err) {
    await rail(order)
      .setStatus(run.db, order.id, 'NFT_SYNC_FAILED', run.now())
      .catch(() => undefined);
    throw err;
  }
  await run.step('recorded', order.id);
}

/** Runs the order's fulfilment from where it stands; throws to be retried. */
async function fulfil(run: Run, orderId: string, attempts = 1): Promise<void> {
  let order = await findOrder(run.db, orderId);
  if (!order) return;
  switch (order.status) {
    case 'declined':
    case 'canceled':
    case 'expired':
      await rail(order).voidFailed?.(run, orderId);
      return;
    case 'authorized':
      if (!(await capture(run, order))) return;
      order = await findOrder(run.db, orderId);
      if (!order) return;
      break;
    case 'captured':
    case 'minting':
      break;
    default:
      // created (nothing to do until it is paid), minted, voided, refunded.
      return;
  }
  if (order.status === 'captured') order = await startMinting(run, orderId);
  if (order?.status !== 'minting') return;
  await mintAll(run, order, attempts);
}

export function createFulfilment(
  deps: FulfilmentDeps,
): JobHandler & { fulfil(orderId: string, attempts?: number): Promise<void> } {
  const run: Run = {
    deps,
    db: deps.db,
    now: deps.now ?? (() => new Date()),
    log: deps.log ?? console,
    step: async (name, orderId) => deps.onStep?.(name, orderId),
    cardProvider() {
      if (!deps.provider) throw new Error('no card provider is configured');
      return deps.provider;
    },
  };
  return {
    fulfil: (orderId, attempts) => fulfil(run, orderId, attempts),
    run: (job: JobRow) => fulfil(run, job.key, job.attempts),
  };
}
