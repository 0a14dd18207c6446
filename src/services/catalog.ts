import { ApiError } from '#domain/apiError';
import type { BlueprintJson, HistoryItem, PackJson, Page, StorefrontJson } from '#domain/catalog';
import type { BlueprintFilter, ShareLinks, StorefrontFilter } from '#domain/filters';
import type { CreateStorefrontInput } from '#domain/ports/catalog';
import type { BlueprintCreateInput, BlueprintPatchInput } from '#domain/schemas/blueprints';
import type { StorefrontPatchInput } from '#domain/schemas/storefronts';
import type { Api } from './api';

const list = (values?: string[]) => (values?.length ? values.join(',') : undefined);

/** The catalog part of the product API (storefronts, blueprints, packs, reports, share). */
export function catalogService(api: Api) {
  return {
    blueprints: (f: BlueprintFilter = {}) =>
      api.get<Page<BlueprintJson>>('blueprints', {
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
      }),
    blueprint: (id: string) => api.get<BlueprintJson>(`blueprints/${encodeURIComponent(id)}`),
    history: (id: string) =>
      api.get<{ results: HistoryItem[] }>(`blueprints/${encodeURIComponent(id)}/history`),
    pack: (id: string) => api.get<PackJson>(`blueprint-packs/${encodeURIComponent(id)}`),
    packs: (storefrontId?: string) => api.get<Page<PackJson>>('blueprint-packs', { storefrontId }),
    storefronts: (f: StorefrontFilter = {}) =>
      api.get<Page<StorefrontJson>>('storefronts', {
        search: f.search || undefined,
        categories: list(f.categories),
        hasBlueprints: true,
        'sort[direction]': f.direction,
        from: f.from,
        to: f.to,
      }),
    storefront: (key: string) => api.get<StorefrontJson>(`storefronts/${encodeURIComponent(key)}`),
    /** The caller's storefront, or null when they have none. */
    myStorefront: () =>
      api.get<StorefrontJson>('storefronts/me').catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }),
    createStorefront: (input: CreateStorefrontInput) => api.post<StorefrontJson>('storefronts', input),
    createBlueprint: (body: BlueprintCreateInput) => api.post<BlueprintJson>('blueprints', body),
    updateBlueprint: (id: string, body: BlueprintPatchInput) =>
      api.patch<BlueprintJson>(`blueprints/${encodeURIComponent(id)}`, body),
    /** PATCH storefronts/{id}: the owner's changes (any field, and enabled). */
    updateStorefront: (id: string, patch: StorefrontPatchInput) =>
      api.patch<StorefrontJson>(`storefronts/${encodeURIComponent(id)}`, patch),
    share: (storefrontId: string, caption?: string) =>
      api.get<ShareLinks>('queries/storefront-share', { storefrontId, caption }),
    report: (input: { storefrontId: string; reason: string; description: string }) =>
      api.post<{ id: string }>('storefront-reports', input),
  };
}
