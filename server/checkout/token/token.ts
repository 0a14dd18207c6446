import { and, asc, desc, eq, gt, inArray, isNull, lt } from 'drizzle-orm';
import { getAddress, Transaction, verifyTypedData } from 'ethers';
import { ErrorCode, errorMessage } from '#domain/errors';
import {
  TOKEN_PAYMENT_MIN_PERCENT,
  type TokenChargeJson,
  type TokenChargeStatus,
  tokenChargeDomain,
  tokenChargeTypes,
} from '#domain/schemas/token';
import type { Database, Executor } from '../../db';
import { orders, tokenCharges, tokenTransactions } from '../../db/schema';
import { type TokenChain, TokenChainUnavailableError } from '../../evm/token';
import { apiError } from '../../http';
import { enqueueJob, type JobHandler, type JobRow } from '../../jobs';
import { failUnpaidToken, REFUND_TOKEN_JOB } from '../failures';
import type { CheckoutItemRecord } from '../items';
import { orderJson } from '../order-json';
import { addEvent, FULFIL_JOB, findOrder, lockOrder, reserve } from '../orders';

/**
 * New editions paid in NFM from a browser wallet (docs/checkout.md "Utility token"). The charge
 * holds the order's unit like every rail; the wallet signs the charge (EIP-712), transfers the NFM
 * to the platform's address and reports the transaction; the server reads the transfer from the
 * chain itself and completes the charge when it carries at least 95 % of the amount, from the
 * charge's address to the platform's. A transaction pays one charge, once (token_transactions).
 */
export type TokenChargeRow = typeof tokenCharges.$inferSelect;

/** The statuses of a charge that still waits for its payment. */
const ACTIVE: TokenChargeStatus[] = ['created', 'signed'];

/** NFM (smallest unit, 18 decimals) for `cents` at `frrPerUsd` FRR per dollar (≤ 6 decimals). */
export function tokenAmountFor(cents: number, frrPerUsd: string): bigint {
  const [whole, fraction = ''] = frrPerUsd.split('.');
  const micros = BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  // cents/100 dollars × micros/10⁶ FRR × 10¹⁸ = cents × micros × 10¹⁰, exactly.
  return BigInt(cents) * micros * 10_000_000_000n;
}

/** "0x7099…79C8": an address as the buyer recognizes it. */
export const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

async function activeForAddress(tx: Executor, buyerId: string, ethAddress: string, now: Date) {
  const [row] = await tx
    .select({ id: tokenCharges.id })
    .from(tokenCharges)
    .innerJoin(orders, eq(orders.id, tokenCharges.orderId))
    .where(
      and(
        eq(tokenCharges.buyerId, buyerId),
        eq(tokenCharges.ethAddress, ethAddress),
        inArray(tokenCharges.status, ACTIVE),
        eq(orders.status, 'created'),
        gt(orders.expiresAt, now),
      ),
    )
    .limit(1);
  return row;
}

export interface CreateTokenChargeInput {
  buyerId: string;
  idempotencyKey: string;
  ethAddress: string;
  toCurrency: 'USD' | 'FRR';
  item: CheckoutItemRecord;
  walletAddress: string;
  now: Date;
}

/**
 * A new charge (or the one of this key): lowFunds, without an order, when the address holds less
 * NFM than the price; else created, its order holding the unit. At most one active charge per
 * buyer and address (ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS, with its id).
 */
