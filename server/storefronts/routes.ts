import { randomBytes } from 'node:crypto';
import { ErrorCode } from '#domain/errors';
import { ShareLinks, StorefrontJson, StorefrontPage, StorefrontReport } from '#domain/responses/catalog';
import {
  IdParams,
  StorefrontKeyParams,
  StorefrontListQuery,
  StorefrontReportInput,
  StorefrontShareQuery,
} from '#domain/schemas/catalog';
import { generatedVanityUrl, StorefrontCreateInput, StorefrontPatchInput } from '#domain/schemas/storefronts';
import { assertOwnUpload } from '../assets/uploads';
import { sendAnswer } from '../catalog/cache';
import { storefrontJson } from '../catalog/json';
import { uniqueViolation } from '../db';
import type { Services } from '../deps';
import { apiError, badRequest, defineRoute, forbidden, notFound, type Route } from '../http';
import { statsByStorefront } from '../stats/queries';
import {
  findStorefront,
  insertReport,
  insertStorefront,
  listStorefronts,
  storefrontByIdOrVanityUrl,
  storefrontOfOwner,
  updateStorefront,
} from './queries';
import { shareLinks } from './rules';

/** A storefront's public address: /s/{vanityUrl} on the site. */
const publicUrl = (s: Services, vanityUrl: string) =>
  new URL(`/s/${encodeURIComponent(vanityUrl)}`, s.config.publicUrl).href;

/** Storefronts, reports of storefronts, and the share query (is a name or address free?). */
export function storefrontRoutes(s: Services): Route[] {
  return [...storefrontReadRoutes(s), ...storefrontWriteRoutes(s), ...storefrontShareRoutes(s)];
}

/** Reading storefronts: the list, the caller's and one by id. */
function storefrontReadRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/storefronts',
      tag: 'storefronts',
      summary:
        'Enabled storefronts by name search, categories and whether they have items, sorted by created date or volume (all time), each with its stats; paged by from/to',
      query: StorefrontListQuery,
      response: StorefrontPage,
      responses: { 200: '{ results, total }', 400: 'Invalid filter' },
      async handler(c, { query }) {
        const key = `storefronts ${JSON.stringify(query)}`;
        const make = async () => {
          const { rows, total } = await listStorefronts(s.db, query);
          const stats = await statsByStorefront(
            s.db,
            rows.map((r) => r.id),
          );
          const results = [];
          for (const row of rows)
            results.push({ ...(await storefrontJson(s.db, row)), stats: stats.get(row.id)! });
          return JSON.stringify({ results, total: Number(total) });
        };
        return sendAnswer(c, await s.catalogCache.answer(key, make));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/storefronts/me',
      tag: 'storefronts',
      auth: 'required',
      summary: 'The caller’s storefront (404 when the caller has none)',
      response: StorefrontJson,
      responses: { 200: 'the storefront', 401: 'Not logged in', 404: 'No storefront yet' },
      async handler(c) {
        const row = await storefrontOfOwner(s.db, c.get('user')!.id);
        if (!row) throw notFound();
        return c.json(await storefrontJson(s.db, row));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/storefronts/{id}',
      tag: 'storefronts',
      auth: 'optional',
      summary: 'A storefront by id or by vanity URL (a disabled one only for its owner)',
      params: StorefrontKeyParams,
      response: StorefrontJson,
      responses: { 200: 'the storefront', 404: 'No such storefront' },
      async handler(c, { params }) {
        const row = await storefrontByIdOrVanityUrl(s.db, params.id);
        if (!row || (!row.enabled && c.get('user')?.id !== row.ownerId)) throw notFound();
        return c.json(await storefrontJson(s.db, row));
      },
    }),
  ];
}

