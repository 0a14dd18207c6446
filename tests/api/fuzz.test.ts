import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { blueprintStates, packStates } from '#domain/enums';
import { nfts, saleListings } from '../../server/db/schema';
import { nulField } from '../../server/http';
import { insertBlueprint } from '../../server/seed/factory';
import {
  approveKyc,
  databases,
  type Json,
  provenWallet,
  randomAddress,
  register,
  type TestApi,
  useTestApp,
} from './support/harness';

/**
 * No input makes a 500: property-based requests to every route the OpenAPI document lists (the
 * same declarations mount the routes), anonymous and with a registered user's token. Every path
 * parameter, query key and JSON body field gets either a plausible value (from its schema, or an id
 * of the fixtures) or an odd one: NUL, lone surrogates, very long text, numbers past 64 bits either
 * way, fractions, exponents and NaN-like words, in a deterministic sweep (every field in turn set to
 * each of the pen test's inputs and their kin). Random requests to every route are schemathesis's
 * (scripts/contract.ts); multipart forms, which it does not generate, get random ones here.
 *
 * The random forms are seeded (FUZZ_SEED, FUZZ_RUNS to change them); a failure names the request and the
 * counterexample, and fast-check prints the seed and path that replay it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);
const RUNS = Number(process.env.FUZZ_RUNS ?? 50);

type JsonSchema = {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};
interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: JsonSchema;
}

/** JSON text sent as is: numbers JSON.stringify cannot write (1e400, 30 digits), deep nesting. */
class RawJson {
  constructor(readonly text: string) {}
}
const ABSENT = Symbol('absent');
const letters = () =>
  randomBytes(4)
    .toString('hex')
    .replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]!);

function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Percent-encodes text for a URL; a lone surrogate (no UTF-8 form) goes as its WTF-8 bytes. */
function encode(text: string): string {
  let out = '';
  for (const ch of text) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      out += `%${[0xed, 0xa0 | ((ch.charCodeAt(0) >> 6) & 0x0f), 0x80 | (ch.charCodeAt(0) & 0x3f)]
        .map((b) => b.toString(16).toUpperCase())
        .join('%')}`;
    }
  }
  return out;
}

/* ---- Odd inputs ---- */

const oddText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  {
    // PostgreSQL text cannot hold NUL: the likeliest text to reach the database and fail there.
    weight: 3,
    arbitrary: fc
      .tuple(fc.string({ unit: 'grapheme', maxLength: 10 }), fc.string({ unit: 'binary', maxLength: 10 }))
      .map(([a, b]) => `${a}\u0000${b}`),
  },
  fc.constantFrom(
    '\u0000',
    '\ud800',
    'a\udfffb',
    '\uffff\ufffe',
    '\u{10ffff}',
    '\u202e',
    "'; drop table users; --",
    '%',
    '_',
    '\\',
    '%00',
    '%C0%80',
    '../..',
    '',
    ' ',
    'null',
    'true',
    '[]',
    '{}',
  ),
  fc
    .tuple(fc.integer({ min: 1_000, max: 30_000 }), fc.constantFrom('x', 'é', '🙂', '\u0000'))
    .map(([n, c]) => c.repeat(n)),
);
/** Numbers as text: past 64 bits (signed and unsigned) either way, fractions, exponents, words. */
const oddNumberText = fc.oneof(
  fc.constantFrom(
    '9223372036854775807',
    '9223372036854775808',
    '18446744073709551615',
    '18446744073709551616',
    '9007199254740992',
    '-9223372036854775809',
    '99999999999999999999999999999',
    '00000000000000000001',
    '-1',
    '-0',
    '0',
    '1e309',
    '-1e309',
    '1e21',
    '0.5',
    '1.0',
    'NaN',
    'Infinity',
    '-Infinity',
    '0x10',
    '1_000',
    ' 1',
    '1 ',
    '+1',
    '١٢٣',
  ),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.double().map(String),
  fc.integer().map(String),
);
const oddString = fc.oneof(oddText, oddNumberText);
/** JSON nested 100,000 deep: a parser that recurses would overflow its stack. */
const DEEP_JSON = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
/** Whole bodies that are not a JSON object, or barely one. */
const HUGE = `{"x":"${'x'.repeat(3_200_000)}"}`;
const ODD_BODIES = [
  '',
  ' ',
  '[]',
  'null',
  '"x"',
  '1e400',
  '{',
  '{"a":1,}',
  '\u0000',
  '{"__proto__":{"x":1}}',
  HUGE,
  DEEP_JSON,
];
/** Raw query text a well-behaved client never sends. */
const RAW_QUERIES = ['&', '%', '%ZZ', '%C0%80', '&=&', 'a[]=1&a[]=2', '=x', '&from&to'];
/** Authorization headers no session has: anonymous callers send each of them once per route. */
const BAD_AUTHORIZATION = [
  'Bearer',
  'Bearer ',
  'Basic YTpi',
  `Bearer ${'a'.repeat(10_000)}`,
  'Bearer a.b.c',
  'Bearer \u00ff\u00fe',
];