export async function createTokenCharge(
  db: Database,
  chain: TokenChain,
  /** FRR per USD, asked only for a new charge. */
  rate: () => Promise<string>,
  input: CreateTokenChargeInput,
  /** The item's checks (on sale, price seen): only a new charge is checked; a retry answers the first. */
  check: () => void,
): Promise<{ charge: TokenChargeRow; repeated: boolean }> {
  const [earlier] = await db
    .select()
    .from(tokenCharges)
    .where(
      and(eq(tokenCharges.buyerId, input.buyerId), eq(tokenCharges.idempotencyKey, input.idempotencyKey)),
    );
  if (earlier) return { charge: earlier, repeated: true };
  check();
  const ethAddress = getAddress(input.ethAddress);
  const tokenAmount = tokenAmountFor(input.item.price, await rate());
  const values = {
    buyerId: input.buyerId,
    idempotencyKey: input.idempotencyKey,
    itemKind: input.item.kind,
    itemId: input.item.id,
    ethAddress,
    toCurrency: input.toCurrency,
    tokenPrice: input.item.price,
    tokenAmount: tokenAmount.toString(),
    createdAt: input.now,
    updatedAt: input.now,
  };
  const active = await activeForAddress(db, input.buyerId, ethAddress, input.now);
  if (active) throw activeCharge(active.id);
  // Its transfer is sent once the charge exists, so it is mined after the latest block: an
  // unreported one is looked for from the next.
  const fromBlock = (await chain.blockNumber()) + 1;
  if ((await chain.balanceOf(ethAddress)) < tokenAmount) {
    const [charge] = await db
      .insert(tokenCharges)
      .values({ ...values, fromBlock, status: 'lowFunds' })
      .onConflictDoNothing()
      .returning();
    if (charge) return { charge, repeated: false };
    return { charge: (await byKey(db, input.buyerId, input.idempotencyKey))!, repeated: true };
  }
  let created: TokenChargeRow | undefined;
  const { order, repeated } = await reserve(db, {
    buyerId: input.buyerId,
    idempotencyKey: input.idempotencyKey,
    method: 'token',
    item: input.item,
    walletAddress: input.walletAddress,
    now: input.now,
    rail: {
      // The check that matters runs in the reservation's transaction (the buyer's row is locked).
      pending: async () => undefined,
      async attach(tx, order) {
        const again = await activeForAddress(tx, input.buyerId, ethAddress, input.now);
        if (again) throw activeCharge(again.id);
        [created] = await tx
          .insert(tokenCharges)
          .values({ ...values, fromBlock, orderId: order.id, status: 'created' })
          .returning();
      },
    },
  });
  const charge = created ?? (await byOrder(db, order.id));
  // The key of another purchase (by card, crypto…): not this one's.
  if (!charge)
    throw apiError(400, ErrorCode.INVALID_VALUE, 'idempotencyKey', 'This key belongs to another purchase.');
  return { charge, repeated };
}

const activeCharge = (chargeId: string) => {
  const err = apiError(409, ErrorCode.ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS);
  Object.assign(err.body, { chargeId });
  return err;
};
const byKey = async (db: Executor, buyerId: string, key: string) =>
  (
    await db
      .select()
      .from(tokenCharges)
      .where(and(eq(tokenCharges.buyerId, buyerId), eq(tokenCharges.idempotencyKey, key)))
  )[0];
const byOrder = async (db: Executor, orderId: string) =>
  (await db.select().from(tokenCharges).where(eq(tokenCharges.orderId, orderId)))[0];

async function lockCharge(tx: Executor, id: string) {
  const [row] = await tx.select().from(tokenCharges).where(eq(tokenCharges.id, id)).for('update');
  return row;
}

/** The buyer's charge; undefined for an unknown or someone else's id. */
export async function ownTokenCharge(db: Executor, buyerId: string, id: string) {
  const [row] = await db
    .select()
    .from(tokenCharges)
    .where(and(eq(tokenCharges.id, id), eq(tokenCharges.buyerId, buyerId)));
  return row;
}

/** The wallet's signature of the charge (EIP-712): it must come from the charge's address. */
export async function signTokenCharge(
  db: Database,
  chain: TokenChain,
  charge: TokenChargeRow,
  signature: string,
  now: Date,
): Promise<void> {
  let signer: string;
  try {
    signer = verifyTypedData(
      tokenChargeDomain(chain.chainId, chain.tokenAddress),
      tokenChargeTypes as never,
      { charge: charge.id, amount: charge.tokenAmount, to: chain.paymentsAddress },
      signature,
    );
  } catch {
    throw apiError(400, ErrorCode.INVALID_VALUE, 'signature');
  }
  if (getAddress(signer) !== charge.ethAddress) throw wrongAddress(charge);
  await db.transaction(async (tx) => {
    if (charge.orderId) await lockOrder(tx, charge.orderId);
    const row = await lockCharge(tx, charge.id);
    if (!row) return;
    if (row.status === 'completed' || row.status === 'MINTING' || row.status === 'MINTED')
      throw apiError(400, ErrorCode.ERROR_TOKEN_CHARGE_COMPLETE);
    if (row.status !== 'created' && row.status !== 'signed')
      throw apiError(400, ErrorCode.TRANSACTION, 'status', `This charge is ${row.status}.`);
    await tx
      .update(tokenCharges)
      .set({ status: 'signed', signature, updatedAt: now })
      .where(eq(tokenCharges.id, row.id));
  });
}

const wrongAddress = (charge: TokenChargeRow) => {
  const params = { address: shortAddress(charge.ethAddress) };
  const code = ErrorCode.ERROR_TOKEN_CHARGE_ETH_ADDRESS;
  const err = apiError(400, code, undefined, errorMessage({ code, params }));
  err.body.params = params;
  return err;
};

