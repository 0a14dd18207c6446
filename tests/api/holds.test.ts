import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cardCharge } from '../../server/checkout/card/rail';
import { findCheckoutItem } from '../../server/checkout/items';
import type { OrderMethod } from '../../server/checkout/orders';
import { railOf } from '../../server/checkout/rails';
import { reserveOn } from '../../server/checkout/workflow/reserve';
import { blueprints, cardCharges, users } from '../../server/db/schema';
import type { HttpError } from '../../server/http';
import { insertBlueprint } from '../../server/seed/factory';
import {
  bothDatabases,
  flowAddress,
  newAccount,
  register,
  type TestApi,
  useTestApp,
} from './support/harness';
import { creator } from './support/sales';

/**
 * The holds rule (server/checkout/holds.ts) at the one place every rail reserves through
 * (reserve): one unpaid unit of an item per account and per client address, three unpaid holds in
 * all per account, on every rail alike; a free claim holds nothing unpaid. And the sign-up delay
 * per address that keeps one address from making buyers by the hundred.
 */
describe.each(bothDatabases)('holds on %s', (database) => {
  const t: TestApi = useTestApp(database);

  async function buyer() {
    const me = await register(t);
    const walletAddress = flowAddress();
    await t.database.db.update(users).set({ walletAddress }).where(eq(users.id, me.id));
    return { ...me, walletAddress };
  }
  async function item(price = 2500) {
    const shop = await creator(t);
    const bp = await insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Item ${randomBytes(3).toString('hex')}`,
      price,
      quantity: 10,
    });
    return (await findCheckoutItem(t.database.db, { kind: 'blueprint', id: bp.id }, t.clock.now()))!;
  }
  /** A reservation on `method`, as its route makes it; answers the order, or the refusal's status and code. */
  async function hold(
    who: { id: string; walletAddress: string },
    record: Awaited<ReturnType<typeof item>>,
    method: OrderMethod,
    clientAddress = t.address,
  ) {
    // The card keeps its own charge (its rail); the on-ramp's and the token's are stood in for here.
    const charge =
      method === 'creditCard'
        ? cardCharge(who.id, t.clock.now(), { billingInfoId: null, saveCard: null })
        : method === 'wert' || method === 'token'
          ? { pending: async () => undefined, attach: async () => {} }
          : undefined;
    try {
      const { order } = await reserveOn(t.database.db, railOf(method), {
        buyerId: who.id,
        clientAddress,
        idempotencyKey: `k-${randomBytes(6).toString('hex')}`,
        item: record,
        walletAddress: who.walletAddress,
        now: t.clock.now(),
        ...(charge && { charge }),
      });
      return { status: 201, order };
    } catch (err) {
      const e = err as HttpError;
      return { status: e.status, code: e.body?.code };
    }
  }
  const left = async (id: string) =>
    (await t.database.db.select().from(blueprints).where(eq(blueprints.id, id)))[0]!.quantityAvailable;

  const rails: OrderMethod[] = ['creditCard', 'coinbase', 'wert', 'fusd', 'token'];

  it('holds one unpaid unit of an item per account on every rail, whatever the address', async () => {
    for (const method of rails) {
      const me = await buyer();
      const record = await item();
      expect((await hold(me, record, method)).status).toBe(201);
      // Every rail, from another address each: the account holds it already. (Card and crypto
      // first answer their own open charge, to resume or cancel: CHARGE_PENDING.)
      for (const [i, other] of rails.entries()) {
        const again = await hold(me, record, other, `203.0.113.${i + 1}`);
        const code =
          other === method && (method === 'creditCard' || method === 'coinbase')
            ? 'CHARGE_PENDING'
            : 'ITEM_HELD';
        expect([method, other, again.status, again.code]).toEqual([method, other, 409, code]);
      }
      expect(await left(record.id)).toBe(9);
    }
  });

  it('holds one unpaid unit of an item per address, whatever the account', async () => {
    const record = await item();
    const [first, ...others] = await Promise.all(rails.map(() => buyer()));
    expect((await hold(first!, record, 'coinbase')).status).toBe(201);
    for (const [i, other] of others.entries()) {
      expect((await hold(other, record, rails[i + 1]!)).code).toBe('ITEM_HELD');
    }
    // Another item from the same address is another matter.
    expect((await hold(others[0]!, await item(), 'creditCard')).status).toBe(201);
  });

  it('holds three unpaid units in all per account; paid and free ones do not count', async () => {
    const me = await buyer();
    const addresses = ['198.18.3.1', '198.18.3.2', '198.18.3.3', '198.18.3.4'];
    const placed = [];
    for (const [i, method] of (['creditCard', 'coinbase', 'fusd'] as const).entries())
      placed.push(await hold(me, await item(), method, addresses[i]));
    expect(placed.map((p) => p.status)).toEqual([201, 201, 201]);
    const fourth = await hold(me, await item(), 'wert', addresses[3]);
    expect([fourth.status, fourth.code]).toEqual([409, 'HOLD_LIMIT']);
    // A free claim is authorized at once: it holds nothing unpaid and is not refused.
    expect((await hold(me, await item(0), 'freeBlueprintClaim', addresses[3])).status).toBe(201);
  });

  it('a balance order writes no card charge: the card rail lists none and is not blocked by it', async () => {
    const me = await buyer();
    const held = await hold(me, await item(), 'fusd');
    expect(held.status).toBe(201);
    expect(await t.database.db.select().from(cardCharges).where(eq(cardCharges.buyerId, me.id))).toEqual([]);
    const listed = await t.request('GET', '/api/checkout-com-charges', { token: me.authToken });
    expect(listed.body.results).toEqual([]);
    // A card purchase of another item is not told a card payment is pending.
    expect((await hold(me, await item(), 'creditCard')).status).toBe(201);
  });
});

describe.each(bothDatabases)('sign-ups on %s', (database) => {
  const t: TestApi = useTestApp(database, { signupFreePerHour: 10 });
  const signUp = (address = t.address) =>
    t.request('POST', '/api/users/registrations', {
      body: newAccount(),
      headers: { 'x-test-address': address },
    });

  it('an address signs up 10 accounts an hour freely, then each next one waits longer: a growing delay, not a block', async () => {
    for (let i = 0; i < 10; i++) expect((await signUp()).status).toBe(201);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const refused = await signUp();
      expect([refused.status, refused.body.code]).toEqual([429, 'RATE_LIMITED']);
      const wait = Number(refused.headers.get('retry-after'));
      waits.push(wait);
      // Whoever waits is let in.
      t.clock.advance(wait * 1000);
      expect((await signUp()).status).toBe(201);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32]);
    // Other addresses are not slowed by this one.
    expect((await signUp('198.18.4.1')).status).toBe(201);
    // An hour after its sign-ups an address starts afresh.
    t.clock.advance(60 * 60_000);
    for (let i = 0; i < 10; i++) expect((await signUp()).status).toBe(201);
  });

  it('a refused sign-up is not counted, and a refusal for a taken email costs no slot', async () => {
    const taken = await register(t);
    for (let i = 0; i < 20; i++) {
      const res = await t.request('POST', '/api/users/registrations', {
        body: newAccount({ email: taken.email }),
        headers: { 'x-test-address': '198.18.5.1' },
      });
      expect(res.body.code).toBe('EMAIL_EXISTS');
    }
    for (let i = 0; i < 10; i++) expect((await signUp('198.18.5.1')).status).toBe(201);
  });
});
