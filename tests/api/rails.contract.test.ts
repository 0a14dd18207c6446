import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { eq } from 'drizzle-orm';
import { Contract, getAddress, JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenChargeDomain, tokenChargeTypes } from '#domain/schemas/token';
import {
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
  type Sandbox,
  startCheckoutSandbox,
} from '../../sandbox/checkout-com/index';
import {
  type CoinbaseSandbox,
  SANDBOX_API_KEY,
  SANDBOX_WEBHOOK_SECRET,
  startCoinbaseSandbox,
} from '../../sandbox/coinbase-commerce/index';
import {
  SANDBOX_PARTNER_ID,
  SANDBOX_PRIVATE_KEY,
  startWertSandbox,
  SANDBOX_API_KEY as WERT_API_KEY,
  type WertSandbox,
} from '../../sandbox/wert/index';
import { MintConflictError } from '../../server/chain/mint';
import { FULFIL_JOB, SEND_FUSD_JOB } from '../../server/checkout/orders';
import { railOf } from '../../server/checkout/rails';
import { REFUND_TOKEN_JOB } from '../../server/checkout/token/rail';
import { WERT_REFUND_JOB } from '../../server/checkout/wert/wert';
import { createFulfilment } from '../../server/checkout/workflow/fulfil';
import type { Config } from '../../server/config';
import { cardCharges } from '../../server/db/schema';
import { orderMethod } from '../../server/db/tables/orders';
import { ANVIL_CHAIN_ID, ANVIL_PAYMENTS_KEY, type Anvil, startAnvil } from '../../server/evm/anvil';
import { ensureNfm } from '../../server/evm/nfm';
import { createTokenChain, type TokenChain } from '../../server/evm/token';
import { createCheckoutComProvider } from '../../server/payments/checkout-com';
import { createCoinbaseProvider } from '../../server/payments/coinbase-commerce';
import type { OnrampProvider } from '../../server/payments/onramp-provider';
import type { CardProvider } from '../../server/payments/provider';
import { createWertProvider } from '../../server/payments/wert';
import { databases, type Json, type TestApi, useTestApp } from './support/harness';
import {
  type Buyer,
  contractReads,
  type Item,
  quiet,
  type RailDriver,
  railContract,
  recordingMint,
} from './support/rail-contract';
import { widgetUrl } from './support/wert';

/**
 * The contract every payment rail keeps (./support/rail-contract.ts), run against each rail
 * through the real HTTP API and the project's provider sandboxes: the card (Checkout.com-shaped
 * sandbox), crypto (Coinbase Commerce-shaped sandbox), on-ramp (Wert-shaped sandbox: its widget
 * pressed over HTTP, its webhooks posted by the test) and NFM (a real EVM node, anvil, with NFM
 * deployed); the free claim has no provider and keeps its own part of it below. The FUSD balance
 * rail needs the Flow emulator: tests/chain/rails.contract.test.ts.
 */

const SERVER = join(__dirname, '../../server');

/** Every .ts file of the server but the migrations. */
function serverFiles(dir = SERVER): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : serverFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