/**
 * A reported transfer, read from the chain: the NFM it moved from the charge's address to the
 * platform's. At least 95 % of the amount completes the charge and authorizes its order (minting
 * follows); less is LOW_FUNDS. Reporting the same transaction again answers as before.
 */
export async function reportTokenTransfer(
  db: Database,
  chain: TokenChain,
  charge: TokenChargeRow,
  hash: string,
  now: Date,
): Promise<void> {
  const [seen] = await db.select().from(tokenTransactions).where(eq(tokenTransactions.hash, hash));
  if (seen) {
    if (seen.chargeId !== charge.id)
      throw apiError(400, ErrorCode.TRANSACTION, 'transactionHash', 'This transaction paid another charge.');
    if (!seen.accepted) throw apiError(400, ErrorCode.LOW_FUNDS, 'transactionHash');
    return;
  }
  if (charge.status === 'completed' || charge.status === 'MINTING' || charge.status === 'MINTED')
    throw apiError(400, ErrorCode.ERROR_TOKEN_CHARGE_COMPLETE);
  if (!charge.orderId || !ACTIVE.includes(charge.status as TokenChargeStatus))
    throw apiError(400, ErrorCode.TRANSACTION, 'status', `This charge is ${charge.status}.`);
  // The wallet signs the charge before it pays it: a transfer is taken only for a signed charge.
  if (charge.status !== 'signed') throw notSigned();
  const read = await chain.readTransaction(hash);
  if (read.status === 'unknown') throw apiError(409, ErrorCode.TRANSACTION_PENDING, 'transactionHash');
  if (read.status === 'failed')
    throw apiError(400, ErrorCode.TRANSACTION, 'transactionHash', 'This transaction failed on chain.');
  const toUs = read.transfers.filter((t) => t.to === chain.paymentsAddress);
  if (toUs.length === 0)
    throw apiError(400, ErrorCode.TRANSACTION, 'transactionHash', 'This transaction sent no NFM to Vitrine.');
  const fromCharge = toUs.filter((t) => t.from === charge.ethAddress);
  if (fromCharge.length === 0) throw wrongAddress(charge);
  const value = fromCharge.reduce((sum, t) => sum + t.value, 0n);
  const accepted = value * 100n >= BigInt(charge.tokenAmount) * BigInt(TOKEN_PAYMENT_MIN_PERCENT);
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, charge.orderId!);
    const row = await lockCharge(tx, charge.id);
    if (!row || !order) return;
    const [inserted] = await tx
      .insert(tokenTransactions)
      .values({ hash, chargeId: row.id, value: value.toString(), accepted, createdAt: now })
      .onConflictDoNothing()
      .returning();
    // Reported twice at once: the first report decides.
    if (!inserted || !accepted) return;
    if (!ACTIVE.includes(row.status as TokenChargeStatus)) return;
    await tx
      .update(tokenCharges)
      .set({ status: 'completed', updatedAt: now })
      .where(eq(tokenCharges.id, row.id));
    if (order.status === 'created') {
      await tx.update(orders).set({ status: 'authorized', updatedAt: now }).where(eq(orders.id, order.id));
      await addEvent(tx, order.id, 'authorized', now, `Paid in NFM (transaction ${hash.slice(0, 10)}…).`);
      await enqueueJob(tx, FULFIL_JOB, order.id, now);
    } else {
      // Paid after the order ended (expired or canceled): the NFM goes back (refundToken job).
      await addEvent(
        tx,
        order.id,
        'paid_late',
        now,
        'Your NFM arrived after the order ended: it is sent back.',
      );
      await enqueueJob(tx, REFUND_TOKEN_JOB, row.id, now);
    }
  });
  if (!accepted) throw apiError(400, ErrorCode.LOW_FUNDS, 'transactionHash');
}

const notSigned = () =>
  apiError(
    400,
    ErrorCode.TRANSACTION,
    'signature',
    'Sign the payment in your wallet before its NFM transfer is taken.',
  );

/**
 * A transfer of NFM from the charge's address to the platform's, mined since the charge was
 * created and reported for no charge: the transfer of a tab that sent it and was closed or
 * reloaded before reporting it. Null when there is none (or the charge predates `fromBlock`).
 */