/** Creating and changing a storefront. */
function storefrontWriteRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/storefronts',
      tag: 'storefronts',
      auth: 'required',
      summary:
        'Creates the caller’s storefront (one per user): name 2–50 (unique), bio 2–2000, contact email; vanity URL generated from the name unless given',
      body: StorefrontCreateInput,
      response: StorefrontJson,
      responses: {
        201: 'the storefront',
        400: 'Invalid field (INVALID_VANITY_URL for the vanity URL), STOREFRONT_EXISTS, STOREFRONT_NAME_EXISTS, VANITY_URL_EXISTS',
        401: 'Not logged in',
      },
      async handler(c, { body }) {
        const user = c.get('user')!;
        await ownUploads(s, user.id, body);
        const vanityUrl = body.vanityUrl ?? generatedVanityUrl(body.name, randomBytes(8).toString('hex'));
        const row = await insertStorefront(s.db, {
          ...body,
          vanityUrl,
          ownerId: user.id,
          at: s.clock(),
        }).catch((err: unknown) => {
          throw uniqueError(err) ?? err;
        });
        s.catalogCache.clear();
        return c.json(await storefrontJson(s.db, row), 201);
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/storefronts/{id}',
      tag: 'storefronts',
      auth: 'required',
      summary: 'Updates the caller’s storefront (any field, and enabled to disable or enable it)',
      params: IdParams,
      body: StorefrontPatchInput,
      response: StorefrontJson,
      responses: {
        200: 'the storefront',
        400: 'Invalid field, STOREFRONT_NAME_EXISTS, VANITY_URL_EXISTS',
        403: 'Not the owner, or STOREFRONT_SUSPENDED: an admin suspended it, so it cannot be enabled',
        404: 'No such storefront',
      },
      async handler(c, { params, body }) {
        const user = c.get('user')!;
        const row = await findStorefront(s.db, params.id);
        if (!row) throw notFound();
        if (row.ownerId !== user.id) throw forbidden();
        if (row.suspended && body.enabled === true) throw apiError(403, ErrorCode.STOREFRONT_SUSPENDED);
        await ownUploads(s, user.id, body);
        const updated = await updateStorefront(s.db, row.id, body, s.clock()).catch((err: unknown) => {
          throw uniqueError(err) ?? err;
        });
        s.catalogCache.clear();
        return c.json(await storefrontJson(s.db, updated));
      },
    }),
  ];
}

/** Reporting a storefront and its share link. */
function storefrontShareRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/storefront-reports',
      tag: 'storefronts',
      auth: 'required',
      summary:
        'Reports a storefront (once per user): reason offensive, illegal, misleading or other; description ≤ 200',
      body: StorefrontReportInput,
      response: StorefrontReport,
      responses: {
        201: 'the report { id, storefrontId, reason, description, status }',
        400: 'Invalid input',
        404: 'No such storefront',
        409: 'ALREADY_REPORTED: the caller has reported this storefront before',
      },
      async handler(c, { body }) {
        if (!(await findStorefront(s.db, body.storefrontId))) throw notFound();
        const report = await insertReport(s.db, { ...body, userId: c.get('user')!.id, at: s.clock() });
        if (!report) throw apiError(409, ErrorCode.ALREADY_REPORTED);
        return c.json(
          {
            id: report!.id,
            storefrontId: report!.storefrontId,
            reason: report!.reason,
            description: report!.description,
            status: report!.status,
            createdAt: report!.createdAt.toISOString(),
          },
          201,
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/queries/storefront-share',
      tag: 'storefronts',
      summary:
        'The public link of a storefront and share links for social networks, with an optional caption',
      query: StorefrontShareQuery,
      response: ShareLinks,
      responses: {
        200: '{ url, text, links: { twitter, facebook, telegram, linkedin, email } }',
        404: 'No such storefront',
      },
      async handler(c, { query }) {
        const row = await findStorefront(s.db, query.storefrontId);
        if (!row?.enabled) throw notFound();
        const url = publicUrl(s, row.vanityUrl);
        return c.json(shareLinks(url, query.caption?.trim() || `${row.name} on Vitrine`));
      },
    }),
  ];
}

/** Unique-constraint failures of storefronts as the API's errors (one storefront per owner, unique names and addresses). */
function uniqueError(err: unknown) {
  switch (uniqueViolation(err)) {
    case 'storefronts_owner_unique':
      return badRequest('STOREFRONT_EXISTS');
    case 'storefronts_name_unique':
      return badRequest('STOREFRONT_NAME_EXISTS', 'name');
    case 'storefronts_vanity_unique':
      return badRequest('VANITY_URL_EXISTS', 'vanityUrl');
    default:
      return undefined;
  }
}

/** Logo and banner must be the caller's own uploads and pass the logo's and the banner's image rules. */
async function ownUploads(
  s: Services,
  userId: string,
  body: { logoUrl?: string | null; bannerUrl?: string | null },
) {
  const kinds = { logoUrl: 'storefrontLogo', bannerUrl: 'storefrontBanner' } as const;
  for (const field of ['logoUrl', 'bannerUrl'] as const) {
    const url = body[field];
    if (url) await assertOwnUpload(s.storage, userId, { field, url, kind: kinds[field] });
  }
}
