import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AnswerOf } from '#domain/contract';
import type { NftJson } from '#domain/nft';
import type { SalesPage } from '#domain/responses/sales';
import { createApi } from '../../src/services/api';

/**
 * The browser's client is typed by the API's contract (domain/contract.ts): a call names a route
 * the server declares, and its answer is the output of that route's response schema.
 */

describe('the typed API client', () => {
  it('types each answer from its route’s response schema', () => {
    expectTypeOf<AnswerOf<'get', '/nfts/{id}'>>().toEqualTypeOf<NftJson>();
    expectTypeOf<AnswerOf<'get', '/sales'>>().toEqualTypeOf<SalesPage>();
    expectTypeOf<AnswerOf<'get', '/sales/ledger.csv'>>().toEqualTypeOf<string>();
    expectTypeOf<AnswerOf<'delete', '/billing-info/{id}'>>().toEqualTypeOf<undefined>();
  });

  it('fills path parameters encoded, sends the query and JSON body, reads JSON with dates revived and text as text', async () => {
    const asked: string[] = [];
    const api = createApi({
      baseUrl: 'http://vitrine.test/api',
      getToken: () => null,
      onUnauthorized: () => {},
      fetch: async (input, init) => {
        const request = new Request(input, init);
        asked.push(`${request.method} ${request.url} ${request.body ? await request.text() : ''}`.trim());
        if (request.url.endsWith('.csv?storefrontId=s1'))
          return new Response('a,b\n', { headers: { 'Content-Type': 'text/csv' } });
        if (request.method === 'DELETE') return new Response(null, { status: 204 });
        return Response.json({ id: 'x', createdAt: '2026-01-31T12:00:00.000Z' });
      },
    });
    const nft = await api.get('/nfts/{id}', { params: { id: 'a/b c' } });
    expect((nft as unknown as { createdAt: Date }).createdAt).toBeInstanceOf(Date);
    await api.patch('/storefronts/{id}', { params: { id: 's1' }, json: { name: 'N' } });
    expect(await api.get('/sales/ledger.csv', { query: { storefrontId: 's1' } })).toBe('a,b\n');
    expect(await api.delete('/billing-info/{id}', { params: { id: 'c1' } })).toBeUndefined();
    await api.get('/blueprints', { query: { search: 'aria', min: undefined } });
    expect(asked).toEqual([
      'GET http://vitrine.test/api/nfts/a%2Fb%20c',
      'PATCH http://vitrine.test/api/storefronts/s1 {"name":"N"}',
      'GET http://vitrine.test/api/sales/ledger.csv?storefrontId=s1',
      'DELETE http://vitrine.test/api/billing-info/c1',
      'GET http://vitrine.test/api/blueprints?search=aria',
    ]);
  });
});