export async function unreportedTransfer(
  db: Executor,
  chain: TokenChain,
  charge: TokenChargeRow,
): Promise<string | null> {
  if (charge.fromBlock === null || !charge.orderId || !ACTIVE.includes(charge.status as TokenChargeStatus))
    return null;
  const found = await chain.transfersToPayments(charge.ethAddress, charge.fromBlock);
  if (found.length === 0) return null;
  const known = await db
    .select({ hash: tokenTransactions.hash })
    .from(tokenTransactions)
    .where(
      inArray(
        tokenTransactions.hash,
        found.map((t) => t.hash),
      ),
    );
  const reported = new Set(known.map((t) => t.hash));
  return found.find((t) => !reported.has(t.hash))?.hash ?? null;
}

/**
 * A signed charge with no reported transfer takes the one found on chain, as if its tab had
 * reported it (completed, or low_funds kept on the charge): a reload or a lost answer never leaves
 * NFM sent but unaccounted, and the buyer is never asked to send it again. Answers whether one was
 * found.
 */
export async function reconcileTokenCharge(
  db: Database,
  chain: TokenChain,
  charge: TokenChargeRow,
  now: Date,
): Promise<boolean> {
  if (charge.status !== 'signed') return false;
  const [reported] = await db
    .select({ hash: tokenTransactions.hash })
    .from(tokenTransactions)
    .where(eq(tokenTransactions.chargeId, charge.id))
    .limit(1);
  if (reported) return false;
  const hash = await unreportedTransfer(db, chain, charge);
  if (!hash) return false;
  try {
    await reportTokenTransfer(db, chain, charge, hash, now);
  } catch (err) {
    // Refused (too low, another charge's): what the report decided is kept on the charge.
    if (err instanceof TokenChainUnavailableError) throw err;
  }
  return true;
}

/**
 * Before unpaid orders expire: each signed charge whose order ends within `withinMs` and that has
 * no reported transfer takes one found on chain, so NFM sent from a tab that was closed before
 * reporting it pays the order instead of arriving for an expired one. Answers how many found one;
 * stops at an unreachable node (the next sweep tries again).
 */
export async function reconcileDueTokenCharges(
  db: Database,
  chain: TokenChain,
  now: Date,
  withinMs = 60_000,
  limit = 100,
): Promise<number> {
  const due = await db
    .select({ charge: tokenCharges })
    .from(tokenCharges)
    .innerJoin(orders, eq(orders.id, tokenCharges.orderId))
    .leftJoin(tokenTransactions, eq(tokenTransactions.chargeId, tokenCharges.id))
    .where(
      and(
        eq(tokenCharges.status, 'signed'),
        eq(orders.status, 'created'),
        lt(orders.expiresAt, new Date(now.getTime() + withinMs)),
        isNull(tokenTransactions.hash),
      ),
    )
    .orderBy(asc(orders.expiresAt))
    .limit(limit);
  let found = 0;
  for (const { charge } of due) if (await reconcileTokenCharge(db, chain, charge, now)) found++;
  return found;
}

/**
 * Cancels a charge no transfer was made for: its order ends and gives its unit back. A transfer
 * reported, or found on chain (which a signed charge then takes), makes it CHARGE_NOT_CANCELLABLE.
 */
export async function cancelTokenCharge(
  db: Database,
  chain: TokenChain,
  charge: TokenChargeRow,
  now: Date,
): Promise<void> {
  if (await unreportedTransfer(db, chain, charge)) {
    await reconcileTokenCharge(db, chain, charge, now);
    throw apiError(400, ErrorCode.CHARGE_NOT_CANCELLABLE);
  }
  await db.transaction(async (tx) => {
    const order = charge.orderId ? await lockOrder(tx, charge.orderId) : undefined;
    const row = await lockCharge(tx, charge.id);
    if (!row || row.status === 'canceled') return;
    const [transfer] = await tx
      .select({ hash: tokenTransactions.hash })
      .from(tokenTransactions)
      .where(eq(tokenTransactions.chargeId, row.id))
      .limit(1);
    if (transfer || !['created', 'signed', 'lowFunds'].includes(row.status))
      throw apiError(400, ErrorCode.CHARGE_NOT_CANCELLABLE);
    await tx
      .update(tokenCharges)
      .set({ status: 'canceled', updatedAt: now })
      .where(eq(tokenCharges.id, row.id));
    if (order?.status === 'created') await failUnpaidToken(tx, order, 'canceled', now);
  });
}

