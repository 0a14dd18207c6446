import type { SQL } from 'drizzle-orm';
import type * as v from 'valibot';
import { isActiveState } from '#domain/catalog';
import { PUBLIC_STATES } from '#domain/products';
import { BlueprintJson, BlueprintPage, PackJson, PackPage } from '#domain/responses/catalog';
import { BlueprintCreateInput, BlueprintPatchInput } from '#domain/schemas/blueprints';
import { BlueprintListQuery, IdParams, PackListQuery } from '#domain/schemas/catalog';
import { HISTORY_PURCHASES, HistoryAnswer } from '#domain/schemas/history';
import { assertOwnUpload } from '../assets/uploads';
import { sendAnswer } from '../catalog/cache';
import { blueprintJson, packJson, packSummary } from '../catalog/json';
import type { blueprints } from '../db/schema';
import type { Services } from '../deps';
import { badRequest, defineRoute, forbidden, notFound, type Route } from '../http';
import { creationEntry, purchaseEntry } from '../nfts/history';
import {
  blueprintListQueries,
  blueprintToEdit,
  blueprintWithOwner,
  blueprintWithStorefront,
  cancelableWhere,
  draftWhere,
  hideableWhere,
  insertBlueprint,
  latestPurchases,
  ownsStorefront,
  packItems,
  packWithStorefront,
  storefrontOwnedBy,
  TOTAL_CAP,
  updateBlueprint,
  visiblePacks,
} from './queries';
import { DRAFT_STATES, HIDEABLE_STATES, ON_CHAIN_JOBS } from './rules';

/**
 * Previews and assets are files the caller uploaded, and they pass the rules of their kind
 * (type, size, dimensions), whatever kind they were uploaded as.
 */
async function ownBlueprintUploads(
  s: Services,
  userId: string,
  body: { previewImageUrl?: string; assetUrl?: string },
) {
  const rules = {
    previewImageUrl: { code: 'preview_required', kind: 'blueprintPreviewImage' },
    assetUrl: { code: 'asset_required', kind: 'blueprintAsset' },
  } as const;
  for (const field of ['previewImageUrl', 'assetUrl'] as const) {
    const url = body[field];
    if (url === undefined) continue;
    const { code, kind } = rules[field];
    await assertOwnUpload(s.storage, userId, { field, url, kind, notOwnCode: code });
  }
}

/** A visitor sees visible items of enabled storefronts, in public states. */
const publicView = (b: typeof blueprints.$inferSelect, enabled: boolean) =>
  b.visible && enabled && PUBLIC_STATES.includes(b.state);

/** Blueprints, a blueprint's purchase history, and blueprint packs. */
export function blueprintRoutes(s: Services): Route[] {
  return [...blueprintReadRoutes(s), ...blueprintWriteRoutes(s), ...packRoutes(s)];
}

/** A list of blueprints and one blueprint. */
function blueprintReadRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/blueprints',
      tag: 'blueprints',
      auth: 'optional',
      summary:
        'Blueprints by storefront, states, visibility, title search, price range (cents) and storefront categories, sorted; paged by from/to',
      query: BlueprintListQuery,
      response: BlueprintPage,
      responses: {
        200: '{ results, total, totalCapped, available?, availableCapped? } (total exact up to 10,000; with countAvailable=true, available: how many of the matches can be bought or claimed now, exact up to 10,000)',
        400: 'Invalid filter',
      },
      async handler(c, { query }) {
        const user = c.get('user');
        // Owners see their drafts and hidden items.
        const owner =
          !!user && !!query.storefrontId && (await ownsStorefront(s.db, query.storefrontId, user.id));
        const make = () => blueprintListAnswer(s, query, owner);
        // A storefront owner's view (drafts, hidden items) is never cached.
        if (owner) return c.body(await make(), 200, { 'Content-Type': 'application/json' });
        return sendAnswer(c, await s.catalogCache.answer(`blueprints ${JSON.stringify(query)}`, make));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/blueprints/{id}',
      tag: 'blueprints',
      auth: 'optional',
      summary: 'A blueprint with its storefront (drafts and hidden items only for the storefront owner)',
      params: IdParams,
      response: BlueprintJson,
      responses: { 200: 'the blueprint', 404: 'No such blueprint' },
      async handler(c, { params }) {
        const row = await blueprintWithStorefront(s.db, params.id);
        if (!row) throw notFound();
        if (
          !publicView(row.blueprint, row.storefront.enabled) &&
          c.get('user')?.id !== row.storefront.ownerId
        )
          throw notFound();
        return c.json(blueprintJson(row.blueprint, row.storefront, row.pack));
      },
    }),
  ];
}