/* ---- Plausible inputs ---- */

type Pools = Record<string, string[]>;

function regexOf(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/** A value the schema may accept (or nearly): its enums, formats and patterns, or a fixture's id. */
function plausible(name: string, schema: JsonSchema, pools: Pools, asText: boolean): fc.Arbitrary<unknown> {
  const pool = pools[name];
  const own = ownValue(schema, asText);
  return pool?.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pool) }, own) : own;
}

function ownValue(schema: JsonSchema, asText: boolean): fc.Arbitrary<unknown> {
  const text = (a: fc.Arbitrary<unknown>) => (asText ? a.map(String) : a);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => ownValue(s, asText)));
  switch (schema.type) {
    case 'boolean':
      return text(fc.boolean());
    case 'null':
      return asText ? fc.constant('') : fc.constant(null);
    case 'integer':
      return text(
        fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 100_000, 2 ** 31) }),
      );
    case 'number':
      return text(fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000, noNaN: true }));
  }
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'email')
    return fc.emailAddress().filter((e) => e.length <= (schema.maxLength ?? 100));
  if (schema.format === 'date-time') {
    return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  }
  const regex = schema.pattern ? regexOf(schema.pattern) : undefined;
  if (regex) return fc.stringMatching(regex, { size: 'small' });
  return fc.string({
    unit: 'grapheme',
    minLength: schema.minLength ?? 0,
    maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 30, 60)),
  });
}

interface FuzzRequest {
  url: string;
  body?: string;
}

type Where = 'path' | 'query' | 'body';
interface Field {
  where: Where;
  name: string;
  schema: JsonSchema;
  required: boolean;
}

function fieldsOf(op: Operation): Field[] {
  return [
    ...op.parameters.map((p) => ({
      where: p.in,
      name: p.name,
      schema: p.schema,
      required: p.required || p.in === 'path',
    })),
    ...Object.entries(op.body?.properties ?? {}).map(([name, schema]) => ({
      where: 'body' as const,
      name,
      schema,
      required: (op.body?.required ?? []).includes(name),
    })),
  ];
}
const keyOf = (f: Field) => `${f.where}:${f.name}`;

interface Extras {
  /** Query keys and body fields the operation does not declare. */
  extraQuery: Record<string, string>;
  extraBody: Record<string, unknown>;
  rawQuery: string;
  /** none: no body; object: the fields as a JSON object; else this body text as is. */
  body: 'none' | 'object' | { text: string };
}

/** The request of these field values (by keyOf; ABSENT leaves a field out) and extras. */
function build(op: Operation, values: Record<string, unknown>, extras: Extras): FuzzRequest {
  const fields = fieldsOf(op);
  const of = (where: Where) =>
    Object.fromEntries(
      fields
        .filter((f) => f.where === where && values[keyOf(f)] !== undefined && values[keyOf(f)] !== ABSENT)
        .map((f) => [f.name, values[keyOf(f)]]),
    );
  const path = of('path');
  const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = path[name];
    return value === undefined ? '' : encode(String(Array.isArray(value) ? value[0] : value));
  });
  const pairs: string[] = [];
  for (const [name, value] of Object.entries({ ...extras.extraQuery, ...of('query') })) {
    for (const one of Array.isArray(value) ? value : [value])
      pairs.push(`${encode(name)}=${encode(String(one))}`);
  }
  if (extras.rawQuery) pairs.push(extras.rawQuery);
  const body =
    extras.body === 'none'
      ? undefined
      : extras.body === 'object'
        ? jsonText({ ...extras.extraBody, ...of('body') })
        : extras.body.text;
  return { url: `/api${url}${pairs.length ? `?${pairs.join('&')}` : ''}`, body };
}