export async function listTokenCharges(
  db: Executor,
  buyerId: string,
  filter: { statuses?: string[]; blueprintId?: string; blueprintPackId?: string },
) {
  return db
    .select()
    .from(tokenCharges)
    .where(
      and(
        eq(tokenCharges.buyerId, buyerId),
        filter.statuses?.length ? inArray(tokenCharges.status, filter.statuses) : undefined,
        filter.blueprintId
          ? and(eq(tokenCharges.itemKind, 'blueprint'), eq(tokenCharges.itemId, filter.blueprintId))
          : undefined,
        filter.blueprintPackId
          ? and(eq(tokenCharges.itemKind, 'pack'), eq(tokenCharges.itemId, filter.blueprintPackId))
          : undefined,
      ),
    )
    .orderBy(desc(tokenCharges.createdAt))
    .limit(50);
}

export async function tokenChargeJson(
  db: Executor,
  chain: TokenChain,
  row: TokenChargeRow,
): Promise<TokenChargeJson> {
  const order = row.orderId ? await findOrder(db, row.orderId) : undefined;
  const transactions = await db
    .select({ hash: tokenTransactions.hash, value: tokenTransactions.value })
    .from(tokenTransactions)
    .where(eq(tokenTransactions.chargeId, row.id))
    .orderBy(tokenTransactions.createdAt);
  return {
    id: row.id,
    type: 'directPurchase',
    ethAddress: row.ethAddress,
    toCurrency: row.toCurrency as 'USD' | 'FRR',
    status: row.status as TokenChargeStatus,
    signature: row.signature,
    tokenPrice: row.tokenPrice,
    tokenAmount: row.tokenAmount,
    chainId: chain.chainId,
    tokenAddress: chain.tokenAddress,
    paymentsAddress: chain.paymentsAddress,
    transactions,
    blueprintId: row.itemKind === 'blueprint' ? row.itemId : null,
    blueprintPackId: row.itemKind === 'pack' ? row.itemId : null,
    createdAt: row.createdAt.toISOString(),
    order: order ? await orderJson(db, order) : null,
  };
}

/**
 * The `refundToken` job of a charge (keyed by its id): every NFM received for it goes back to the
 * charge's address in one transfer, once: the transfer is signed and stored before it is sent, and
 * a retry sends the stored one again. Only for a charge whose order will not be served.
 */
export function createRefundTokenHandler(deps: {
  db: Database;
  chain: TokenChain;
  log?: Pick<Console, 'error' | 'info'>;
  now?: () => Date;
}): JobHandler {
  const { db, chain } = deps;
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? console;
  return {
    async run(job: JobRow) {
      const [charge] = await db.select().from(tokenCharges).where(eq(tokenCharges.id, job.key));
      if (!charge?.orderId || charge.refundHash) return;
      const order = await findOrder(db, charge.orderId);
      if (!order || !['expired', 'canceled', 'refunded'].includes(order.status)) return;
      let raw = charge.refundTransaction;
      if (!raw) {
        const received = await db
          .select({ value: tokenTransactions.value })
          .from(tokenTransactions)
          .where(eq(tokenTransactions.chargeId, charge.id));
        const value = received.reduce((sum, t) => sum + BigInt(t.value), 0n);
        if (value === 0n) return;
        const signed = await chain.signRefund(charge.ethAddress, value);
        if (!signed) {
          log.error(`token charge ${charge.id}: NFM to give back, but no key for the payments address`);
          return;
        }
        // Stored first: a crash after this sends the same transaction, never a second one.
        const [kept] = await db
          .update(tokenCharges)
          .set({ refundTransaction: signed.raw, updatedAt: now() })
          .where(and(eq(tokenCharges.id, charge.id), isNull(tokenCharges.refundTransaction)))
          .returning({ raw: tokenCharges.refundTransaction });
        raw =
          kept?.raw ??
          (await db.select().from(tokenCharges).where(eq(tokenCharges.id, charge.id)))[0]!.refundTransaction!;
      }
      const outcome = await chain.sendSigned(raw);
      if (outcome === 'failed') throw new Error(`token charge ${charge.id}: the refund transaction failed`);
      const hash = Transaction.from(raw).hash!;
      await db.transaction(async (tx) => {
        const at = now();
        await tx
          .update(tokenCharges)
          .set({ refundHash: hash, updatedAt: at })
          .where(eq(tokenCharges.id, charge.id));
        const locked = await lockOrder(tx, charge.orderId!);
        if (!locked) return;
        await addEvent(
          tx,
          locked.id,
          'token_refunded',
          at,
          `The NFM you paid was sent back (transaction ${hash.slice(0, 10)}…).`,
        );
      });
      log.info(`token charge ${charge.id}: NFM sent back in ${hash}`);
    },
  };
}