describe('the rail registry', () => {
  it('has a rail for every order method', () => {
    for (const method of orderMethod.enumValues) expect(railOf(method), method).toBeDefined();
  });

  it('is the only place in the server that compares or switches on an order method', () => {
    // 'token' is also a card source's type: only the other names are looked for as bare strings.
    const names = orderMethod.enumValues.filter((m) => m !== 'token').join('|');
    const comparison = new RegExp(
      `\\.method\\s*[!=]==|[!=]==\\s*\\w+\\.method\\b|case '(${names})'|[!=]== '(${names})'`,
    );
    const offenders = serverFiles()
      .filter((path) => !path.endsWith(join('checkout', 'rails.ts')))
      .flatMap((path) =>
        readFileSync(path, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${relative(SERVER, path)}:${i + 1}` }))
          // An HTTP method is not a payment method.
          .filter(({ line }) => comparison.test(line) && !/\b(req|route|r)\.method\b/.test(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });
});

/** The NFM chain: a real EVM node with NFM deployed; buyers pay from anvil's first collector account. */
const NFM_CONFIG: Partial<Config> = {
  token: { mode: 'embedded', nodePort: 0, chainId: ANVIL_CHAIN_ID, frrPerUsd: '10' },
};
let anvil: Anvil;
let evm: JsonRpcProvider;
let tokenChain: TokenChain;
let evmDir: string;
let nfmPayer: string;
let nfmTo: string;
let nfm: Contract;

beforeAll(async () => {
  evmDir = mkdtempSync(join(tmpdir(), 'vitrine-evm-'));
  anvil = await startAnvil({ port: 0 });
  evm = new JsonRpcProvider(anvil.url, ANVIL_CHAIN_ID, { staticNetwork: true });
  const deployment = await ensureNfm(evm, evmDir);
  tokenChain = createTokenChain({
    rpcUrl: anvil.url,
    chainId: ANVIL_CHAIN_ID,
    ...deployment,
    paymentsKey: ANVIL_PAYMENTS_KEY,
  });
  const accounts = ((await evm.send('eth_accounts', [])) as string[]).map((a) => getAddress(a));
  nfmTo = accounts[1]!;
  nfmPayer = accounts[2]!;
  nfm = new Contract(deployment.tokenAddress, ['function transfer(address,uint256) returns (bool)'], evm);
}, 120_000);
afterAll(async () => {
  tokenChain?.close();
  evm?.destroy();
  await anvil?.stop();
  if (evmDir) rmSync(evmDir, { recursive: true, force: true });
});

describe.each(databases)('payment rails on %s', (database) => {
  let cardSandbox: Sandbox;
  let card: CardProvider;
  let cryptoSandbox: CoinbaseSandbox;
  let crypto: ReturnType<typeof createCoinbaseProvider>;
  let wertSandbox: WertSandbox;
  let onramp: OnrampProvider;
  const t: TestApi = useTestApp(database, NFM_CONFIG, {
    cardProvider: {
      requestPayment: (r) => card.requestPayment(r),
      getPayment: (id) => card.getPayment(id),
      capture: (id, key) => card.capture(id, key),
      void: (id, key) => card.void(id, key),
      refund: (id, key) => card.refund(id, key),
      verifyWebhook: (raw, sig) => card.verifyWebhook(raw, sig),
      publicConfig: () => card.publicConfig(),
    },
    cryptoProvider: {
      createCharge: (r) => crypto.createCharge(r),
      getCharge: (id) => crypto.getCharge(id),
      cancelCharge: (id) => crypto.cancelCharge(id),
      verifyWebhook: (raw, sig) => crypto.verifyWebhook(raw, sig),
    },
    onrampProvider: {
      get partnerId() {
        return onramp.partnerId;
      },
      get origin() {
        return onramp.origin;
      },
      sign: (fields) => onramp.sign(fields),
      findOrders: (search) => onramp.findOrders(search),
    },
    tokenChain: () => tokenChain,
  });

  beforeAll(async () => {
    cardSandbox = await startCheckoutSandbox({ port: 0, retrySchedule: [] });
    card = createCheckoutComProvider({
      secretKey: SANDBOX_SECRET_KEY,
      publicKey: SANDBOX_PUBLIC_KEY,
      apiUrl: cardSandbox.url,
      webhookSignatureKey: SANDBOX_WEBHOOK_KEY,
    });
    cryptoSandbox = await startCoinbaseSandbox({ port: 0, retrySchedule: [], confirmAfterMs: 100 });
    crypto = createCoinbaseProvider({
      apiKey: SANDBOX_API_KEY,
      apiUrl: cryptoSandbox.url,
      webhookSecret: SANDBOX_WEBHOOK_SECRET,
    });
    // The test delivers the on-ramp's webhooks itself, and completes its orders when it pays them.
    wertSandbox = await startWertSandbox({ port: 0, retrySchedule: [], autoComplete: false });
    onramp = createWertProvider({
      partnerId: SANDBOX_PARTNER_ID,
      origin: wertSandbox.url,
      privateKey: SANDBOX_PRIVATE_KEY,
      apiUrl: wertSandbox.url,
      apiKey: WERT_API_KEY,
    });
  });
  afterAll(async () => {
    await cardSandbox?.close();
    await cryptoSandbox?.close();
    await wertSandbox?.close();
  });

  const r = contractReads(t);
  const key = r.key;

  /* ---- the card rail ---- */

  async function cardToken(number: string): Promise<string> {
    const res = await fetch(`${cardSandbox.url}/tokens`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SANDBOX_PUBLIC_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        type: 'card',
        number,
        cvv: '123',
        expiry_month: 12,
        expiry_year: new Date().getUTCFullYear() + 2,
      }),
    });
    return ((await res.json()) as Json).token;
  }
  const billing = (token: string) => ({
    cardToken: token,
    firstName: 'Ada',
    lastName: 'Lovelace',
    addressLine1: '1 Market St',
    city: 'San Francisco',
    state: 'CA',
    country: 'US',
    zipCode: '94105',
    phoneNumber: { countryCode: '1', number: '4155550123' },
  });
  const payByCard = async (who: Buyer, bp: Item, number: string, k = key()) =>
    t.request('POST', '/api/checkout-com-charges', {
      token: who.authToken,
      body: {
        idempotencyKey: k,
        item: { kind: 'blueprint', id: bp.id },
        expectedPrice: bp.price,
        billingInfo: billing(await cardToken(number)),
      },
    });
  async function paymentOf(orderId: string) {
    return (await t.database.db.select().from(cardCharges).where(eq(cardCharges.orderId, orderId)))[0]
      ?.paymentId;
  }

  const cardDriver: RailDriver = {
    method: 'creditCard',
    async start(who, bp, k) {
      // 3-D Secure: the order waits for the buyer, unpaid.
      const res = await payByCard(who, bp, '4485040371536584', k);
      return { ...res, orderId: res.body.orderId };
    },
    async fail(who, bp) {
      const res = await payByCard(who, bp, '4544249167673670');
      expect(res.status).toBe(402);
      return res.body.orderId;
    },
    paidBy: 'its webhook (payment_approved)',
    async paidEvent(_who, started) {
      const done = await fetch(started.body.redirectLink, {
        method: 'POST',
        body: new URLSearchParams({ action: 'approve' }),
        redirect: 'manual',
      });
      expect(done.status).toBe(302);
      const raw = JSON.stringify({
        id: `evt_${randomBytes(13).toString('hex')}`,
        type: 'payment_approved',
        data: { id: await paymentOf(started.orderId), reference: started.orderId },
      });
      const signature = createHmac('sha256', SANDBOX_WEBHOOK_KEY).update(raw).digest('hex');
      return async () =>
        (
          await t.request('POST', '/api/webhooks/checkout-com', {
            raw,
            headers: { 'content-type': 'application/json', 'cko-signature': signature },
          })
        ).status;
    },
    async refunded(started) {
      const payment = await card.getPayment((await paymentOf(started.orderId))!);
      expect(payment.status, 'refunded at the provider').toBe('Refunded');
    },
  };

  /* ---- the crypto rail ---- */

  const cryptoDriver: RailDriver = {
    method: 'coinbase',
    async start(who, bp, k) {
      const res = await t.request('POST', '/api/coinbase-charges', {
        token: who.authToken,
        body: { idempotencyKey: k, type: 'directPurchase', blueprintId: bp.id, expectedPrice: bp.price },
      });
      return { ...res, orderId: res.body.order?.id };
    },
    async fail(who, bp) {
      const started = await this.start(who, bp, key());
      expect(started.status).toBe(201);
      const canceled = await t.request('PATCH', `/api/coinbase-charges/${started.body.id}`, {
        token: who.authToken,
        body: { status: 'CANCELED' },
      });
      expect(canceled.status).toBe(200);
      return started.orderId;
    },
    paidBy: 'its webhook (charge:confirmed)',
    async paidEvent(_who, started) {
      const charge = await crypto.getCharge(started.body.code);
      const data = (
        await (
          await fetch(`${cryptoSandbox.url}/charges/${charge.id}`, {
            headers: { 'X-CC-Api-Key': SANDBOX_API_KEY, 'X-CC-Version': '2018-03-22' },
          })
        ).json()
      ).data;
      const now = new Date().toISOString();
      const raw = JSON.stringify({
        id: 1,
        scheduled_for: now,
        attempt_number: 1,
        event: {
          id: randomUUID(),
          resource: 'event',
          type: 'charge:confirmed',
          api_version: '2018-03-22',
          created_at: now,
          data: {
            ...data,
            timeline: ['NEW', 'PENDING', 'COMPLETED'].map((status) => ({ time: now, status })),
            payments: [
              {
                value: { local: { amount: data.pricing.local.amount, currency: 'USD' } },
                status: 'CONFIRMED',
              },
            ],
          },
        },
      });
      const signature = createHmac('sha256', SANDBOX_WEBHOOK_SECRET).update(raw).digest('hex');
      return async () =>
        (
          await t.request('POST', '/api/webhooks/coinbase-commerce', {
            raw,
            headers: { 'content-type': 'application/json', 'x-cc-webhook-signature': signature },
          })
        ).status;
    },
    async refunded(started) {
      // What goes back is sent as FUSD to the buyer's wallet, by the job keyed by the charge.
      expect(await r.jobsOf(SEND_FUSD_JOB, started.body.id)).toBe(1);
    },
  };

  /* ---- the on-ramp rail ---- */

  /** Presses Pay (or Fail) in the on-ramp widget over HTTP, as its page's script does. */
  async function press(charge: Json, action: 'pay' | 'fail') {
    const options = {
      ...charge.signedData,
      partner_id: charge.partnerId,
      click_id: charge.clickId,
      origin: charge.origin,
      extra: { item_info: charge.itemInfo },
    };
    const res = await fetch(`${charge.origin}/${charge.partnerId}/widget/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action, query: new URL(widgetUrl(options)).search }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { order_id: string }).order_id;
  }

  const wertDriver: RailDriver = {
    method: 'wert',
    async start(who, bp, k) {
      const res = await t.request('POST', '/api/wert-charges', {
        token: who.authToken,
        body: { blueprintId: bp.id, expectedPrice: bp.price, idempotencyKey: k },
      });
      return { ...res, orderId: res.body.order?.id };
    },
    async fail(who, bp) {
      const started = await this.start(who, bp, key());
      expect(started.status).toBe(201);
      await press(started.body, 'fail');
      // The buyer's page asks the server to read the provider (PATCH without a status).
      const synced = await t.request('PATCH', `/api/wert-charges/${started.body.id}`, {
        token: who.authToken,
        body: {},
      });
      expect(synced.status).toBe(200);
      return started.orderId;
    },
    paidBy: 'its webhook (order_complete, confirmed with the provider)',
    async paidEvent(_who, started) {
      const charge = started.body;
      const orderId = await press(charge, 'pay');
      expect(wertSandbox.complete(orderId)).toBe(true);
      const body = {
        type: 'order_complete',
        click_id: charge.id,
        order: {
          id: orderId,
          commodity: 'FUSD',
          commodity_amount: String(charge.signedData.commodity_amount),
          currency: 'USD',
          currency_amount: (charge.amount / 100).toFixed(2),
          address: charge.walletAddress,
          transaction_id: wertSandbox.orderOf(charge.id)?.txId ?? null,
          sc_address: charge.signedData.sc_address,
          sc_input_data: charge.signedData.sc_input_data,
        },
      };
      return async () => (await t.request('POST', '/api/webhooks/wert', { body })).status;
    },
    async refunded(started) {
      // What goes back is sent as FUSD from the treasury, by the job keyed by the charge.
      expect(await r.jobsOf(WERT_REFUND_JOB, started.body.id)).toBe(1);
    },
  };

  /* ---- the NFM rail ---- */

  const patchToken = (who: Buyer, id: string, body: Json) =>
    t.request('PATCH', `/api/token-charges/${id}`, { token: who.authToken, body });

  const tokenDriver: RailDriver = {
    method: 'token',
    async start(who, bp, k) {
      const res = await t.request('POST', '/api/token-charges', {
        token: who.authToken,
        body: {
          type: 'directPurchase',
          toCurrency: 'FRR',
          blueprintId: bp.id,
          ethAddress: nfmPayer,
          expectedPrice: bp.price,
          idempotencyKey: k,
        },
      });
      return { ...res, orderId: res.body.order?.id };
    },
    async fail(who, bp) {
      // Nothing declines an NFM payment: the buyer gives it up before paying (their wallet refused).
      const started = await this.start(who, bp, key());
      expect(started.status).toBe(201);
      expect((await patchToken(who, started.body.id, { status: 'canceled' })).status).toBe(200);
      return started.orderId;
    },
    paidBy: 'the report of its NFM transfer (PATCH transactionHash; the rail has no webhook)',
    async paidEvent(who, started) {
      const charge = started.body;
      const signature = await (await evm.getSigner(nfmPayer)).signTypedData(
        tokenChargeDomain(charge.chainId, charge.tokenAddress),
        tokenChargeTypes as never,
        { charge: charge.id, amount: charge.tokenAmount, to: charge.paymentsAddress },
      );
      expect((await patchToken(who, charge.id, { signature })).status).toBe(200);
      const sent = await (nfm.connect(await evm.getSigner(nfmPayer)) as Contract).getFunction('transfer')(
        nfmTo,
        BigInt(charge.tokenAmount),
      );
      await sent.wait();
      return async () => (await patchToken(who, charge.id, { transactionHash: sent.hash })).status;
    },
    async refunded(started) {
      // What goes back is sent in NFM to the address that paid, by the job keyed by the charge.
      expect(await r.jobsOf(REFUND_TOKEN_JOB, started.body.id)).toBe(1);
    },
  };

  describe.each([cardDriver, cryptoDriver, wertDriver, tokenDriver])('the $method rail', (rail) => {
    railContract(t, rail, () => card);
  });

  describe('the free claim', () => {
    const claim = (who: Buyer, bp: Item) =>
      t.request('POST', '/api/free-blueprint-claims', { token: who.authToken, body: { blueprintId: bp.id } });

    it('reserves one unit, authorized at once for nothing; a second claim is refused', async () => {
      const me = await r.buyer();
      const bp = await r.item(0);
      const res = await claim(me, bp);
      expect(res.status).toBe(201);
      expect(await r.orderRow(res.body.orderId)).toMatchObject({
        method: 'freeBlueprintClaim',
        status: 'authorized',
        amount: 0,
      });
      expect(await r.jobsOf(FULFIL_JOB, res.body.orderId)).toBe(1);
      expect(await claim(me, bp)).toMatchObject({ status: 400, body: { code: 'CLAIM_BLUEPRINT' } });
      expect(await r.available(bp.id)).toBe(9);
    });

    it('a fulfil job stopped after minting and run again mints once; a mint that fails for good voids the claim', async () => {
      const me = await r.buyer();
      const bp = await r.item(0);
      const res = await claim(me, bp);
      const mint = recordingMint();
      let crashed = false;
      const job = createFulfilment({
        db: t.database.db,
        provider: null,
        mint,
        now: t.clock.now,
        onStep: (step) => {
          if (step === 'minted-edition' && !crashed) {
            crashed = true;
            throw new Error('stopped');
          }
        },
      });
      await expect(job.fulfil(res.body.orderId)).rejects.toThrow('stopped');
      await job.fulfil(res.body.orderId, 2);
      expect((await r.orderRow(res.body.orderId)).status).toBe('minted');
      expect(new Set(mint.keys).size).toBe(1);

      const other = await r.buyer();
      const second = await claim(other, bp);
      const refused = createFulfilment({
        db: t.database.db,
        provider: null,
        mint: recordingMint(() => new MintConflictError('taken')),
        now: t.clock.now,
        log: quiet,
      });
      await refused.fulfil(second.body.orderId);
      expect(await r.orderRow(second.body.orderId)).toMatchObject({
        status: 'voided',
        failureMessage: railOf('freeBlueprintClaim').mintFailedMessage,
      });
      // The claim did not happen: the buyer may claim again.
      expect((await claim(other, bp)).status).toBe(201);
    });
  });
});
