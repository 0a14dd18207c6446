import type * as v from 'valibot';
import { ActivityPage } from './responses/activity';
import {
  AdminEmailAnswer,
  AdminKycAnswer,
  AdminPage,
  AdminStorefrontAnswer,
  AdminUserAnswer,
  ReportAnswer,
} from './responses/admin';
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
import {
  ApplePayMerchantSession,
  BillingInfoJson,
  BillingInfoList,
  CardChargeJson,
  CardChargeList,
  CoinbaseChargeJson,
  CoinbaseChargeList,
  FreeClaimJson,
  FreeClaimList,
  FusdOrderJson,
  OrderJson,
  PaymentsConfigJson,
  TokenChargeJson,
  TokenChargeList,
  TokenPriceConversionJson,
  WertChargeJson,
  WertChargeList,
} from './responses/checkout';
import {
  AuthTokenAnswer,
  type NotJson,
  noContent,
  Received,
  type ResponseSchema,
  UrlAnswer,
} from './responses/common';
import { FavoriteIds, FavoritePage } from './responses/favorites';
import { HomeTrending } from './responses/home';
import {
  DevNft,
  NftJson,
  NftPage,
  PurchasePage,
  PurchaseRecordAnswer,
  SaleListingJson,
} from './responses/nfts';
import { OfferPage, OfferRecordAnswer } from './responses/offers';
import {
  LedgerCsv,
  PayoutRequestJson,
  PayoutsPage,
  SaleNotices,
  SalesChartJson,
  SalesPage,
} from './responses/sales';
import { StorefrontStats } from './responses/stats';
import {
  ChainConfig,
  Health,
  ImageJobCreated,
  ImageJobJson,
  OpenApiDocument,
  Readiness,
  UploadUrlAnswer,
} from './responses/system';
import {
  AccountProofAnswer,
  AccountProofChallenge,
  EmailConfirmed,
  KycSession,
  ProfileUpdateAnswer,
  RegistrationAnswer,
  SaleEmailsOff,
  User,
  UserAnswer,
  UserExistence,
} from './responses/users';
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
  'get /storefronts/{id}/stats': StorefrontStats,
  'get /home/trending': HomeTrending,
  'post /storefront-reports': StorefrontReport,
  'get /queries/storefront-share': ShareLinks,
  'get /nfts': NftPage,
  'get /nfts/purchases': PurchasePage,
  'get /nfts/{id}': NftJson,
  'get /nfts/{id}/history': HistoryAnswer,
  'get /nfts/sale-listings/{id}': SaleListingJson,
  'post /nfts/sale-listings/actions/record': SaleListingJson,
  'post /nfts/sale-listings/actions/cancel': SaleListingJson,
  'post /nfts/purchases/actions/record': PurchaseRecordAnswer,
  'get /offers': OfferPage,
  'post /offers/actions/record': OfferRecordAnswer,
  'post /dev/nfts': DevNft,
  'post /users/registrations': RegistrationAnswer,
  'get /users/me': User,
  'get /users/{id}': UserAnswer,
  'patch /users/me': ProfileUpdateAnswer,
  'post /users/email-confirmations': EmailConfirmed,
  'post /users/sale-email-opt-outs': SaleEmailsOff,
  'get /activity': ActivityPage,
  'get /users/me/favorites': FavoritePage,
  'get /users/me/favorites/ids': FavoriteIds,
  'put /users/me/favorites/{blueprintId}': noContent,
  'delete /users/me/favorites/{blueprintId}': noContent,
  'get /queries/user-existence': UserExistence,
  'post /users/wallets/actions/request-account-proof': AccountProofChallenge,
  'post /users/wallets/actions/verify-account-proof': AccountProofAnswer,
  'post /veriff-kyc': KycSession,
  'post /webhooks/veriff': Received,
  'post /auth/logins': AuthTokenAnswer,
  'post /auth/sessions/refresh': AuthTokenAnswer,
  'delete /auth/sessions/current': noContent,
  'post /auth/logins/passwords/resets': noContent,
  'patch /auth/logins/passwords': noContent,
  'get /free-blueprint-claims': FreeClaimList,
  'post /free-blueprint-claims': FreeClaimJson,
  'get /orders/{id}': OrderJson,
  'get /config/payments': PaymentsConfigJson,
  'get /billing-info': BillingInfoList,
  'post /billing-info': BillingInfoJson,
  'delete /billing-info/{id}': noContent,
  'post /checkout-com-charges': CardChargeJson,
  'get /checkout-com-charges': CardChargeList,
  'get /checkout-com-charges/{id}': CardChargeJson,
  'patch /checkout-com-charges/{id}/actions/sync': CardChargeJson,
  'post /checkout-com-charges/{id}/actions/cancel': CardChargeJson,
  'post /checkout-com-charges/actions/applepay': ApplePayMerchantSession,
  'post /coinbase-charges': CoinbaseChargeJson,
  'get /coinbase-charges': CoinbaseChargeList,
  'get /coinbase-charges/{id}': CoinbaseChargeJson,
  'patch /coinbase-charges/{id}': CoinbaseChargeJson,
  'post /fusd-orders': FusdOrderJson,
  'get /fusd-orders/{id}': FusdOrderJson,
  'patch /fusd-orders/{id}': FusdOrderJson,
  'post /wert-charges': WertChargeJson,
  'get /wert-charges': WertChargeList,
  'get /wert-charges/{id}': WertChargeJson,
  'patch /wert-charges/{id}': WertChargeJson,
  'get /token-price-conversions': TokenPriceConversionJson,
  'post /token-charges': TokenChargeJson,
  'get /token-charges': TokenChargeList,
  'get /token-charges/{id}': TokenChargeJson,
  'patch /token-charges/{id}': TokenChargeJson,
  'post /webhooks/wert': Received,
  'post /webhooks/coinbase-commerce': Received,
  'post /webhooks/checkout-com': Received,
  'get /sales': SalesPage,
  'get /sales/chart': SalesChartJson,
  'get /sales/ledger.csv': LedgerCsv,
  'get /payout-requests': PayoutsPage,
  'post /payout-requests': PayoutRequestJson,
  'patch /payout-requests/{id}': PayoutRequestJson,
  'get /notifications': SaleNotices,
  'post /notifications/actions/read': noContent,
  'get /chain/config': ChainConfig,
  'get /health': Health,
  'get /health/ready': Readiness,
  'get /openapi.json': OpenApiDocument,
  'get /assets/upload-url': UploadUrlAnswer,
  'put /assets/uploads/{token}': UrlAnswer,
  'post /assets/uploads/{token}': UrlAnswer,
  'post /image-jobs': ImageJobCreated,
  'get /image-jobs/{jobId}': ImageJobJson,
  'get /admin/users': AdminPage,
  'get /admin/kyc': AdminPage,
  'get /admin/blueprints': AdminPage,
  'get /admin/sales': AdminPage,
  'get /admin/charges': AdminPage,
  'get /admin/storefront-reports': AdminPage,
  'get /admin/payout-requests': AdminPage,
  'get /admin/emails': AdminPage,
  'get /admin/audit': AdminPage,
  'patch /admin/users/{id}': AdminUserAnswer,
  'patch /admin/storefronts/{id}': AdminStorefrontAnswer,
  'patch /admin/kyc/{id}': AdminKycAnswer,
  'patch /admin/emails/{id}': AdminEmailAnswer,
  'get /storefront-reports': AdminPage,
  'patch /storefront-reports/{id}': ReportAnswer,
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
