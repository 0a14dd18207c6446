import { and, eq, isNull } from 'drizzle-orm';
import { Transaction } from 'ethers';
import type { Database } from '../../db';
import { tokenCharges, tokenTransactions } from '../../db/schema';
import type { TokenChain } from '../../evm/token';
import type { JobHandler, JobRow } from '../../jobs';
import { addEvent, findOrder, lockOrder } from '../orders';

/**
 * Giving NFM back: the refundToken job, for a charge whose order will not be served.
 */

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
