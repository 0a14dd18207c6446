import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  billingInfos,
  cardCharges,
  coinbaseCharges,
  kycVerifications,
  nfts,
  orders,
  payoutRequests,
  storefronts,
  users,
  wertCharges,
} from '../../server/db/schema';
import {
  databases,
  flowAddress,
  type Json,
  register,
  registerAdmin,
  type TestApi,
  useTestApp,
} from './support/harness';
import { blueprint, creator, day, payoutRequest, sale } from './support/sales';

/**
 * The authorization matrix: every route of the API × {anonymous, another user, the owner, an
 * admin}. Each route is classified by hand below (a new route fails the test until it is), and
 * the classification is checked against what the server does:
 * - public, optional: anyone (nothing checked beyond "not 401/403" for an anonymous GET);
 * - user: a session is needed (401 without one); it only ever acts on the caller's own things;
 * - owner: a session is needed, and the thing named in the path is someone's: another user gets
 *   403 or 404 and changes nothing, the owner reads it (proving the fixture is real); a buyer's
 *   purchases and billing details (UNTOLD) answer 404 exactly, as an id that does not exist, so
 *   nobody can probe which exist;
 * - admin: 401 without a session, 403 for anyone else, through for an admin;
 * - webhook: the provider's signature (or its off switch) decides: never a 2xx to an unsigned body;
 * - capability: a secret token in the request decides (upload URLs, reset tokens);
 * - dev: development helpers (absent in production: tests/api/dev.test.ts).
 */
type Access = 'public' | 'optional' | 'user' | 'owner' | 'admin' | 'webhook' | 'capability' | 'dev';

const ROUTES: Record<string, Access> = {
  'GET /health': 'public',
  'GET /health/ready': 'public',
  'GET /openapi.json': 'public',
  'POST /users/registrations': 'public',
  'GET /users/me': 'user',
  'GET /users/{id}': 'optional',
  'PATCH /users/me': 'user',
  'POST /veriff-kyc': 'user',
  'POST /webhooks/veriff': 'webhook',
  'GET /admin/users': 'admin',
  'GET /admin/kyc': 'admin',
  'GET /admin/blueprints': 'admin',
  'GET /admin/sales': 'admin',
  'GET /admin/charges': 'admin',
  'GET /admin/storefront-reports': 'admin',
  'GET /admin/payout-requests': 'admin',
  'PATCH /admin/users/{id}': 'admin',
  'PATCH /admin/storefronts/{id}': 'admin',
  'PATCH /admin/kyc/{id}': 'admin',
  'GET /admin/emails': 'admin',
  'PATCH /admin/emails/{id}': 'admin',
  'GET /admin/audit': 'admin',
  'GET /storefront-reports': 'admin',
  'PATCH /storefront-reports/{id}': 'admin',
  'GET /notifications': 'user',
  'POST /notifications/actions/read': 'user',
  'GET /users/me/favorites': 'user',
  'GET /users/me/favorites/ids': 'user',
  'PUT /users/me/favorites/{blueprintId}': 'user',
  'DELETE /users/me/favorites/{blueprintId}': 'user',
  'POST /auth/logins': 'public',
  'POST /auth/logins/passwords/resets': 'public',
  'PATCH /auth/logins/passwords': 'capability',
  'POST /auth/sessions/refresh': 'capability',
  // Logging out needs no valid session: it ends the one the refresh cookie names, if any.
  'DELETE /auth/sessions/current': 'capability',
  'POST /users/email-confirmations': 'capability',
  'POST /users/sale-email-opt-outs': 'capability',
  'GET /queries/user-existence': 'public',
  'POST /users/wallets/actions/request-account-proof': 'public',
  'POST /users/wallets/actions/verify-account-proof': 'public',
  'GET /chain/config': 'public',
  'POST /dev/nfts': 'dev',
  'GET /nfts': 'public',
  'GET /activity': 'public',
  'GET /nfts/{id}': 'public',
  'GET /nfts/{id}/history': 'public',
  'GET /nfts/purchases': 'user',
  'GET /nfts/sale-listings/{id}': 'public',
  'POST /nfts/sale-listings/actions/record': 'user',
  'POST /nfts/sale-listings/actions/cancel': 'user',
  'POST /nfts/purchases/actions/record': 'user',
  'GET /offers': 'public',
  'POST /offers/actions/record': 'user',
  'GET /storefronts': 'public',
  'GET /storefronts/me': 'user',
  'GET /storefronts/{id}': 'optional',
  'GET /storefronts/{id}/stats': 'optional',
  'GET /home/trending': 'public',
  'POST /storefronts': 'user',
  'PATCH /storefronts/{id}': 'owner',
  'POST /storefront-reports': 'user',
  'GET /queries/storefront-share': 'public',
  'GET /blueprints': 'optional',
  'GET /blueprints/{id}': 'optional',
  'POST /blueprints': 'user',
  'PATCH /blueprints/{id}': 'owner',
  'GET /blueprints/{id}/history': 'public',
  'GET /blueprint-packs': 'public',
  'GET /blueprint-packs/{id}': 'public',
  'GET /assets/upload-url': 'user',
  'PUT /assets/uploads/{token}': 'capability',
  'POST /assets/uploads/{token}': 'capability',
  'POST /image-jobs': 'user',
  'GET /image-jobs/{jobId}': 'user',
  'GET /sales': 'user',
  'GET /sales/ledger.csv': 'user',
  'GET /sales/chart': 'user',
  'GET /payout-requests': 'user',
  'POST /payout-requests': 'user',
  'PATCH /payout-requests/{id}': 'owner',
  'GET /config/payments': 'public',
  'GET /billing-info': 'user',
  'POST /billing-info': 'user',
  'DELETE /billing-info/{id}': 'owner',
  'POST /checkout-com-charges': 'user',
  'GET /checkout-com-charges': 'user',
  'GET /checkout-com-charges/{id}': 'owner',
  'PATCH /checkout-com-charges/{id}/actions/sync': 'owner',
  'POST /checkout-com-charges/{id}/actions/cancel': 'owner',
  'POST /checkout-com-charges/actions/applepay': 'user',
  'POST /webhooks/checkout-com': 'webhook',
  'POST /coinbase-charges': 'user',
  'GET /coinbase-charges': 'user',
  'GET /coinbase-charges/{id}': 'owner',
  'PATCH /coinbase-charges/{id}': 'owner',
  'POST /webhooks/coinbase-commerce': 'webhook',
  'POST /wert-charges': 'user',
  'GET /wert-charges': 'user',
  'GET /wert-charges/{id}': 'owner',
  'PATCH /wert-charges/{id}': 'owner',
  'POST /webhooks/wert': 'webhook',
  'POST /fusd-orders': 'user',
  'GET /fusd-orders/{id}': 'owner',
  'PATCH /fusd-orders/{id}': 'owner',
  'GET /free-blueprint-claims': 'user',
  'POST /free-blueprint-claims': 'user',
  'GET /orders/{id}': 'owner',
};

