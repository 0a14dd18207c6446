import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, errorTexts, retryable, serverWordedCodes } from '#domain/errors';
import { ERROR_KEY } from '#domain/validation';

/**
 * The error-code list (domain/errorCodes.ts) is complete: every code the server can answer (in an error
 * body, or as an order's failure code) is in it, and each has an English text. A code written into
 * server code, a schema's message or an image rule that is not in the list fails here.
 */

const ROOT = join(import.meta.dirname, '../..');
const known = new Set<string>(Object.values(ErrorCode));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    // Migrations hold SQL and the seed writes sample data: neither answers a request.
    if (statSync(path).isDirectory()) return name === 'migrations' || name === 'seed' ? [] : sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Where a server module names the code it answers: in a helper's first argument or a body's `code`. */
const CODE_PLACES = [
  /\b(?:badRequest|failureOf)\(\s*'([^']+)'/g,
  /\bapiError\(\s*\d+\s*,\s*'([^']+)'/g,
  /\b(?:code|failureCode):\s*'([^']+)'/g,
];

function serverCodes(): Map<string, string> {
  const found = new Map<string, string>();
  for (const path of sources(join(ROOT, 'server'))) {
    const text = readFileSync(path, 'utf8');
    for (const place of CODE_PLACES) {
      for (const m of text.matchAll(place)) found.set(m[1]!, relative(ROOT, path));
    }
  }
  return found;
}

/**
 * The codes of the schemas' messages: a message is an error key, "CODE" or "CODE.field", a length
 * rule's with its limits ("CODE.field?maxLength=200").
 */

function schemaCodes(): Map<string, string> {
  const modules = import.meta.glob<Record<string, unknown>>('../../domain/schemas/*.ts', { eager: true });
  const found = new Map<string, string>();
  const seen = new Set<unknown>();
  const walk = (node: unknown, where: string): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    const o = node as Record<string, unknown>;
    const key = typeof o.message === 'string' ? ERROR_KEY.exec(o.message) : null;
    if (key) found.set(key[1]!, where);
    for (const key of ['pipe', 'entries', 'options', 'wrapped', 'item', 'items', 'key', 'value', 'rest']) {
      const child = o[key];
      if (Array.isArray(child)) for (const c of child) walk(c, where);
      else if (child && typeof child === 'object') {
        if (key === 'entries') for (const c of Object.values(child)) walk(c, where);
        else walk(child, where);
      }
    }
  };
  for (const [path, module] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(module)) walk(value, `${path} ${name}`);
  }
  return found;
}

/** The codes an image rule answers (domain/assets.ts `checkImage`). */
function imageCodes(): Map<string, string> {
  const text = readFileSync(join(ROOT, 'domain/assets.ts'), 'utf8');
  return new Map([...text.matchAll(/return '([A-Za-z_]+)'/g)].map((m) => [m[1]!, 'domain/assets.ts']));
}

describe('the error-code list', () => {
  it('finds codes where the server writes them (the scan itself works)', () => {
    const server = serverCodes();
    expect(server.get('unavailable')).toBeDefined();
    expect(server.get('preview_required')).toBe('server/blueprints/routes.ts');
    expect(schemaCodes().get('EMAIL_MISSING')).toBeDefined();
    expect(schemaCodes().get('INVALID_VALUE')).toBeDefined();
    expect(imageCodes().get('IMAGE_ASPECT')).toBe('domain/assets.ts');
  });

  it.each([
    ['server code', serverCodes],
    ['schema messages', schemaCodes],
    ['image rules', imageCodes],
  ] as const)('holds every code of the %s', (_, codes) => {
    const missing = [...codes()]
      .filter(([code]) => !known.has(code))
      .map(([code, where]) => `${code} (${where})`);
    expect(missing).toEqual([]);
  });

  it('has an English text for every code the server does not word itself', () => {
    const without = [...known].filter(
      (code) => !(`errors.${code}` in errorTexts) && !serverWordedCodes.has(code),
    );
    expect(without).toEqual([]);
  });
});

describe('retry', () => {
  it('is offered after failures a retry may get past, never after the server refused the request', () => {
    for (const code of ['NETWORK_FAILURE', 'unknown', 'unavailable', 'RATE_LIMITED', 'PAYMENT_PROVIDER'])
      expect(retryable({ code }), code).toBe(true);
    for (const code of ['CLAIM_BLUEPRINT', 'SOLD_OUT', 'NOT_PURCHASABLE', 'WALLET_REQUIRED', 'not_found'])
      expect(retryable({ code }), code).toBe(false);
    expect(retryable(null)).toBe(false);
  });
});
