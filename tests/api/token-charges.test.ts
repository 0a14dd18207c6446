import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { Contract, getAddress, JsonRpcProvider, parseUnits } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenChargeDomain, tokenChargeTypes } from '#domain/schemas/token';
import { reconcileDueTokenCharges } from '../../server/checkout/token/reconcile';
import { createRefundTokenHandler } from '../../server/checkout/token/refund';
import { blueprints, jobs, orders, tokenCharges, tokenTransactions, users } from '../../server/db/schema';
import { ANVIL_CHAIN_ID, ANVIL_PAYMENTS_KEY, type Anvil, startAnvil } from '../../server/evm/anvil';
import { ensureNfm } from '../../server/evm/nfm';
import { normalizeRate } from '../../server/evm/price';
import { createTokenChain, type TokenChain } from '../../server/evm/token';
import { insertBlueprint } from '../../server/seed/factory';
import { start } from '../../server/start';
import {
  databases,
  flowAddress,
  type Json,
  openTestDatabase,
  register,
  silentLog,
  type TestApi,
  testConfig,
  useTestApp,
} from './support/harness';
import { creator } from './support/sales';

/**
 * token-charges on PostgreSQL against a real EVM node (anvil) with NFM deployed: the server
 * reads every transfer from the chain. Collector wallets are anvil's funded dev accounts; the
 * platform receives at its second account.
 */