/** The values every field gets in turn in the sweep: the inputs of the pen test, and their kin. */
const SWEEP_TEXT = ['a\u0000b', '\u0000', '\ud800', 'é'.repeat(5_000)];
const SWEEP_NUMBERS = [
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551616',
  '-9223372036854775809',
  '-1',
  '1.5',
  'NaN',
];
const SWEEP_JSON = [
  2 ** 63,
  2 ** 64,
  -1,
  0.5,
  new RawJson('1e400'),
  new RawJson('123456789012345678901234567890'),
];

/**
 * A deterministic sweep of one operation: its required fields plausible (the same values each
 * time), and each field in turn, required or not, set to each sweep value.
 */
function sweep(op: Operation, pools: Pools): FuzzRequest[] {
  const fields = fieldsOf(op);
  const baseline: Record<string, unknown> = {};
  for (const f of fields) {
    if (!f.required) continue;
    [baseline[keyOf(f)]] = fc.sample(plausible(f.name, f.schema, pools, f.where !== 'body'), {
      seed: SEED,
      numRuns: 1,
    });
  }
  const extras: Extras = { extraQuery: {}, extraBody: {}, rawQuery: '', body: op.body ? 'object' : 'none' };
  const out: FuzzRequest[] = [build(op, baseline, extras)];
  for (const f of fields) {
    const values =
      f.where === 'body'
        ? [...SWEEP_TEXT, ...SWEEP_NUMBERS, ...SWEEP_JSON]
        : [...SWEEP_TEXT, ...SWEEP_NUMBERS];
    for (const value of values) out.push(build(op, { ...baseline, [keyOf(f)]: value }, extras));
  }
  for (const rawQuery of RAW_QUERIES) out.push(build(op, baseline, { ...extras, rawQuery }));
  // Keys the operation does not declare, named and valued oddly.
  const extraQuery = { '\u0000': 'x', é: '\ud800', [`${'k'.repeat(300)}`]: '1' };
  const extraBody = { '\u0000': 1, '\ud800': ['x'], constructor: { prototype: { x: 1 } } };
  out.push(build(op, baseline, { ...extras, extraQuery, extraBody }));
  if (op.method !== 'get')
    for (const text of ODD_BODIES) out.push(build(op, baseline, { ...extras, body: { text } }));
  return out;
}

/* ---- The walk ---- */

function operationsOf(doc: Json): Operation[] {
  return Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method,
      path,
      parameters: (op.parameters ?? []) as Parameter[],
      body: op.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined,
    })),
  );
}

async function send(t: TestApi, method: string, req: FuzzRequest, authorization?: string) {
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  const res = await t.app.request(req.url, { method: method.toUpperCase(), headers, body: req.body });
  return { status: res.status, text: await res.text() };
}

/**
 * A server error fails the property, except exactly 503 `unavailable`: routes that need the chain
 * say so without one, and these tests run without a chain.
 */
function assertNoServerError(
  t: TestApi,
  method: string,
  req: FuzzRequest,
  res: { status: number; text: string },
) {
  if (res.status < 500) return;
  if (res.status === 503) {
    try {
      if (JSON.parse(res.text).code === 'unavailable') return;
    } catch {
      // not the chain's 503
    }
  }
  const logged = t.logged.at(-1);
  throw new Error(
    `${method.toUpperCase()} ${req.url.slice(0, 300)} answered ${res.status}: ${res.text.slice(0, 300)}\n` +
      `server log: ${String((logged?.[1] as Error | undefined)?.message ?? logged).slice(0, 500)}`,
  );
}