/** Adding a draft and editing, publishing, hiding or canceling a blueprint. */
function blueprintWriteRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/blueprints',
      tag: 'blueprints',
      auth: 'required',
      summary:
        'Adds a draft to the caller’s storefront: title 1–200, description 1–2000, price 1–1,000,000 cents, quantity 1–10,000, preview and asset (the caller’s uploads); standalone, not a drop',
      body: BlueprintCreateInput,
      response: BlueprintJson,
      responses: {
        201: 'the blueprint (state created)',
        400: 'Invalid field, preview_required, asset_required, NO_STOREFRONT',
        401: 'Not logged in',
      },
      async handler(c, { body }) {
        const user = c.get('user')!;
        const storefront = await storefrontOwnedBy(s.db, user.id);
        if (!storefront) throw badRequest('NO_STOREFRONT');
        await ownBlueprintUploads(s, user.id, body);
        const now = s.clock();
        const row = await insertBlueprint(s.db, {
          storefrontId: storefront.id,
          title: body.title,
          description: body.description,
          price: body.price,
          quantity: body.quantity,
          quantityAvailable: body.quantity,
          royaltyPercent: body.royaltyPercent,
          totalFeePercent: s.config.platformFeePercent,
          previewImageUrl: body.previewImageUrl,
          assetUrl: body.assetUrl,
          type: 'standalone',
          drop: false,
          createdAt: now,
          updatedAt: now,
        });
        return c.json(blueprintJson(row, storefront), 201);
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/blueprints/{id}',
      tag: 'blueprints',
      auth: 'required',
      summary:
        'The owner edits a draft (content fields), publishes it (status readyToSell), hides or shows an item (visible) or cancels an active one for good (state canceled)',
      params: IdParams,
      body: BlueprintPatchInput,
      response: BlueprintJson,
      responses: {
        200: 'the blueprint',
        400: 'Invalid field, BLUEPRINT_LOCKED (not a draft any more), BLUEPRINT_STATE (not possible in this state)',
        401: 'Not logged in',
        403: 'Not the owner',
        404: 'No such blueprint',
      },
      async handler(c, { params, body }) {
        const user = c.get('user')!;
        const found = await blueprintToEdit(s.db, params.id);
        if (!found) throw notFound();
        if (found.storefront.ownerId !== user.id) throw forbidden();
        const b = found.blueprint;
        const plan = await patchPlan(s, user.id, found, body);
        const updated = await updateBlueprint(s.db, b, plan, s.clock);
        // Another request changed it first.
        if (!updated) throw badRequest(plan.edits ? 'BLUEPRINT_LOCKED' : 'BLUEPRINT_STATE');
        if (plan.publish) await s.publisher?.publish(b.id);
        if (plan.cancel) await s.publisher?.close(b.id);
        s.catalogCache.clear();
        return c.json(blueprintJson(updated, found.storefront));
      },
    }),
  ];
}

