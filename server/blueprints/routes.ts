import { and, asc, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { isActiveState } from '#domain/catalog';
import { PUBLIC_STATES } from '#domain/products';
import { BlueprintJson, BlueprintPage, PackJson, PackPage } from '#domain/responses/catalog';
import { BlueprintCreateInput, BlueprintPatchInput } from '#domain/schemas/blueprints';
import { BlueprintListQuery, IdParams, PackListQuery } from '#domain/schemas/catalog';
import { HISTORY_PURCHASES, HistoryAnswer } from '#domain/schemas/history';
import { assertOwnUpload } from '../assets/uploads';
import { sendAnswer } from '../catalog/cache';
import {
  blueprintJson,
  packJson,
  packSummary,
  packSummaryColumns,
  publicPackOf,
  storefrontsById,
} from '../catalog/json';
import {
  blueprintPacks,
  blueprintRegistrations,
  blueprints,
  nftPurchases,
  nfts,
  storefronts,
  users,
} from '../db/schema';
import type { Services } from '../deps';
import { type AppContext, badRequest, defineRoute, forbidden, notFound, type Route } from '../http';
import { creationEntry, purchaseEntry } from '../nfts/history';
import { blueprintListQueries, draftWhere, TOTAL_CAP } from './queries';
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

/** Blueprints, a blueprint's purchase history, and blueprint packs. */
export function blueprintRoutes(s: Services): Route[] {
  /** Whether the caller owns the storefront (owners see their drafts and hidden items). */
  const ownsStorefront = async (c: AppContext, storefrontId: string | undefined) => {
    const user = c.get('user');
    if (!user || !storefrontId) return false;
    const [row] = await s.db
      .select({ id: storefronts.id })
      .from(storefronts)
      .where(and(eq(storefronts.id, storefrontId), eq(storefronts.ownerId, user.id)));
    return !!row;
  };
  /** A visitor sees visible items of enabled storefronts, in public states. */
  const publicView = (b: typeof blueprints.$inferSelect, enabled: boolean) =>
    b.visible && enabled && PUBLIC_STATES.includes(b.state);

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
        const owner = await ownsStorefront(c, query.storefrontId);
        const make = async () => {
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
        };
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
        const [row] = await s.db
          .select({ blueprint: blueprints, storefront: storefronts, pack: packSummaryColumns })
          .from(blueprints)
          .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
          .leftJoin(blueprintPacks, publicPackOf)
          .where(eq(blueprints.id, params.id));
        if (!row) throw notFound();
        if (
          !publicView(row.blueprint, row.storefront.enabled) &&
          c.get('user')?.id !== row.storefront.ownerId
        )
          throw notFound();
        return c.json(blueprintJson(row.blueprint, row.storefront, row.pack));
      },
    }),
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
        const [storefront] = await s.db.select().from(storefronts).where(eq(storefronts.ownerId, user.id));
        if (!storefront) throw badRequest('NO_STOREFRONT');
        await ownBlueprintUploads(s, user.id, body);
        const now = s.clock();
        const [row] = await s.db
          .insert(blueprints)
          .values({
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
          })
          .returning();
        return c.json(blueprintJson(row!, storefront), 201);
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
        const [found] = await s.db
          .select({ blueprint: blueprints, storefront: storefronts })
          .from(blueprints)
          .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
          .where(eq(blueprints.id, params.id));
        if (!found) throw notFound();
        if (found.storefront.ownerId !== user.id) throw forbidden();
        const b = found.blueprint;
        const [registration] = await s.db
          .select({ status: blueprintRegistrations.status })
          .from(blueprintRegistrations)
          .where(eq(blueprintRegistrations.blueprintId, b.id));
        const draft =
          DRAFT_STATES.includes(b.state) &&
          b.status === null &&
          !(registration && ON_CHAIN_JOBS.includes(registration.status));
        const { visible, status, state, optimizePreview: _p, optimizeAsset: _a, ...content } = body;
        const edits = Object.keys(content).length > 0;
        const changes: Partial<typeof blueprints.$inferInsert> = {};
        // Each rule is checked here for its error, and again in the UPDATE's WHERE, so that a
        // concurrent publish or edit cannot slip between the check and the write.
        const guards: SQL[] = [];
        if (edits) {
          if (!draft) throw badRequest('BLUEPRINT_LOCKED');
          await ownBlueprintUploads(s, user.id, content);
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
          guards.push(inArray(blueprints.state, HIDEABLE_STATES));
        }
        if (state === 'canceled') {
          if (!isActiveState(b.state)) throw badRequest('BLUEPRINT_STATE', 'state');
          changes.state = 'canceled';
          guards.push(inArray(blueprints.state, ['active', 'printed']));
        }
        const updated = await s.db.transaction(async (tx) => {
          const [row] = await tx
            .update(blueprints)
            .set({ ...changes, updatedAt: s.clock() })
            .where(and(eq(blueprints.id, b.id), ...guards))
            .returning();
          // Another request changed it first.
          if (!row) throw badRequest(edits ? 'BLUEPRINT_LOCKED' : 'BLUEPRINT_STATE');
          if (status === 'readyToSell') {
            // The publishing job; one that failed starts over.
            await tx
              .insert(blueprintRegistrations)
              .values({ blueprintId: b.id, flowBlueprintId: b.flowBlueprintId, createdAt: s.clock() })
              .onConflictDoUpdate({
                target: blueprintRegistrations.blueprintId,
                set: {
                  status: 'pending',
                  attempts: 0,
                  error: null,
                  transactionId: null,
                  updatedAt: s.clock(),
                },
                setWhere: eq(blueprintRegistrations.status, 'failed'),
              });
          }
          if (state === 'canceled') {
            // A registered sale is closed on chain too (nothing to close for one never registered).
            await tx
              .update(blueprintRegistrations)
              .set({ closeStatus: 'pending', updatedAt: s.clock() })
              .where(
                and(
                  eq(blueprintRegistrations.blueprintId, b.id),
                  eq(blueprintRegistrations.status, 'sealed'),
                ),
              );
          }
          return row;
        });
        if (status === 'readyToSell') await s.publisher?.publish(b.id);
        if (state === 'canceled') await s.publisher?.close(b.id);
        s.catalogCache.clear();
        return c.json(blueprintJson(updated, found.storefront));
      },
    }),
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
        const [row] = await s.db
          .select({ blueprint: blueprints, storefront: storefronts, owner: users })
          .from(blueprints)
          .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
          .innerJoin(users, eq(users.id, storefronts.ownerId))
          .where(eq(blueprints.id, params.id));
        if (!row || !publicView(row.blueprint, row.storefront.enabled)) throw notFound();
        const purchases = await s.db
          .select({ purchase: nftPurchases, nft: nfts, buyer: users })
          .from(nftPurchases)
          .innerJoin(nfts, eq(nfts.id, nftPurchases.nftId))
          .leftJoin(users, eq(users.id, nftPurchases.buyerId))
          .where(eq(nfts.blueprintId, row.blueprint.flowBlueprintId))
          .orderBy(desc(nftPurchases.purchasedOn))
          .limit(HISTORY_PURCHASES);
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
        const where: SQL[] = [
          eq(blueprintPacks.visible, true),
          eq(storefronts.enabled, true),
          ne(blueprintPacks.state, 'created'),
        ];
        if (query.storefrontId) where.push(eq(blueprintPacks.storefrontId, query.storefrontId));
        if (query.type) where.push(eq(blueprintPacks.type, query.type));
        if (query.states) where.push(inArray(blueprintPacks.state, query.states));
        const filter = and(...where);
        const rows = await s.db
          .select({ pack: blueprintPacks, storefront: storefronts })
          .from(blueprintPacks)
          .innerJoin(storefronts, eq(storefronts.id, blueprintPacks.storefrontId))
          .where(filter)
          .orderBy(desc(blueprintPacks.createdAt), asc(blueprintPacks.id))
          .offset(query.from - 1)
          .limit(query.to - query.from + 1);
        const [{ total }] = (await s.db
          .select({ total: sql<number>`count(*)::int` })
          .from(blueprintPacks)
          .innerJoin(storefronts, eq(storefronts.id, blueprintPacks.storefrontId))
          .where(filter)) as [{ total: number }];
        return c.json({
          results: rows.map((r) => packJson(r.pack, r.storefront, [])),
          total: Number(total),
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
        const [row] = await s.db
          .select({ pack: blueprintPacks, storefront: storefronts })
          .from(blueprintPacks)
          .innerJoin(storefronts, eq(storefronts.id, blueprintPacks.storefrontId))
          .where(eq(blueprintPacks.id, params.id));
        if (!row?.pack.visible || row.pack.state === 'created' || !row.storefront.enabled) throw notFound();
        const items = await s.db
          .select()
          .from(blueprints)
          .where(eq(blueprints.blueprintPackId, row.pack.id))
          .orderBy(asc(blueprints.createdAt), asc(blueprints.id));
        const byId = await storefrontsById(
          s.db,
          items.map((b) => b.storefrontId),
        );
        return c.json(
          packJson(
            row.pack,
            row.storefront,
            items.map((b) => blueprintJson(b, byId.get(b.storefrontId) ?? null, packSummary(row.pack))),
          ),
        );
      },
    }),
  ];
}
