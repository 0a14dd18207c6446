import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { noContent } from '#domain/responses/common';
import { BlueprintListQuery } from '#domain/schemas/catalog';
import { CreateFusdOrderBody } from '#domain/schemas/fusd';
import { NftListQuery } from '#domain/schemas/nfts';
import { WertChargeListQuery } from '#domain/schemas/wert';
import { BIGINT_ID_MAX, decimalAtMost, UINT64_MAX } from '#domain/validation';
import { openApiDocument } from '../../server/openapi';

/**
 * The OpenAPI document states what the server accepts where a pipe changes its input's type (see
 * `documented`): each stated shape is checked here against the valibot schema that enforces it.
 */

const route = (query: v.GenericSchema, body?: v.GenericSchema) =>
  openApiDocument(
    [
      {
        method: body ? 'post' : 'get',
        path: '/x',
        summary: 'x',
        tag: 'x',
        auth: 'none',
        query,
        body,
        responses: { 200: 'ok' },
        response: noContent,
        handler: () => new Response(),
      },
    ],
    '0',
  ).paths['/x']!;

const param = (query: v.GenericSchema, name: string) =>
  (route(query).get ?? route(query).post)!.parameters.find((p) => p.name === name)!.schema as Record<
    string,
    unknown
  >;

describe('decimalAtMost', () => {
  for (const max of [UINT64_MAX, BIGINT_ID_MAX, 100n, 7n, 10n, 1000n]) {
    it(`matches exactly the decimal strings of 0 to ${max}`, () => {
      const re = new RegExp(decimalAtMost(max));
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: max * 3n + 10n }), fc.nat(3), (n, zeros) => {
          const text = '0'.repeat(zeros) + n.toString();
          expect(re.test(text)).toBe(text.length <= 20 && n <= max);
        }),
        { numRuns: 2_000 },
      );
      expect(re.test(max.toString())).toBe(true);
      expect(re.test((max + 1n).toString())).toBe(false);
      expect(re.test('')).toBe(false);
      expect(re.test('-1')).toBe(false);
    });
  }
});

describe('the document states the accepted input of transformed query values', () => {
  it('a page bound is an integer with its range', () => {
    expect(param(BlueprintListQuery, 'from')).toEqual({ type: 'integer', minimum: 1, maximum: 999_999_999 });
    expect(param(BlueprintListQuery, 'min')).toEqual({ type: 'integer', minimum: 0, maximum: 999_999_999 });
    for (const ok of ['1', '42', '999999999'])
      expect(v.safeParse(BlueprintListQuery, { from: ok, to: ok }).success).toBe(true);
    for (const bad of ['0', '1000000000', '-1', '1.5', ''])
      expect(v.safeParse(BlueprintListQuery, { from: bad }).success).toBe(false);
  });

  it('a comma-separated list is a pattern of its values', () => {
    const states = new RegExp(param(BlueprintListQuery, 'states').pattern as string);
    const statuses = new RegExp(param(WertChargeListQuery, 'statuses').pattern as string);
    const ids = new RegExp(param(WertChargeListQuery, 'blueprintIds').pattern as string);
    const userId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const cases: [RegExp, v.GenericSchema, string, Record<string, string>, boolean][] = [
      [states, BlueprintListQuery, 'states', {}, true],
      [statuses, WertChargeListQuery, 'statuses', { userId }, false],
      [ids, WertChargeListQuery, 'blueprintIds', { userId }, false],
    ];
    const samples = ['', 'active', 'active,soldOut', ' active , printed ', 'active,,', 'nope', 'created'];
    const uuids = [userId, `${userId},${userId.toUpperCase()}`, `${userId},x`, 'x'];
    for (const [re, schema, key, rest, trims] of cases) {
      for (const text of [...samples, ...uuids]) {
        const accepted = v.safeParse(schema, { ...rest, [key]: text }).success;
        expect(re.test(text), `${key}=${JSON.stringify(text)}`).toBe(accepted);
        if (!trims && text.includes(' ')) expect(accepted).toBe(false);
      }
    }
  });

  it('an id is a decimal string up to its maximum or a whole JSON number up to 2^53 − 1', () => {
    const blueprintId = param(NftListQuery, 'blueprintId') as { anyOf: Record<string, unknown>[] };
    expect(blueprintId.anyOf[1]).toEqual({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
    expect(v.safeParse(NftListQuery, { blueprintId: String(BIGINT_ID_MAX) }).success).toBe(true);
    expect(v.safeParse(NftListQuery, { blueprintId: String(BIGINT_ID_MAX + 1n) }).success).toBe(false);
  });

  it('"exactly one of" two fields is a oneOf of required keys', () => {
    const schema = route(v.object({}), CreateFusdOrderBody).post!.requestBody!.content['application/json']
      .schema as Record<string, unknown>;
    expect(schema.oneOf).toEqual([{ required: ['blueprintId'] }, { required: ['blueprintPackId'] }]);
  });

  it('free text says it holds no NUL', () => {
    expect(param(BlueprintListQuery, 'search')).toMatchObject({ type: 'string', pattern: '^[^\\x00]*$' });
  });
});
