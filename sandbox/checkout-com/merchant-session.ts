import { createHmac, randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { MERCHANT_SESSION_TTL_MS } from './types';

/**
 * Apple Pay's merchant validation, as Apple's gateway answers it (`POST /applepay/paymentSession`:
 * an opaque merchant session that expires after 5 minutes), for the embedded world, where the
 * server asks the sandbox instead of Apple.
 */
export function merchantSessionRoutes(app: Hono, now: () => Date) {
  const hex = (n: number) => randomBytes(n).toString('hex');
  app.post('/applepay/paymentSession', async (c) => {
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    const refuse = (message: string) =>
      c.json({ statusCode: '400', statusMessage: `Payment Services Exception ${message}` }, 400);
    if (!body) return refuse('request body is not JSON');
    const { merchantIdentifier, displayName } = body;
    if (typeof merchantIdentifier !== 'string' || !merchantIdentifier.trim())
      return refuse('merchantIdentifier is missing');
    if (typeof displayName !== 'string' || !displayName.trim() || displayName.length > 64)
      return refuse('displayName must be 1 to 64 characters');
    // Today's form names the initiative; the older one only the domain.
    const domain = body.initiative !== undefined ? body.initiativeContext : body.domainName;
    if (body.initiative !== undefined && body.initiative !== 'web')
      return refuse(`initiative ${String(body.initiative)} is not supported`);
    if (typeof domain !== 'string' || !/^[a-z0-9.-]+$/i.test(domain))
      return refuse('initiativeContext must be the domain of the page');
    const merchantHash = createHmac('sha256', 'merchant')
      .update(merchantIdentifier)
      .digest('hex')
      .toUpperCase();
    const created = now().getTime();
    return c.json({
      epochTimestamp: created,
      expiresAt: created + MERCHANT_SESSION_TTL_MS,
      merchantSessionIdentifier: `SSH${hex(16).toUpperCase()}_${hex(32).toUpperCase()}`,
      nonce: hex(4),
      merchantIdentifier: merchantHash,
      domainName: domain,
      displayName,
      signature: randomBytes(96).toString('base64'),
      operationalAnalyticsIdentifier: `${displayName}:${merchantHash}`,
      retries: 0,
      pspId: merchantHash,
    });
  });
}