/** Owner routes that answer another user 404 exactly, as an unknown id (a buyer's purchases and billing details). */
const UNTOLD = new Set([
  'DELETE /billing-info/{id}',
  'GET /checkout-com-charges/{id}',
  'PATCH /checkout-com-charges/{id}/actions/sync',
  'POST /checkout-com-charges/{id}/actions/cancel',
  'GET /coinbase-charges/{id}',
  'PATCH /coinbase-charges/{id}',
  'GET /wert-charges/{id}',
  'PATCH /wert-charges/{id}',
  'GET /fusd-orders/{id}',
  'PATCH /fusd-orders/{id}',
  'GET /orders/{id}',
]);

const ZERO = '00000000-0000-4000-8000-000000000000';

/** The owner's identity verification: values that no one but the owner and admins may ever read. */
const secret = randomBytes(4).toString('hex');
const PRIVATE = {
  legalFirstName: `Legalfirst${secret}`,
  legalLastName: `Legallast${secret}`,
  sessionId: `kyc-session-${secret}`,
  url: `https://verify.example/v/kyc-session-${secret}`,
  reason: `Document reason ${secret}`,
};
/** Keys that only the user (and, for KYC, admins) may see in any answer. */
const PRIVATE_KEYS = ['kyc', 'passwordHash', 'tokenVersion', 'saleEmails', 'pendingEmail', 'sessionId'];

