/** The card rail's actors (the card service) over the API, against a recorded fetch. */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { CreateCardChargeBody } from '#domain/schemas/checkout';
import type { TokenizeInput } from '../machines/cardPayment';
import { CHARGE_ID, charge, ORDER_ID, TOKEN } from './cardPayment.model';

describe('the card actors over the API', () => {
  /** A fetch that answers by URL and records every request. */
  function fakeFetch(answer: (url: string, init: Request) => Response) {
    const requests: { url: string; method: string; auth: string | null; body: string }[] = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      requests.push({
        url: request.url,
        method: request.method,
        auth: request.headers.get('Authorization'),
        body: request.method === 'GET' ? '' : await request.clone().text(),
      });
      return answer(request.url, request);
    };
    return { fetch: fetch as typeof globalThis.fetch, requests };
  }
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const config = { card: { publicKey: 'pk_sbox_test', apiUrl: 'http://127.0.0.1:8790/' } };
  const tokenInput: TokenizeInput = {
    card: { number: '4242424242424242', expiryMonth: '4', expiryYear: '30', cvv: '100' },
    billing: {
      firstName: 'Grace',
      lastName: undefined,
      addressLine1: '1 Main St',
      addressLine2: undefined,
      city: 'New York',
      state: 'NY',
      country: 'US',
      zipCode: '10001',
      phoneNumber: { countryCode: '1', number: '212 555 0123' },
    },
  };

  async function service(answer: (url: string) => Response) {
    const { createApi } = await import('../src/services/api');
    const { cardService } = await import('../src/services/cards');
    const { fetch, requests } = fakeFetch(answer);
    const api = createApi({
      baseUrl: 'http://app.test/api',
      getToken: () => 'session',
      onUnauthorized: () => {},
      fetch,
    });
    return { cards: cardService(api, { fetch }), requests };
  }

  it('tokenizes at the provider’s origin with its public key; the card never goes to our server', async () => {
    const { cards, requests } = await service((url) =>
      url.endsWith('/config/payments')
        ? json(config)
        : json(
            { type: 'card', token: TOKEN, scheme: 'Visa', last4: '4242', expiry_month: 4, expiry_year: 2030 },
            201,
          ),
    );
    expect(await cards.tokenize(tokenInput)).toEqual({ token: TOKEN, scheme: 'VISA', last4: '4242' });
    expect(requests.map((r) => [r.method, r.url, r.auth])).toEqual([
      ['GET', 'http://app.test/api/config/payments', 'Bearer session'],
      ['POST', 'http://127.0.0.1:8790/tokens', 'Bearer pk_sbox_test'],
    ]);
    expect(JSON.parse(requests[1]!.body)).toMatchObject({
      type: 'card',
      number: '4242424242424242',
      expiry_month: 4,
      expiry_year: 2030,
      cvv: '100',
      name: 'Grace',
      billing_address: {
        address_line1: '1 Main St',
        city: 'New York',
        state: 'NY',
        zip: '10001',
        country: 'US',
      },
      phone: { country_code: '+1', number: '212 555 0123' },
    });
    expect(
      requests.filter((r) => r.url.startsWith('http://app.test') && r.body.includes('4242424242424242')),
    ).toEqual([]);
    await cards.tokenize(tokenInput);
    expect(requests.filter((r) => r.url.endsWith('/config/payments'))).toHaveLength(1);
  });

  it('refuses a brand the provider reports other than Visa, Mastercard or Discover, and turns refusals into codes', async () => {
    const amex = await service((url) =>
      url.endsWith('/config/payments')
        ? json(config)
        : json({ token: TOKEN, scheme: 'Amex', last4: '0005' }, 201),
    );
    await expect(amex.cards.tokenize(tokenInput)).rejects.toMatchObject({ body: { code: 'CARD_TYPE' } });
    const invalid = await service((url) =>
      url.endsWith('/config/payments') ? json(config) : json({ error_codes: ['card_number_invalid'] }, 422),
    );
    await expect(invalid.cards.tokenize(tokenInput)).rejects.toMatchObject({
      body: { code: 'INVALID_VALUE', field: 'cardNumber' },
    });
    const off = await service(() => json({ card: null }));
    await expect(off.cards.tokenize(tokenInput)).rejects.toMatchObject({
      body: { code: 'PAYMENT_PROVIDER' },
    });
  });

  it('reads a 502 of POST checkout-com-charges as PAYMENT_PROVIDER, not as a network failure to retry', async () => {
    const { cards } = await service(() => json({ code: 'PAYMENT_PROVIDER', message: '' }, 502));
    const error = await cards.createCharge({} as CreateCardChargeBody).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, body: { code: 'PAYMENT_PROVIDER' } });
  });

  it('finds the order’s charge among the charges waiting for 3-D Secure', async () => {
    const { createApi } = await import('../src/services/api');
    const { cardActors } = await import('../src/services/cards');
    const { fetch, requests } = fakeFetch((url) =>
      url.includes('checkout-com-charges?unresolved=true')
        ? json({ results: [charge('challenge')] })
        : json({}),
    );
    const actors = cardActors(
      createApi({ baseUrl: 'http://app.test/api', getToken: () => null, onUnauthorized: () => {}, fetch }),
    );
    const find = (orderId: string) =>
      new Promise((resolve) => {
        const actor = createActor(actors.findCharge, { input: { orderId } });
        actor.subscribe({ complete: () => resolve(actor.getSnapshot().output) });
        actor.start();
      });
    expect(await find(ORDER_ID)).toMatchObject({ id: CHARGE_ID, orderId: ORDER_ID });
    expect(await find('another-order')).toBeNull();
    expect(requests.map((r) => [r.method, r.url])).toEqual([
      ['GET', 'http://app.test/api/checkout-com-charges?unresolved=true'],
      ['GET', 'http://app.test/api/checkout-com-charges?unresolved=true'],
    ]);
  });
});