const NFM = (n: string) => parseUnits(n, 18);
let anvil: Anvil;
let provider: JsonRpcProvider;
let chain: TokenChain;
let dir: string;
let accounts: string[];
let token: Contract;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vitrine-evm-'));
  anvil = await startAnvil({ port: 0 });
  provider = new JsonRpcProvider(anvil.url, ANVIL_CHAIN_ID, { staticNetwork: true });
  const deployment = await ensureNfm(provider, dir);
  chain = createTokenChain({
    rpcUrl: anvil.url,
    chainId: ANVIL_CHAIN_ID,
    ...deployment,
    paymentsKey: ANVIL_PAYMENTS_KEY,
  });
  accounts = ((await provider.send('eth_accounts', [])) as string[]).map((a) => getAddress(a));
  token = new Contract(
    deployment.tokenAddress,
    [
      'function transfer(address,uint256) returns (bool)',
      'function balanceOf(address) view returns (uint256)',
    ],
    provider,
  );
}, 120_000);
afterAll(async () => {
  chain?.close();
  provider?.destroy();
  await anvil?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(databases)('with the NFM_PAYMENTS flag off on %s', (database) => {
  const t = useTestApp(database);
  it('the rail exists nowhere: no routes, nothing in config/payments', async () => {
    const me = await register(t);
    const id = '5e4d3c2b-1a0f-4e9d-8c7b-6a5f4e3d2c1b';
    for (const [method, path, body] of [
      ['GET', '/api/token-price-conversions?from=USD&to=FRR&amount=100'],
      ['GET', `/api/token-charges?userId=${me.id}`],
      ['POST', '/api/token-charges', {}],
      ['GET', `/api/token-charges/${id}`],
      ['PATCH', `/api/token-charges/${id}`, { status: 'canceled' }],
    ] as const) {
      for (const token of [undefined, me.authToken]) {
        const res = await t.request(method, path, { token, body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
    }
    expect((await t.request('GET', '/api/config/payments')).body).not.toHaveProperty('token');
  });
});

describe('with the EVM node unreachable', () => {
  const t = useTestApp(
    'pglite',
    { token: { mode: 'embedded', nodePort: 0, chainId: ANVIL_CHAIN_ID, frrPerUsd: '10' } },
    {
      tokenChain: () =>
        createTokenChain({
          rpcUrl: 'http://127.0.0.1:9',
          chainId: ANVIL_CHAIN_ID,
          tokenAddress: accounts[0]!,
          paymentsAddress: accounts[1]!,
        }),
    },
  );
  it('answers 502 TOKEN_NETWORK and keeps nothing', async () => {
    const me = await register(t);
    await t.database.db.update(users).set({ walletAddress: flowAddress() }).where(eq(users.id, me.id));
    const shop = await creator(t);
    const bp = await insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: 'Offline',
      price: 2500,
      quantity: 3,
    });
    const res = await t.request('POST', '/api/token-charges', {
      token: me.authToken,
      body: {
        type: 'directPurchase',
        toCurrency: 'FRR',
        blueprintId: bp.id,
        ethAddress: accounts[2],
        expectedPrice: 2500,
        idempotencyKey: 'k-offline-1',
      },
    });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      code: 'TOKEN_NETWORK',
      message: 'The NFM network could not be reached. Please try again in a moment.',
    });
    expect(await t.database.db.select().from(tokenCharges)).toEqual([]);
    const [row] = await t.database.db.select().from(blueprints).where(eq(blueprints.id, bp.id));
    expect(row!.quantityAvailable).toBe(3);
  });
});

describe('the embedded NFM chain across a server restart', () => {
  it('keeps its deployment and the node’s state in the data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-evm-restart-'));
    const config = testConfig((await openTestDatabase('pglite')).url, dataDir, {
      token: { mode: 'embedded', nodePort: 0, chainId: ANVIL_CHAIN_ID, frrPerUsd: '10' },
    });
    const deployment = join(dataDir, 'evm', 'evm.json');
    const payments = async (port: number) =>
      ((await (await fetch(`http://127.0.0.1:${port}/api/config/payments`)).json()) as Json).token;
    try {
      const first = await start(config, { log: silentLog([]) });
      let before: { token: Json; written: number; block: number; balance: bigint };
      try {
        await first.ready;
        const token = await payments(first.port);
        // The wallet is given the embedded node's own URL.
        const node = new JsonRpcProvider(token.rpcUrl, ANVIL_CHAIN_ID, { staticNetwork: true });
        const nfm = new Contract(
          token.tokenAddress,
          [
            'function transfer(address,uint256) returns (bool)',
            'function balanceOf(address) view returns (uint256)',
          ],
          await node.getSigner(accounts[3]!),
        );
        await (await nfm.getFunction('transfer')(accounts[4], NFM('7'))).wait();
        before = {
          token,
          written: statSync(deployment).mtimeMs,
          block: await node.getBlockNumber(),
          balance: (await nfm.getFunction('balanceOf')(accounts[4])) as bigint,
        };
        expect(before.balance).toBe(NFM('100007'));
        node.destroy();
      } finally {
        await first.close();
      }

      const started = Date.now();
      const second = await start(config, { log: silentLog([]) });
      try {
        await second.ready;
        const restartMs = Date.now() - started;
        const token = await payments(second.port);
        expect({ ...token, rpcUrl: null }).toEqual({ ...before.token, rpcUrl: null });
        // Not deployed again: the recorded deployment is used as it is.
        expect(statSync(deployment).mtimeMs).toBe(before.written);
        const node = new JsonRpcProvider(token.rpcUrl, ANVIL_CHAIN_ID, { staticNetwork: true });
        expect(await node.getBlockNumber()).toBeGreaterThanOrEqual(before.block);
        const nfm = new Contract(
          token.tokenAddress,
          ['function balanceOf(address) view returns (uint256)'],
          node,
        );
        expect(await nfm.getFunction('balanceOf')(accounts[4])).toBe(before.balance);
        node.destroy();
        // No compile, no deployment: the node loads its state and answers at once.
        expect(restartMs).toBeLessThan(15_000);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the NFM price from an HTTP JSON endpoint (NFM_PRICE_URL)', () => {
  // The price source: a real HTTP server answering { data: { frrPerUsd } }, slowly or badly on demand.
  let answer: { status: number; body: string; delayMs: number } = { status: 200, body: '', delayMs: 0 };
  let asked = 0;
  let source: Server;
  const price = { url: '', field: 'data.frrPerUsd', cacheMs: 60_000, timeoutMs: 300 };
  const rate = (value: unknown) => {
    answer = { status: 200, body: JSON.stringify({ data: { frrPerUsd: value } }), delayMs: 0 };
  };
  beforeAll(async () => {
    source = createServer((_req, res) => {
      asked++;
      const { status, body, delayMs } = answer;
      setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(body), delayMs);
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    price.url = `http://127.0.0.1:${(source.address() as AddressInfo).port}/nfm/price`;
  });
  afterAll(async () => {
    source.closeAllConnections();
    await new Promise((resolve) => source.close(resolve));
  });
  const t = useTestApp(
    'pglite',
    { token: { mode: 'embedded', nodePort: 0, chainId: ANVIL_CHAIN_ID, frrPerUsd: '10', price } },
    { tokenChain: () => chain },
  );
  const convert = (cents: number) =>
    t.request('GET', `/api/token-price-conversions?from=USD&to=FRR&amount=${cents}`);

  it('converts at the rate the endpoint answers, asked once per cache period', async () => {
    rate('12.5');
    asked = 0;
    expect((await convert(2550)).body).toEqual({
      from: 'USD',
      to: 'FRR',
      rate: '12.5',
      amount: 2550,
      value: NFM('318.75').toString(),
    });
    rate(20);
    // Requests together share one read; within the period the rate read is kept.
    const together = await Promise.all([convert(100), convert(100), convert(100)]);
    expect(together.map((r) => r.body.rate)).toEqual(['12.5', '12.5', '12.5']);
    expect(asked).toBe(1);
    t.clock.advance(61_000);
    expect((await convert(100)).body).toMatchObject({ rate: '20', value: NFM('20').toString() });
    expect(asked).toBe(2);

    // A new charge takes the rate of the moment.
    const me = await register(t);
    await t.database.db.update(users).set({ walletAddress: flowAddress() }).where(eq(users.id, me.id));
    const shop = await creator(t);
    const bp = await insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: 'Priced from the endpoint',
      price: 2500,
      quantity: 3,
    });
    const res = await t.request('POST', '/api/token-charges', {
      token: me.authToken,
      body: {
        type: 'directPurchase',
        toCurrency: 'FRR',
        blueprintId: bp.id,
        ethAddress: accounts[9],
        expectedPrice: 2500,
        idempotencyKey: `k-price-${randomBytes(4).toString('hex')}`,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.tokenAmount).toBe(NFM('500').toString());
    expect(
      (
        await t.request('PATCH', `/api/token-charges/${res.body.id}`, {
          token: me.authToken,
          body: { status: 'canceled' },
        })
      ).body.status,
    ).toBe('canceled');
  });

  it('without a usable answer in time there is no rate: 502, never a stale or made-up one', async () => {
    rate('8');
    t.clock.advance(3_600_000);
    expect((await convert(100)).body.rate).toBe('8');
    const failing: [string, typeof answer][] = [
      ['an error status', { status: 500, body: '{}', delayMs: 0 }],
      ['too slow', { status: 200, body: JSON.stringify({ data: { frrPerUsd: 9 } }), delayMs: 1_000 }],
      ['not JSON', { status: 200, body: '<html>', delayMs: 0 }],
      ['no rate at the field', { status: 200, body: JSON.stringify({ frrPerUsd: 9 }), delayMs: 0 }],
      ['a rate of zero', { status: 200, body: JSON.stringify({ data: { frrPerUsd: '0' } }), delayMs: 0 }],
    ];
    for (const [why, bad] of failing) {
      answer = bad;
      t.clock.advance(61_000 * 60);
      const res = await convert(100);
      expect(res.status, why).toBe(502);
      expect(res.body).toEqual({
        code: 'TOKEN_NETWORK',
        field: 'rate',
        message: 'The NFM price could not be read. Please try again in a moment.',
      });
    }
  });

  it('keeps rates to 6 decimals', () => {
    expect(normalizeRate('12.5')).toBe('12.5');
    expect(normalizeRate(0.1234567)).toBe('0.123457');
    expect(normalizeRate('7.0000004')).toBe('7');
    expect(normalizeRate(' 3 ')).toBe('3');
    for (const bad of ['-1', '0', '0.0000004', 'ten', null, Number.NaN, 1e10, '1e3'])
      expect(normalizeRate(bad), String(bad)).toBeNull();
  });
});

describe.each(databases)('token charges on %s', (database) => {
  const t: TestApi = useTestApp(
    database,
    { token: { mode: 'embedded', nodePort: 0, chainId: ANVIL_CHAIN_ID, frrPerUsd: '10' } },
    { tokenChain: () => chain },
  );
  /** The database's own collectors: accounts 2–5 for pglite, 6–9 for postgres. */
  const wallet = (i: number) => accounts[(database === 'pglite' ? 2 : 6) + i]!;

  async function buyer() {
    const me = await register(t);
    await t.database.db.update(users).set({ walletAddress: flowAddress() }).where(eq(users.id, me.id));
    return me;
  }
  async function edition(price = 2500) {
    const shop = await creator(t);
    return insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Edition ${randomBytes(3).toString('hex')}`,
      price,
      quantity: 10,
    });
  }
  const create = (who: { authToken: string }, body: Record<string, unknown>) =>
    t.request('POST', '/api/token-charges', {
      token: who.authToken,
      body: {
        type: 'directPurchase',
        toCurrency: 'FRR',
        expectedPrice: 2500,
        idempotencyKey: `k-${randomBytes(6).toString('hex')}`,
        ...body,
      },
    });
  const patch = (who: { authToken: string }, id: string, body: Record<string, unknown>) =>
    t.request('PATCH', `/api/token-charges/${id}`, { token: who.authToken, body });
  const sign = async (from: string, charge: Json) =>
    (await provider.getSigner(from)).signTypedData(
      tokenChargeDomain(charge.chainId, charge.tokenAddress),
      tokenChargeTypes as never,
      { charge: charge.id, amount: charge.tokenAmount, to: charge.paymentsAddress },
    );
  const transfer = async (from: string, to: string, value: bigint) => {
    const tx = await (token.connect(await provider.getSigner(from)) as Contract).getFunction('transfer')(
      to,
      value,
    );
    await tx.wait();
    return tx.hash as string;
  };
  /** A created and signed charge of a new buyer paying from wallet i. */
  async function signedCharge(i: number, price = 2500) {
    const me = await buyer();
    const bp = await edition(price);
    const res = await create(me, { blueprintId: bp.id, ethAddress: wallet(i), expectedPrice: price });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const signed = await patch(me, res.body.id, { signature: await sign(wallet(i), res.body) });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    return { me, bp, charge: signed.body };
  }
  const jobsOf = (key: string) =>
    t.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.key, key), eq(jobs.kind, 'fulfil')));

  it('tells the browser where to pay, and the network a wallet that lacks it may add', async () => {
    const res = await t.request('GET', '/api/config/payments');
    expect(res.body.token).toEqual({
      chainId: ANVIL_CHAIN_ID,
      chainName: `NFM network (chain ${ANVIL_CHAIN_ID})`,
      rpcUrl: null,
      tokenAddress: chain.tokenAddress,
      paymentsAddress: accounts[1],
    });
  });

  it('converts USD to FRR at the configured rate', async () => {
    const res = await t.request('GET', '/api/token-price-conversions?from=USD&to=FRR&amount=2550');
    expect(res.body).toEqual({
      from: 'USD',
      to: 'FRR',
      rate: '10',
      amount: 2550,
      value: NFM('255').toString(),
    });
    const bad = await t.request('GET', '/api/token-price-conversions?from=EUR&to=FRR&amount=1');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_VALUE', field: 'from' });
  });

  it('creates a charge holding the unit, lowFunds for a short wallet, one active charge per buyer whatever the address', async () => {
    const me = await buyer();
    const bp = await edition();
    // A wallet short of NFM: lowFunds, holding nothing.
    const empty = `0x${randomBytes(20).toString('hex')}`;
    const short = await create(me, { blueprintId: bp.id, ethAddress: empty });
    expect(short.status).toBe(201);
    expect(short.body).toMatchObject({ status: 'lowFunds', order: null });

    const res = await create(me, { blueprintId: bp.id, ethAddress: wallet(0).toLowerCase() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'created',
      tokenPrice: 2500,
      tokenAmount: NFM('250').toString(),
      ethAddress: wallet(0),
      chainId: ANVIL_CHAIN_ID,
      paymentsAddress: accounts[1],
      order: { status: 'created', method: 'token' },
    });
    const [row] = await t.database.db.select().from(blueprints).where(eq(blueprints.id, bp.id));
    expect(row!.quantityAvailable).toBe(9);
    // One active charge per buyer: not a second from the same address, nor from another funded one
    // (each would hold another unit).
    for (const address of [wallet(0), wallet(1)]) {
      const again = await create(me, { blueprintId: bp.id, ethAddress: address });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS', chargeId: res.body.id });
    }
    const [after] = await t.database.db.select().from(blueprints).where(eq(blueprints.id, bp.id));
    expect(after!.quantityAvailable).toBe(9);

    const list = await t.request('GET', `/api/token-charges?userId=${me.id}&statuses=lowFunds`, {
      token: me.authToken,
    });
    expect(list.body.results.map((c: Json) => c.id)).toEqual([short.body.id]);
    const other = await buyer();
    expect(
      (await t.request('GET', `/api/token-charges?userId=${me.id}`, { token: other.authToken })).status,
    ).toBe(403);
    expect(
      (await t.request('GET', `/api/token-charges/${res.body.id}`, { token: other.authToken })).status,
    ).toBe(404);
  });

  it('refuses bad bodies field by field, and a price that changed', async () => {
    const me = await buyer();
    const bp = await edition();
    for (const [body, field] of [
      [{ blueprintId: bp.id, ethAddress: '0x123' }, 'ethAddress'],
      [{ blueprintId: bp.id, ethAddress: wallet(1), toCurrency: 'EUR' }, 'toCurrency'],
      [{ ethAddress: wallet(1) }, 'item'],
      [{ blueprintId: bp.id, ethAddress: wallet(1), expectedPrice: 12.5 }, 'expectedPrice'],
    ] as const) {
      const res = await create(me, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_VALUE', field });
    }
    const moved = await create(me, { blueprintId: bp.id, ethAddress: wallet(1), expectedPrice: 2400 });
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe('PRICE_CHANGED');
  });

  it('a valid transfer completes the charge once, however often it is reported', async () => {
    const { me, charge } = await signedCharge(1);
    expect(charge.status).toBe('signed');
    const hash = await transfer(wallet(1), accounts[1]!, BigInt(charge.tokenAmount));
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await patch(me, charge.id, { transactionHash: hash }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[0]!.body).toMatchObject({
      status: 'completed',
      transactions: [{ hash, value: charge.tokenAmount }],
      order: { status: 'authorized' },
    });
    expect(await jobsOf(charge.order.id)).toHaveLength(1);
    expect(
      await t.database.db.select().from(tokenTransactions).where(eq(tokenTransactions.hash, hash)),
    ).toHaveLength(1);
    // Another charge cannot be paid with it, and a completed charge takes no second payment.
    const second = await signedCharge(2);
    const reused = await patch(second.me, second.charge.id, { transactionHash: hash });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('TRANSACTION');
    const more = await transfer(wallet(1), accounts[1]!, NFM('1'));
    const twice = await patch(me, charge.id, { transactionHash: more });
    expect(twice.body.code).toBe('ERROR_TOKEN_CHARGE_COMPLETE');
  });

  it('94 % of the price is too low; 95 % completes', async () => {
    const low = await signedCharge(2);
    const amount = BigInt(low.charge.tokenAmount);
    const hash = await transfer(wallet(2), accounts[1]!, (amount * 94n) / 100n);
    const res = await patch(low.me, low.charge.id, { transactionHash: hash });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'low_funds',
      message: 'The amount of NFM transferred is too low.',
    });
    const [row] = await t.database.db.select().from(tokenCharges).where(eq(tokenCharges.id, low.charge.id));
    expect(row!.status).toBe('signed');
    // Reported again: the same answer, nothing more.
    expect((await patch(low.me, low.charge.id, { transactionHash: hash })).body.code).toBe('low_funds');
    // Once a transfer was reported the charge can no longer be canceled.
    const cancel = await patch(low.me, low.charge.id, { status: 'canceled' });
    expect(cancel.body.code).toBe('CHARGE_NOT_CANCELLABLE');

    const ok = await signedCharge(3);
    const enough = await transfer(wallet(3), accounts[1]!, (BigInt(ok.charge.tokenAmount) * 95n) / 100n);
    expect((await patch(ok.me, ok.charge.id, { transactionHash: enough })).body.status).toBe('completed');
  });

  it('refuses a transfer to another address and one from another address', async () => {
    const { me, charge } = await signedCharge(0);
    const elsewhere = await transfer(wallet(0), wallet(3), BigInt(charge.tokenAmount));
    const res = await patch(me, charge.id, { transactionHash: elsewhere });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('TRANSACTION');
    const stranger = await transfer(wallet(3), accounts[1]!, BigInt(charge.tokenAmount));
    const from = await patch(me, charge.id, { transactionHash: stranger });
    expect(from.status).toBe(400);
    expect(from.body.code).toBe('ERROR_TOKEN_CHARGE_ETH_ADDRESS');
    expect(from.body.message).toContain(`${wallet(0).slice(0, 6)}…${wallet(0).slice(-4)}`);
    const unknown = await patch(me, charge.id, { transactionHash: `0x${'ab'.repeat(32)}` });
    expect(unknown.status).toBe(409);
    expect(unknown.body.code).toBe('TRANSACTION_PENDING');
    // A signature by another account is refused the same way.
    const stolen = await patch(me, charge.id, { signature: await sign(wallet(3), charge) });
    expect(stolen.body.code).toBe('ERROR_TOKEN_CHARGE_ETH_ADDRESS');
    // None of it paid the charge: it can still be canceled, and its unit goes back.
    const canceled = await patch(me, charge.id, { status: 'canceled' });
    expect(canceled.body).toMatchObject({ status: 'canceled', order: { status: 'canceled' } });
  });

  it('a transfer sent but never reported is found on chain: read, the charge takes it; cancel is refused', async () => {
    // The tab sent the NFM and was closed before reporting it: reading the charge finds it.
    const lost = await signedCharge(0);
    const hash = await transfer(wallet(0), accounts[1]!, BigInt(lost.charge.tokenAmount));
    const read = await t.request('GET', `/api/token-charges/${lost.charge.id}`, { token: lost.me.authToken });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      status: 'completed',
      transactions: [{ hash, value: lost.charge.tokenAmount }],
      order: { status: 'authorized' },
    });
    expect(await jobsOf(lost.charge.order.id)).toHaveLength(1);
    // Reporting it afterwards answers the same, once.
    expect((await patch(lost.me, lost.charge.id, { transactionHash: hash })).body.status).toBe('completed');
    expect(await jobsOf(lost.charge.order.id)).toHaveLength(1);

    // Canceling once the NFM is on chain: refused, and the charge takes the transfer.
    const late = await signedCharge(1);
    const sent = await transfer(wallet(1), accounts[1]!, BigInt(late.charge.tokenAmount));
    const cancel = await patch(late.me, late.charge.id, { status: 'canceled' });
    expect(cancel.status).toBe(400);
    expect(cancel.body.code).toBe('CHARGE_NOT_CANCELLABLE');
    const after = await t.request('GET', `/api/token-charges/${late.charge.id}`, {
      token: late.me.authToken,
    });
    expect(after.body).toMatchObject({ status: 'completed', transactions: [{ hash: sent }] });
  });

  it('only transfers mined after the charge was created, and reported for no other charge, are found', async () => {
    const me = await buyer();
    const bp = await edition();
    // Sent before the charge existed: not its payment.
    await transfer(wallet(2), accounts[1]!, NFM('250'));
    const res = await create(me, { blueprintId: bp.id, ethAddress: wallet(2) });
    expect(res.status).toBe(201);
    await patch(me, res.body.id, { signature: await sign(wallet(2), res.body) });
    const read = await t.request('GET', `/api/token-charges/${res.body.id}`, { token: me.authToken });
    expect(read.body).toMatchObject({ status: 'signed', transactions: [] });
    // Another charge of the same address, paid and reported, leaves nothing to find for the next.
    const canceled = await patch(me, res.body.id, { status: 'canceled' });
    expect(canceled.body.status).toBe('canceled');
    const paid = await signedCharge(2);
    const hash = await transfer(wallet(2), accounts[1]!, BigInt(paid.charge.tokenAmount));
    expect((await patch(paid.me, paid.charge.id, { transactionHash: hash })).body.status).toBe('completed');
    const next = await signedCharge(2);
    const again = await t.request('GET', `/api/token-charges/${next.charge.id}`, {
      token: next.me.authToken,
    });
    expect(again.body).toMatchObject({ status: 'signed', transactions: [] });
    expect((await patch(next.me, next.charge.id, { status: 'canceled' })).body.status).toBe('canceled');
  });

  it('before an order expires, the sweep takes a transfer nobody reported; the order is paid, not expired', async () => {
    const lost = await signedCharge(1);
    const later = await signedCharge(2);
    const hash = await transfer(wallet(1), accounts[1]!, BigInt(lost.charge.tokenAmount));
    await transfer(wallet(2), accounts[1]!, BigInt(later.charge.tokenAmount));
    // The first order ends in 30 s; the second in 15 minutes, not yet due.
    const now = new Date();
    await t.database.db
      .update(orders)
      .set({ expiresAt: new Date(now.getTime() + 30_000) })
      .where(eq(orders.id, lost.charge.order.id));
    expect(await reconcileDueTokenCharges(t.database.db, chain, now)).toBe(1);
    const read = async (c: { me: { authToken: string }; charge: Json }) =>
      (await t.request('GET', `/api/token-charges/${c.charge.id}`, { token: c.me.authToken })).body;
    const [row] = await t.database.db.select().from(tokenCharges).where(eq(tokenCharges.id, lost.charge.id));
    expect(row!.status).toBe('completed');
    expect(await jobsOf(lost.charge.order.id)).toHaveLength(1);
    const { expireOrders } = await import('../../server/checkout/workflow/expire');
    await expireOrders(t.database.db, new Date(now.getTime() + 60_000));
    expect(await read(lost)).toMatchObject({
      status: 'completed',
      transactions: [{ hash }],
      order: { status: 'authorized' },
    });
    // Untouched by the sweep; its own read takes it.
    const [other] = await t.database.db
      .select()
      .from(tokenCharges)
      .where(eq(tokenCharges.id, later.charge.id));
    expect(other!.status).toBe('signed');
    expect((await read(later)).status).toBe('completed');
  });

  it('takes a transfer only for a signed charge', async () => {
    const me = await buyer();
    const bp = await edition();
    const res = await create(me, { blueprintId: bp.id, ethAddress: wallet(3) });
    expect(res.body.status).toBe('created');
    const hash = await transfer(wallet(3), accounts[1]!, BigInt(res.body.tokenAmount));
    const early = await patch(me, res.body.id, { transactionHash: hash });
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({
      code: 'TRANSACTION',
      field: 'signature',
      message: 'Sign the payment in your wallet before its NFM transfer is taken.',
    });
    expect(
      await t.database.db.select().from(tokenTransactions).where(eq(tokenTransactions.hash, hash)),
    ).toEqual([]);
    // The NFM is on chain: the charge cannot be canceled; once signed, the transfer completes it.
    expect((await patch(me, res.body.id, { status: 'canceled' })).body.code).toBe('CHARGE_NOT_CANCELLABLE');
    await patch(me, res.body.id, { signature: await sign(wallet(3), res.body) });
    expect((await patch(me, res.body.id, { transactionHash: hash })).body.status).toBe('completed');
  });

  it('an order that ended before its NFM arrived gives the NFM back', async () => {
    const { me, charge } = await signedCharge(1);
    const before = (await token.getFunction('balanceOf')(wallet(1))) as bigint;
    // Underpaid, then expired: what arrived goes back.
    const hash = await transfer(wallet(1), accounts[1]!, NFM('10'));
    expect((await patch(me, charge.id, { transactionHash: hash })).body.code).toBe('low_funds');
    await t.database.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, charge.order.id));
    const { expireOrders } = await import('../../server/checkout/workflow/expire');
    expect(await expireOrders(t.database.db, new Date())).toBeGreaterThanOrEqual(1);
    const [job] = await t.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'refundToken'), eq(jobs.key, charge.id)));
    expect(job).toBeDefined();
    const refund = createRefundTokenHandler({ db: t.database.db, chain, log: { info() {}, error() {} } });
    await refund.run(job!);
    await refund.run(job!);
    expect((await token.getFunction('balanceOf')(wallet(1))) as bigint).toBe(before);
    const read = await t.request('GET', `/api/token-charges/${charge.id}`, { token: me.authToken });
    expect(read.body.status).toBe('expired');
    expect(read.body.order.events.map((e: Json) => e.type)).toContain('token_refunded');
  });
});
