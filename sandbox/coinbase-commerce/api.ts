import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { isHttpUrl } from '../http';
import { type ChargeStore, chargeJson, statusOf } from './store';
import { CHARGE_TTL_MS, type Charge, centsOf, MISSING_VERSION_WARNING, newAddresses, newCode } from './types';

const warningsOf = (c: Context) => (c.req.header('X-CC-Version') ? [] : [MISSING_VERSION_WARNING]);
const apiError = (c: Context, status: 400 | 401 | 404, type: string, message: string) =>
  c.json({ error: { type, message }, warnings: warningsOf(c) }, status);
const invalid = (c: Context, message: string) => apiError(c, 400, 'invalid_request', message);
const notFound = (c: Context) => apiError(c, 404, 'not_found', 'Not found');

/**
 * The Charge API (`X-CC-Api-Key`): create, read, cancel and resolve. A GET without the key is a
 * person's browser asking for the hosted page, which `hostedPage` answers.
 */
export function apiRoutes(
  app: Hono,
  options: {
    apiKey: string;
    now: () => Date;
    origin: () => string;
    hostedPages: () => boolean;
    store: ChargeStore;
    hostedPage: (c: Context) => Response | Promise<Response>;
  },
) {
  const { apiKey, now, store, hostedPage } = options;
  const { charges, codes, setStatus, find } = store;
  const keyOk = (c: Context) => c.req.header('X-CC-Api-Key') === apiKey;
  const unauthorized = (c: Context) => apiError(c, 401, 'authorization_error', 'No such API key.');

  app.post('/charges', async (c) => {
    if (!keyOk(c)) return unauthorized(c);
    // biome-ignore lint/suspicious/noExplicitAny: a request body read field by field, each checked
    const body = (await c.req.json().catch(() => null)) as Record<string, any> | null;
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return invalid(c, 'Request body must be a JSON object');
    if (typeof body.name !== 'string' || !body.name.trim() || body.name.length > 100)
      return invalid(c, 'name is required, 100 characters or less');
    if (typeof body.description !== 'string' || body.description.length > 200)
      return invalid(c, 'description is required, 200 characters or less');
    if (body.pricing_type !== 'fixed_price')
      return invalid(c, 'pricing_type must be fixed_price (the only kind this sandbox prices)');
    const price = body.local_price;
    const cents = centsOf(price?.amount);
    if (cents === null || cents <= 0)
      return invalid(c, 'local_price.amount must be a positive decimal string, e.g. "12.50"');
    if (price.currency !== 'USD') return invalid(c, 'local_price.currency must be USD');
    const metadata = body.metadata ?? {};
    if (typeof metadata !== 'object' || Array.isArray(metadata) || metadata === null)
      return invalid(c, 'metadata must be an object');
    for (const [key, value] of Object.entries(metadata))
      if (typeof value !== 'string') return invalid(c, `metadata.${key} must be a string`);
    for (const field of ['redirect_url', 'cancel_url'] as const)
      if (body[field] !== undefined && body[field] !== null && !isHttpUrl(body[field]))
        return invalid(c, `${field} must be an http(s) URL`);

    let code = newCode();
    while (codes.has(code)) code = newCode();
    const createdAt = now();
    const charge: Charge = {
      id: randomUUID(),
      code,
      name: body.name,
      description: body.description,
      amount: cents,
      metadata: { ...(metadata as Record<string, string>) },
      redirectUrl: body.redirect_url ?? null,
      cancelUrl: body.cancel_url ?? null,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + CHARGE_TTL_MS),
      confirmedAt: null,
      hosted: options.hostedPages(),
      timeline: [],
      payments: [],
      addresses: newAddresses(),
    };
    charges.set(charge.id, charge);
    codes.set(code, charge.id);
    setStatus(charge, 'NEW');
    return c.json({ data: chargeJson(charge, options.origin()), warnings: warningsOf(c) }, 201);
  });

  app.get('/charges/:idOrCode', (c) => {
    // No API key: a person's browser asking for the hosted page.
    if (c.req.header('X-CC-Api-Key') === undefined) return hostedPage(c);
    if (!keyOk(c)) return unauthorized(c);
    const charge = find(c.req.param('idOrCode'));
    if (!charge) return notFound(c);
    return c.json({ data: chargeJson(charge, options.origin()), warnings: warningsOf(c) });
  });

  app.post('/charges/:idOrCode/cancel', (c) => {
    if (!keyOk(c)) return unauthorized(c);
    const charge = find(c.req.param('idOrCode'));
    if (!charge) return notFound(c);
    if (statusOf(charge) !== 'NEW')
      return invalid(c, `Only a NEW charge can be canceled; this one is ${statusOf(charge)}`);
    setStatus(charge, 'CANCELED');
    return c.json({ data: chargeJson(charge, options.origin()), warnings: warningsOf(c) });
  });

  app.post('/charges/:idOrCode/resolve', (c) => {
    if (!keyOk(c)) return unauthorized(c);
    const charge = find(c.req.param('idOrCode'));
    if (!charge) return notFound(c);
    if (statusOf(charge) !== 'UNRESOLVED')
      return invalid(c, `Only an UNRESOLVED charge can be resolved; this one is ${statusOf(charge)}`);
    setStatus(charge, 'RESOLVED');
    return c.json({ data: chargeJson(charge, options.origin()), warnings: warningsOf(c) });
  });
}