describe.each(databases)('the authorization matrix on %s', (database) => {
  const t: TestApi = useTestApp(database);
  let owner: Awaited<ReturnType<typeof creator>> & { walletAddress: string };
  let other: Awaited<ReturnType<typeof register>>;
  let boss: Awaited<ReturnType<typeof register>>;
  /** The owner's things, by the path parameter each owner route names. */
  const ids: Record<string, string> = {};
  let ownedNftId = '';

  beforeAll(async () => {
    const db = t.database.db;
    const shop = await creator(t);
    const walletAddress = flowAddress();
    await db.update(users).set({ walletAddress }).where(eq(users.id, shop.id));
    owner = { ...shop, walletAddress };
    other = await register(t);
    boss = await registerAdmin(t);
    const bp = await blueprint(t, shop.storefront.id, { royaltyPercent: 0, totalFeePercent: 0 });
    await sale(t, bp, { serial: 1, amount: 50_000, purchasedOn: day(1) });
    const payout = await payoutRequest(t, shop, 2_000, 'created', day(2));
    // The owner bought an edition (their wallet holds it) and is verifying their identity.
    const bought = await sale(t, bp, { serial: 2, amount: 50_000, purchasedOn: day(3), buyerId: shop.id });
    await db.update(nfts).set({ owner: walletAddress }).where(eq(nfts.id, bought.nftId));
    ownedNftId = bought.nftId;
    await db.insert(kycVerifications).values({
      userId: shop.id,
      sessionId: PRIVATE.sessionId,
      url: PRIVATE.url,
      status: 'declined',
      code: '9102',
      firstName: PRIVATE.legalFirstName,
      lastName: PRIVATE.legalLastName,
      reason: PRIVATE.reason,
      reasonCode: '102',
      updatedAt: day(4),
    });
    const order = async (method: 'creditCard' | 'coinbase' | 'wert' | 'fusd') => {
      const [row] = await db
        .insert(orders)
        .values({
          buyerId: shop.id,
          idempotencyKey: `key-${randomBytes(6).toString('hex')}`,
          method,
          itemKind: 'blueprint',
          itemId: bp.id,
          title: bp.title,
          storefrontId: shop.storefront.id,
          amount: bp.price,
          walletAddress,
          expiresAt: new Date(Date.now() + 3_600_000),
        })
        .returning();
      return row!;
    };
    const cardOrder = await order('creditCard');
    const [card] = await db
      .insert(cardCharges)
      .values({ orderId: cardOrder.id, buyerId: shop.id })
      .returning();
    const coinbaseOrder = await order('coinbase');
    const [coinbase] = await db
      .insert(coinbaseCharges)
      .values({
        buyerId: shop.id,
        idempotencyKey: 'matrix',
        type: 'directPurchase',
        orderId: coinbaseOrder.id,
        amount: bp.price,
        walletAddress,
        expiresAt: new Date(Date.now() + 3_600_000),
      })
      .returning();
    const wertOrder = await order('wert');
    const [wert] = await db
      .insert(wertCharges)
      .values({
        buyerId: shop.id,
        idempotencyKey: 'matrix',
        orderId: wertOrder.id,
        amount: bp.price,
        walletAddress,
        signedData: {},
      })
      .returning();
    const fusdOrder = await order('fusd');
    const [billing] = await db
      .insert(billingInfos)
      .values({
        userId: shop.id,
        lastFourDigits: '4242',
        firstName: 'Ada',
        addressLine1: '1 Main St',
        city: 'Springfield',
        state: 'Illinois',
        country: 'US',
        zipCode: '62701',
        phoneCountryCode: '+1',
        phoneNumber: '2175550100',
      } as never)
      .returning();
    Object.assign(ids, {
      'PATCH /storefronts/{id}': shop.storefront.id,
      'PATCH /blueprints/{id}': bp.id,
      'PATCH /payout-requests/{id}': payout.id,
      'DELETE /billing-info/{id}': billing!.id,
      'GET /checkout-com-charges/{id}': card!.id,
      'PATCH /checkout-com-charges/{id}/actions/sync': card!.id,
      'POST /checkout-com-charges/{id}/actions/cancel': card!.id,
      'GET /coinbase-charges/{id}': coinbase!.id,
      'PATCH /coinbase-charges/{id}': coinbase!.id,
      'GET /wert-charges/{id}': wert!.id,
      'PATCH /wert-charges/{id}': wert!.id,
      'GET /fusd-orders/{id}': fusdOrder.id,
      'PATCH /fusd-orders/{id}': fusdOrder.id,
      'GET /orders/{id}': cardOrder.id,
    });
  });

  const call = (key: string, token: string | undefined, id = ZERO, body?: Json) => {
    const [method, path] = key.split(' ') as [string, string];
    const url = `/api${path.replace(/\{(id|jobId|token)\}/, id)}`;
    return t.request(method, url, {
      token,
      ...(method !== 'GET' && method !== 'DELETE' && { body: body ?? {} }),
    });
  };

  it('classifies every route of the API, and only those', async () => {
    const doc = (await t.request('GET', '/api/openapi.json')).body as { paths: Record<string, Json> };
    const served = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods as object).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(served.sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it('answers 401 to an anonymous caller on every route that needs a session', async () => {
    const leaks: string[] = [];
    for (const [key, access] of Object.entries(ROUTES)) {
      if (access !== 'user' && access !== 'owner' && access !== 'admin') continue;
      const res = await call(key, undefined, ids[key]);
      if (res.status !== 401) leaks.push(`${key}: ${res.status}`);
    }
    expect(leaks).toEqual([]);
  });

  it('lets only admins through the admin routes: 403 for the owner and for another user', async () => {
    const leaks: string[] = [];
    for (const [key, access] of Object.entries(ROUTES)) {
      if (access !== 'admin') continue;
      for (const who of [owner, other]) {
        const res = await call(key, who.authToken, owner.id);
        if (res.status !== 403) leaks.push(`${key} as a user: ${res.status}`);
      }
      const res = await call(key, boss.authToken);
      if (res.status === 401 || res.status === 403) leaks.push(`${key} as an admin: ${res.status}`);
    }
    expect(leaks).toEqual([]);
  });

  it('never lets another user read or change what the owner holds', async () => {
    const leaks: string[] = [];
    const bodies: Record<string, Json> = {
      'PATCH /storefronts/{id}': { description: 'taken over' },
      'PATCH /blueprints/{id}': { title: 'Taken over' },
      'PATCH /payout-requests/{id}': { state: 'cancelled' },
      'PATCH /coinbase-charges/{id}': { status: 'CANCELED' },
      'PATCH /wert-charges/{id}': { status: 'canceled' },
      'PATCH /fusd-orders/{id}': { transactionId: 'a'.repeat(64) },
    };
    const owned = Object.entries(ROUTES).filter(([, access]) => access === 'owner');
    expect(owned.map(([key]) => key).sort()).toEqual(Object.keys(ids).sort());
    for (const [key] of owned) {
      for (const who of [other, boss]) {
        // An admin has no business with a buyer's charge or a creator's storefront either, except
        // moving payout requests (tests/api/admin.test.ts).
        if (who === boss && key === 'PATCH /payout-requests/{id}') continue;
        const res = await call(key, who.authToken, ids[key], bodies[key]);
        if (UNTOLD.has(key) ? res.status !== 404 : res.status !== 403 && res.status !== 404)
          leaks.push(`${key} as ${who === boss ? 'admin' : 'another user'}: ${res.status}`);
      }
    }
    expect(leaks).toEqual([]);
    // The owner's things are real and unchanged: the owner reads them (the on-ramp's charges are
    // answered with its widget settings, so with the on-ramp off, as here, even the owner gets 503;
    // another user got 404 above all the same).
    for (const key of owned.map(([k]) => k).filter((k) => k.startsWith('GET '))) {
      const res = await call(key, owner.authToken, ids[key]);
      const expected = key === 'GET /wert-charges/{id}' ? 503 : 200;
      expect([key, res.status]).toEqual([key, expected]);
    }
    const db = t.database.db;
    const [shop] = await db.select().from(storefronts).where(eq(storefronts.id, owner.storefront.id));
    expect(shop!.description).not.toBe('taken over');
    const [payout] = await db
      .select()
      .from(payoutRequests)
      .where(eq(payoutRequests.id, ids['PATCH /payout-requests/{id}']!));
    expect(payout!.state).toBe('created');
    expect(
      await db.select().from(billingInfos).where(eq(billingInfos.id, ids['DELETE /billing-info/{id}']!)),
    ).toHaveLength(1);
  });

  /**
   * The field-level rule: every answer of every GET route, with every path parameter naming one of
   * the owner's things (and the list filters naming the owner), read as anonymous, another user,
   * the owner and an admin. The owner's email, legal name, KYC session, its hosted URL and decision
   * reason, and any private key, reach the owner and admins only.
   */
  it('never shows one user’s private fields to anyone but them and admins', async () => {
    const doc = (await t.request('GET', '/api/openapi.json')).body as { paths: Record<string, Json> };
    const gets = Object.entries(doc.paths)
      .filter(([, methods]) => 'get' in (methods as object))
      .map(([path]) => path)
      // The OpenAPI document names the fields (saleEmails among them), holding no one's data.
      .filter((path) => ROUTES[`GET ${path}`] !== 'dev' && path !== '/openapi.json');
    const params: Record<string, string> = {
      '/users/{id}': owner.id,
      '/storefronts/{id}': owner.storefront.id,
      '/nfts/{id}': ownedNftId,
      '/nfts/{id}/history': ownedNftId,
      '/blueprints/{id}': ids['PATCH /blueprints/{id}']!,
      '/blueprints/{id}/history': ids['PATCH /blueprints/{id}']!,
      ...Object.fromEntries(
        Object.entries(ids)
          .filter(([key]) => key.startsWith('GET '))
          .map(([key, id]) => [key.slice(4), id]),
      ),
    };
    const queries: Record<string, string> = {
      '/nfts': `?ownerId=${owner.id}`,
      '/sales': `?storefrontId=${owner.storefront.id}`,
      '/admin/kyc': `?searchText=${owner.email}`,
    };
    const secrets = [owner.email, ...Object.values(PRIVATE)];
    const seen = async (token: string | undefined) => {
      const found = new Map<string, string[]>();
      for (const path of gets) {
        const url = `/api${path.replace(/\{[^}]+\}/, params[path] ?? ZERO)}${queries[path] ?? ''}`;
        const res = await t.request('GET', url, { token });
        const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? null);
        const leaks = [
          ...secrets.filter((value) => text.toLowerCase().includes(value.toLowerCase())),
          // users/me is the caller's own record: its private keys are theirs.
          ...PRIVATE_KEYS.filter((key) => path !== '/users/me' && text.includes(`"${key}":`)),
        ];
        if (leaks.length > 0) found.set(path, leaks);
      }
      return found;
    };
    for (const [who, token] of [
      ['anonymous', undefined],
      ['another user', other.authToken],
    ] as const) {
      expect([who, Object.fromEntries(await seen(token))]).toEqual([who, {}]);
    }
    // The owner and an admin do read them: the fixture is real, and the walk reaches it.
    const mine = await seen(owner.authToken);
    expect(mine.get('/users/me')).toEqual(expect.arrayContaining(secrets));
    expect(mine.get('/users/{id}')).toEqual(expect.arrayContaining([...secrets, 'kyc']));
    const admins = await seen(boss.authToken);
    expect(admins.get('/users/{id}')).toEqual(expect.arrayContaining([...secrets, 'kyc']));
    expect(admins.get('/admin/kyc')).toEqual(
      expect.arrayContaining([owner.email, PRIVATE.legalFirstName, PRIVATE.legalLastName, PRIVATE.reason]),
    );
    // What the others saw did show the owner: their profile, storefront and NFT are public.
    const profile = await t.request('GET', `/api/users/${owner.id}`, { token: other.authToken });
    expect(profile.body).toMatchObject({ id: owner.id, username: owner.username, email: null });
    expect(profile.body).not.toHaveProperty('kyc');
    const nft = await t.request('GET', `/api/nfts/${ownedNftId}`);
    expect(nft.status).toBe(200);
  });

  it('lets nobody name another user in a list query', async () => {
    for (const path of ['/api/payout-requests', '/api/coinbase-charges', '/api/wert-charges']) {
      const res = await t.request('GET', `${path}?userId=${owner.id}`, { token: other.authToken });
      expect([path, res.status]).toEqual([path, 403]);
    }
    const sales = await t.request('GET', `/api/sales?storefrontId=${owner.storefront.id}`, {
      token: other.authToken,
    });
    expect(sales.status).toBe(403);
  });

  it('answers no unsigned webhook with a 2xx', async () => {
    for (const [key, access] of Object.entries(ROUTES)) {
      if (access !== 'webhook') continue;
      const res = await call(key, undefined, ZERO, {
        id: 'evt_1',
        type: 'payment_approved',
        data: { id: 'pay_1' },
      });
      expect([key, res.status >= 400]).toEqual([key, true]);
    }
  });
});
