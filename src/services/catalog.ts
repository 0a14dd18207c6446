import { ApiError } from '#domain/apiError';
import type { BlueprintFilter, StorefrontFilter } from '#domain/filters';
import type { CreateStorefrontInput } from '#domain/ports/catalog';
import type { BlueprintCreateInput, BlueprintPatchInput } from '#domain/schemas/blueprints';
import type { StorefrontPatchInput } from '#domain/schemas/storefronts';
import type { Api } from './api';

const list = (values?: string[]) => (values?.length ? values.join(',') : undefined);

/** The catalog part of the product API (storefronts, blueprints, packs, reports, share). */
export function catalogService(api: Api) {
  return {
    blueprints: (f: BlueprintFilter = {}) =>
      api.get('/blueprints', {
        query: {
          search: f.search || undefined,
          min: f.min,
          max: f.max,
          storefrontCategories: list(f.storefrontCategories),
          storefrontId: f.storefrontId,
          states: list(f.states),
          visible: f.visible,
          countAvailable: f.countAvailable,
          'sort[column]': f.sort,
          'sort[direction]': f.direction,
          from: f.from,
          to: f.to,
        },
      }),
    blueprint: (id: string) => api.get('/blueprints/{id}', { params: { id } }),
    history: (id: string) => api.get('/blueprints/{id}/history', { params: { id } }),
    pack: (id: string) => api.get('/blueprint-packs/{id}', { params: { id } }),
    packs: (storefrontId?: string) => api.get('/blueprint-packs', { query: { storefrontId } }),
    storefronts: (f: StorefrontFilter = {}) =>
      api.get('/storefronts', {
        query: {
          search: f.search || undefined,
          categories: list(f.categories),
          hasBlueprints: true,
          'sort[column]': f.sort,
          'sort[direction]': f.direction,
          from: f.from,
          to: f.to,
        },
      }),
    storefront: (key: string) => api.get('/storefronts/{id}', { params: { id: key } }),
    /** A storefront's sales figures (floor, volume, owners, listed). */
    stats: (id: string) => api.get('/storefronts/{id}/stats', { params: { id } }),
    /** Home's "Trending now" and "Top storefronts this week". */
    homeTrending: () => api.get('/home/trending'),
    /** The caller's storefront, or null when they have none. */
    myStorefront: () =>
      api.get('/storefronts/me').catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }),
    createStorefront: (input: CreateStorefrontInput) => api.post('/storefronts', { json: input }),
    createBlueprint: (body: BlueprintCreateInput) => api.post('/blueprints', { json: body }),
    updateBlueprint: (id: string, body: BlueprintPatchInput) =>
      api.patch('/blueprints/{id}', { params: { id }, json: body }),
    /** PATCH storefronts/{id}: the owner's changes (any field, and enabled). */
    updateStorefront: (id: string, patch: StorefrontPatchInput) =>
      api.patch('/storefronts/{id}', { params: { id }, json: patch }),
    share: (storefrontId: string, caption?: string) =>
      api.get('/queries/storefront-share', { query: { storefrontId, caption } }),
    report: (input: { storefrontId: string; reason: string; description: string }) =>
      api.post('/storefront-reports', { json: input }),
  };
}
