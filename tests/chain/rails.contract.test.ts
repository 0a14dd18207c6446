import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { mintFusd } from '../../server/chain/actions';
import type { AccountKey } from '../../server/chain/config';
import { REFUND_FUSD_JOB } from '../../server/checkout/fusd/rail';
import { fusdPayments, users } from '../../server/db/schema';
import { register, type TestApi, useTestApp } from '../api/support/harness';
import { type Buyer, contractReads, type RailDriver, railContract } from '../api/support/rail-contract';
import { chainClient, newCollector } from './support';

/**
 * The payment rails' contract (tests/api/support/rail-contract.ts) for the FUSD balance rail, on
 * the real emulator: the buyer's wallet pays the order on chain (transactions/pay_order.cdc) and
 * reports the transaction (PATCH fusd-orders); the server reads it from the chain. The other rails
 * keep the contract in tests/api/rails.contract.test.ts.
 */

const client = chainClient();

describe('the FUSD balance rail’s contract on the emulator', () => {
  const t: TestApi = useTestApp('pglite', {}, { chainClient: client });
  const r = contractReads(t);

  type Payer = Buyer & { account: AccountKey };
  const driver: RailDriver<Payer> = {
    method: 'fusd',
    async buyer() {
      // A wallet with FUSD that covers the price (a balance order holds a unit only then).
      const account = await newCollector(client);
      await mintFusd(client, account.address, '100.0');
      const me = await register(t);
      await t.database.db.update(users).set({ walletAddress: account.address }).where(eq(users.id, me.id));
      return { ...me, walletAddress: account.address, account };
    },
    async start(who, bp, key) {
      const res = await t.request('POST', '/api/fusd-orders', {
        token: who.authToken,
        body: { blueprintId: bp.id, expectedPrice: bp.price, idempotencyKey: key },
      });
      return { ...res, orderId: res.body.id };
    },
    fail: {
      none: 'the wallet pays on chain or not at all: no provider declines it, and an unpaid order only expires',
    },
    paidBy: 'the report of its transaction (PATCH transactionId; the rail has no webhook)',
    async paidEvent(who, started) {
      const paid = await client.transact('transactions/pay_order.cdc', {
        signer: who.account,
        args: (arg, tt) => [arg(started.orderId, tt.String), arg(started.body.fusdAmount, tt.UFix64)],
      });
      return async () =>
        (
          await t.request('PATCH', `/api/fusd-orders/${started.orderId}`, {
            token: who.authToken,
            body: { transactionId: paid.id },
          })
        ).status;
    },
    async refunded(started) {
      // The accepted payment goes back to the wallet, by the job keyed by the payment.
      const [payment] = await t.database.db
        .select()
        .from(fusdPayments)
        .where(eq(fusdPayments.orderId, started.orderId));
      expect(payment).toMatchObject({ accepted: true, status: 'REFUND_PENDING' });
      expect(await r.jobsOf(REFUND_FUSD_JOB, payment!.id)).toBe(1);
    },
  };

  railContract(t, driver, () => null);
});