describe.each(databases)('no input makes a 500 on %s', (database) => {
  const t = useTestApp(database);
  let operations: Operation[] = [];
  const pools: Pools = {};
  let user: Awaited<ReturnType<typeof register>>;
  let token = '';

  beforeAll(async () => {
    operations = operationsOf((await t.request('GET', '/api/openapi.json')).body);
    // Fixtures, so that plausible ids reach past the 404s: a seller with a storefront, an item,
    // an NFT with a listing, and an upload URL.
    const wallet = await provenWallet(t);
    user = await register(t, { ...wallet, cid: 'dev-wallet' });
    token = user.authToken;
    await approveKyc(t, user.id);
    const storefront = (
      await t.request('POST', '/api/storefronts', {
        token,
        body: { name: 'Fuzz Shop', description: 'Odd inputs welcome.', contactEmail: user.email },
      })
    ).body;
    const blueprint = await insertBlueprint(t.database.db, {
      storefrontId: storefront.id,
      title: 'Fuzz Item',
      price: 500,
      quantity: 5,
    });
    const nftId = String(BigInt(`0x${randomBytes(6).toString('hex')}`));
    await t.database.db.insert(nfts).values({
      id: nftId,
      blueprintId: blueprint.flowBlueprintId,
      serialNumber: 1,
      owner: wallet.walletAddress,
      status: 'forSale',
    });
    const [listing] = await t.database.db
      .insert(saleListings)
      .values({ blockchainListingId: '7', seller: wallet.walletAddress, nftId, price: 1000 })
      .returning();
    const upload = await t.request(
      'GET',
      '/api/assets/upload-url?mimeType=image/png&objectKey=fuzz.png&assetKind=userAvatar',
      { token },
    );
    const uploadToken = String(upload.body.url).split('/api/assets/uploads/')[1]!;
    Object.assign(pools, {
      id: [storefront.id, storefront.vanityUrl, blueprint.id, nftId, listing!.id, user.id],
      storefrontId: [storefront.id],
      blueprintId: [blueprint.id, String(blueprint.flowBlueprintId)],
      ownerId: [user.id],
      userId: [user.id],
      flowBlueprintId: [String(blueprint.flowBlueprintId)],
      nftSeriesNumber: ['1'],
      blockchainListingId: [listing!.blockchainListingId],
      walletAddress: [wallet.walletAddress],
      owner: [wallet.walletAddress],
      email: [user.email, ...Array.from({ length: 5 }, () => `fuzz_${letters()}@example.com`)],
      contactEmail: [user.email],
      password: [user.password],
      token: [uploadToken],
      uploadUrl: [upload.body.url],
      from: ['1', '2'],
      to: ['2', '50'],
      page: ['1', '2'],
      categories: ['music', 'music,gaming'],
      storefrontCategories: ['music', 'digitalArt,music'],
      states: [blueprintStates.join(','), packStates.join(','), 'active'],
      search: ['fuzz', 'Fuzz Shop', '100%_'],
      username: [`fuzz_${letters()}`],
      firstName: ['Ada'],
      lastName: ['Lovelace'],
      name: [`Fuzz ${letters()}`],
      description: ['Odd inputs welcome.'],
      title: ['Fuzzed item'],
      previewImageUrl: [`/media/uploads/${user.id}/fuzz.png`],
      assetUrl: [`/media/uploads/${user.id}/fuzz.png`],
      logoUrl: [`/media/uploads/${user.id}/fuzz.png`],
      avatarUrl: [`/media/uploads/${user.id}/fuzz.png`],
    } satisfies Pools);
  });

  /** A fresh session when a walked route (e.g. logging out) ended the previous one. */
  async function ensureSession() {
    if ((await t.request('GET', '/api/users/me', { token })).status === 200) return;
    const login = await t.request('POST', '/api/auth/logins', {
      body: { email: user.email, password: user.password },
      headers: { 'x-test-address': randomAddress() },
    });
    expect(login.status).toBe(200);
    token = login.body.authToken;
  }

  it('walks every declared route', () => {
    // The walk covers what the document lists; the document lists every mounted route.
    expect(operations.length).toBeGreaterThanOrEqual(45);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining([
        'get /storefronts',
        'get /nfts',
        'post /storefront-reports',
        'post /image-jobs',
      ]),
    );
  });

  // Random requests to every route are schemathesis's part (npm test runs it over the same
  // document, valid and invalid data, every check); this suite keeps the pen test's inputs.
  for (const caller of ['anonymous', 'signed-in'] as const) {
    // Hundreds of requests in one test: several seconds alone, more on a loaded 2-core machine.
    it(`answers odd input to every route below 500 (${caller})`, { timeout: 300_000 }, async () => {
      for (const op of operations) {
        if (caller === 'signed-in') await ensureSession();
        const authorization = caller === 'anonymous' ? undefined : `Bearer ${token}`;
        const requests = sweep(op, pools);
        for (const req of requests) {
          assertNoServerError(t, op.method, req, await send(t, op.method, req, authorization));
        }
        if (caller === 'anonymous') {
          for (const header of BAD_AUTHORIZATION) {
            assertNoServerError(t, op.method, requests[0]!, await send(t, op.method, requests[0]!, header));
          }
        }
      }
    });
  }

  it('answers odd multipart forms to POST /api/image-jobs below 500', { timeout: 60_000 }, async () => {
    await ensureSession();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const part = fc.oneof(
      oddString,
      fc.constantFrom(...pools.uploadUrl!),
      fc.uint8Array({ maxLength: 64 }).map((bytes) => new Blob([png, bytes], { type: 'image/png' })),
    );
    const form = fc.record({
      file: fc.option(part, { nil: undefined }),
      uploadUrl: fc.option(part, { nil: undefined }),
      quality: fc.option(fc.oneof(oddNumberText, part), { nil: undefined }),
      name: oddText,
      extra: fc.dictionary(oddText, oddString, { maxKeys: 2 }),
    });
    const raw = fc.constantFrom(
      '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n\u0000\r\n--x--',
      '--x\r\n\r\n',
      'garbage',
      '',
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(form, raw), async (input) => {
        let body: FormData | string;
        const headers: Record<string, string> = { authorization: `Bearer ${token}` };
        if (typeof input === 'string') {
          body = input;
          headers['content-type'] = 'multipart/form-data; boundary=x';
        } else {
          body = new FormData();
          for (const [key, value] of Object.entries({ ...input.extra, ...input })) {
            if (value === undefined || key === 'extra' || key === 'name') continue;
            if (value instanceof Blob) body.append(key, value, input.name.replaceAll('\u0000', ''));
            else body.append(key, String(value));
          }
        }
        const res = await t.app.request('/api/image-jobs', { method: 'POST', headers, body });
        assertNoServerError(
          t,
          'post',
          { url: '/api/image-jobs' },
          { status: res.status, text: await res.text() },
        );
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
  });

  it('refuses NUL in any text a route reads with 400 INVALID_VALUE naming the field', async () => {
    const cases: [string, string, unknown, string][] = [
      ['GET', '/api/storefronts?search=a%00b', undefined, 'search'],
      ['GET', '/api/users/%00', undefined, 'id'],
      [
        'POST',
        '/api/storefront-reports',
        { storefrontId: pools.storefrontId![0], reason: 'other', description: '\u0000' },
        'description',
      ],
      ['PATCH', '/api/users/me', { firstName: 'Ada', lastName: 'n\u0000' }, 'lastName'],
    ];
    for (const [method, path, body, fieldName] of cases) {
      const res = await t.request(method, path, { token, body });
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({
        code: 'INVALID_VALUE',
        field: fieldName,
        message: expect.any(String),
      });
    }
  });

  it('ignores NUL in what no route reads: undeclared keys and repeated query values', async () => {
    const cases: [string, string, unknown][] = [
      ['GET', '/api/storefronts?search=ok&search=b%00', undefined],
      ['GET', '/api/blueprints?a%00b=1', undefined],
      ['PATCH', '/api/users/me', { firstName: 'Ada', extra: { deep: ['ok', 'n\u0000'] }, 'k\u0000': 1 }],
    ];
    for (const [method, path, body] of cases) {
      const res = await t.request(method, path, { token, body });
      expect(res.status, path).toBe(200);
    }
  });
});

describe('nulField', () => {
  it('names the first text holding NUL at any depth, keys included, without recursion limits', () => {
    expect(nulField({ a: 'ok', b: ['x', { c: 'y\u0000' }] })).toBe('b.1.c');
    expect(nulField({ 'k\u0000': 1 })).toBe('k\u0000');
    expect(nulField('\u0000')).toBe('body');
    expect(nulField({ a: 'ok', n: 1, z: null })).toBeUndefined();
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(nulField({ deep })).toBe(`deep${'.0'.repeat(200_000)}`);
  });
});
