import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApi } from '../../src/services/api';
import { firstLoadAnswers, recordingFetch } from '../../src/services/firstLoad';

/** A small API on the contract's paths: counts its calls, answers a list, a missing storefront (404) and a write. */
function server() {
  const calls: string[] = [];
  const app = new Hono();
  app.use(async (c, next) => {
    calls.push(`${c.req.method} ${new URL(c.req.url).pathname}${new URL(c.req.url).search}`);
    await next();
  });
  app.get('/api/storefronts', (c) => c.json({ results: [{ id: 1, q: c.req.query('search') ?? null }] }));
  app.get('/api/storefronts/:id', (c) => c.json({ code: 'not_found', message: 'No such item' }, 404));
  app.post('/api/storefronts', (c) => c.json({ id: 2 }, 201));
  return {
    calls,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      app.fetch(new Request(input, init))) as typeof fetch,
  };
}

const apiOver = (
  fetch: typeof globalThis.fetch,
  baseUrl: string,
  answered?: (url: string) => string | undefined,
) => createApi({ baseUrl, fetch, answered, getToken: () => null, onUnauthorized: () => {} });

describe('the first load of a server-rendered page', () => {
  it('notes the successful GET answers the server read, by path and query', async () => {
    const api = server();
    const { fetch, answers } = recordingFetch(api.fetch);
    const client = apiOver(fetch, 'http://vitrine.internal/api');
    expect(await client.get('/storefronts', { query: { search: 'aria' } })).toEqual({
      results: [{ id: 1, q: 'aria' }],
    });
    await expect(client.get('/storefronts/{id}', { params: { id: '9' } })).rejects.toMatchObject({
      status: 404,
    });
    await client.post('/storefronts', { json: { title: 'x' } });
    expect(Object.keys(answers)).toEqual(['/api/storefronts?search=aria']);
    expect(JSON.parse(answers['/api/storefronts?search=aria']!)).toEqual({ results: [{ id: 1, q: 'aria' }] });
  });

  it('answers the browser’s same GET from the note once, then asks the API again', async () => {
    const server1 = server();
    const { fetch: recording, answers } = recordingFetch(server1.fetch);
    await apiOver(recording, 'http://vitrine.internal/api').get('/storefronts', {
      query: { search: 'aria', page: 2, mine: true },
    });

    const browser = server();
    const client = apiOver(browser.fetch, 'http://localhost:3000/api', firstLoadAnswers(answers));
    expect(await client.get('/storefronts', { query: { search: 'aria', page: 2, mine: true } })).toEqual({
      results: [{ id: 1, q: 'aria' }],
    });
    expect(browser.calls).toEqual([]);
    // Another query, a write and the same GET again all reach the API.
    await client.get('/storefronts', { query: { search: 'night' } });
    await client.post('/storefronts', { json: { title: 'x' } });
    await client.get('/storefronts', { query: { search: 'aria', page: 2, mine: true } });
    expect(browser.calls).toEqual([
      'GET /api/storefronts?search=night',
      'POST /api/storefronts',
      'GET /api/storefronts?search=aria&page=2&mine=true',
    ]);
  });
});
