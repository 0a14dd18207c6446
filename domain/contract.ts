import type * as v from 'valibot';
import {
  BlueprintJson,
  BlueprintPage,
  PackJson,
  PackPage,
  ShareLinks,
  StorefrontJson,
  StorefrontPage,
  StorefrontReport,
} from './responses/catalog';
import type { NotJson, ResponseSchema } from './responses/common';
import { HistoryAnswer } from './schemas/history';

/**
 * The API's contract as the browser reads it: each route ("method path", the path as the server
 * declares it below /api) and the schema of its success answer, the very schema its defineRoute names
 * as `response` (tests/api/contract.test.ts checks that they are the same, route by route). The
 * browser's client (src/services/api.ts) takes its paths from here and types each answer from its
 * schema, so a change of an answer's shape on the server is a compile error where the browser reads it.
 */
export const contract = {
  'get /blueprints': BlueprintPage,
  'get /blueprints/{id}': BlueprintJson,
  'post /blueprints': BlueprintJson,
  'patch /blueprints/{id}': BlueprintJson,
  'get /blueprints/{id}/history': HistoryAnswer,
  'get /blueprint-packs': PackPage,
  'get /blueprint-packs/{id}': PackJson,
  'get /storefronts': StorefrontPage,
  'get /storefronts/me': StorefrontJson,
  'get /storefronts/{id}': StorefrontJson,
  'post /storefronts': StorefrontJson,
  'patch /storefronts/{id}': StorefrontJson,
  'post /storefront-reports': StorefrontReport,
  'get /queries/storefront-share': ShareLinks,
  'get /nfts/{id}/history': HistoryAnswer,
} as const satisfies Record<`${ApiMethod} /${string}`, ResponseSchema>;

export type Contract = typeof contract;
export type RouteKey = keyof Contract;
export type ApiMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';
/** The paths a method serves. */
export type PathOf<M extends ApiMethod> = RouteKey extends infer K
  ? K extends `${M} ${infer P}`
    ? P
    : never
  : never;

/**
 * What the browser's client reads from a route's success answer: the output of its schema (dates
 * revived as Dates, see domain/dates.ts), the text of a non-JSON answer (CSV), undefined for none.
 */
export type AnswerOf<M extends ApiMethod, P extends PathOf<M>> = Contract[`${M} ${P}` &
  RouteKey] extends infer S
  ? S extends NotJson
    ? S extends { mediaType: string }
      ? string
      : undefined
    : S extends v.GenericSchema
      ? v.InferOutput<S>
      : never
  : never;

/** The names of a path's parameters: /nfts/{id} → 'id'. */
export type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer R}`
  ? N | ParamNames<R>
  : never;