/** A blueprint's purchase history, and blueprint packs. */
function packRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/blueprints/{id}/history',
      tag: 'blueprints',
      summary: 'The blueprint’s history: its creation and its newest purchases (10), newest first',
      params: IdParams,
      response: HistoryAnswer,
      responses: {
        200: '{ results: [{ id, type: creation|purchase, user, seriesNumber, createdAt }] }',
        404: 'No such blueprint',
      },
      async handler(c, { params }) {
        const row = await blueprintWithOwner(s.db, params.id);
        if (!row || !publicView(row.blueprint, row.storefront.enabled)) throw notFound();
        const purchases = await latestPurchases(s.db, row.blueprint.flowBlueprintId, HISTORY_PURCHASES);
        const results = [
          ...purchases.map(({ purchase, nft, buyer }) => purchaseEntry(purchase, buyer, nft.serialNumber)),
          creationEntry(`creation-${row.blueprint.id}`, row, null, row.blueprint.createdAt),
        ];
        return c.json({ results });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/blueprint-packs',
      tag: 'blueprints',
      summary: 'Visible blueprint packs by storefront, type and states; paged by from/to',
      query: PackListQuery,
      response: PackPage,
      responses: { 200: '{ results, total }', 400: 'Invalid filter' },
      async handler(c, { query }) {
        const { rows, total } = await visiblePacks(s.db, query);
        return c.json({
          results: rows.map((r) => packJson(r.pack, r.storefront, [])),
          total,
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/blueprint-packs/{id}',
      tag: 'blueprints',
      summary: 'A blueprint pack with its blueprints and storefront',
      params: IdParams,
      response: PackJson,
      responses: { 200: 'the pack', 404: 'No such pack' },
      async handler(c, { params }) {
        const row = await packWithStorefront(s.db, params.id);
        if (!row?.pack.visible || row.pack.state === 'created' || !row.storefront.enabled) throw notFound();
        const { items, storefrontOf } = await packItems(s.db, row.pack.id);
        return c.json(
          packJson(
            row.pack,
            row.storefront,
            items.map((b) =>
              blueprintJson(b, storefrontOf.get(b.storefrontId) ?? null, packSummary(row.pack)),
            ),
          ),
        );
      },
    }),
  ];
}

/** GET /blueprints' answer: a page, its total (exact up to TOTAL_CAP) and, if asked, how many can be bought now. */
async function blueprintListAnswer(s: Services, query: BlueprintListQuery, owner: boolean) {
  const { rows, total, available } = await blueprintListQueries(s.db, query, owner, s.clock()).run();
  const capped = total > TOTAL_CAP;
  return JSON.stringify({
    results: rows.map((r) =>
      blueprintJson(r.blueprint, query.withStorefront === false ? null : r.storefront, r.pack),
    ),
    total: capped ? TOTAL_CAP : total,
    totalCapped: capped,
    ...(available !== undefined && {
      available: Math.min(available, TOTAL_CAP),
      availableCapped: available > TOTAL_CAP,
    }),
  });
}

/**
 * What a PATCH writes, after its rules: content edits and publishing only while the blueprint is a
 * draft (not published, no publishing job on chain); hiding or showing only in HIDEABLE_STATES;
 * canceling only an active item. Each rule is checked here for its error, and again in the UPDATE's
 * WHERE (`guards`), so that a concurrent publish or edit cannot slip between the check and the write.
 */
async function patchPlan(
  s: Services,
  userId: string,
  found: { blueprint: typeof blueprints.$inferSelect; registration: string | null },
  body: v.InferOutput<typeof BlueprintPatchInput>,
) {
  const b = found.blueprint;
  const draft =
    DRAFT_STATES.includes(b.state) &&
    b.status === null &&
    !(found.registration !== null && (ON_CHAIN_JOBS as readonly string[]).includes(found.registration));
  const { visible, status, state, optimizePreview: _p, optimizeAsset: _a, ...content } = body;
  const edits = Object.keys(content).length > 0;
  const changes: Partial<typeof blueprints.$inferInsert> = {};
  const guards: SQL[] = [];
  if (edits) {
    if (!draft) throw badRequest('BLUEPRINT_LOCKED');
    await ownBlueprintUploads(s, userId, content);
    Object.assign(changes, content);
    if (content.quantity !== undefined) changes.quantityAvailable = content.quantity;
  }
  if (status === 'readyToSell') {
    if (!draft) throw badRequest('BLUEPRINT_STATE', 'status');
    changes.status = 'readyToSell';
  }
  if (edits || status === 'readyToSell') guards.push(draftWhere);
  if (visible !== undefined) {
    if (!HIDEABLE_STATES.includes(b.state)) throw badRequest('BLUEPRINT_STATE', 'visible');
    changes.visible = visible;
    guards.push(hideableWhere);
  }
  if (state === 'canceled') {
    if (!isActiveState(b.state)) throw badRequest('BLUEPRINT_STATE', 'state');
    changes.state = 'canceled';
    guards.push(cancelableWhere);
  }
  return { changes, guards, edits, publish: status === 'readyToSell', cancel: state === 'canceled' };
}
