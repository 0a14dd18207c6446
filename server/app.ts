import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError, ErrorCode } from '#domain/errors';
import { activityRoutes } from './activity/routes';
import { adminRoutes } from './admin/routes';
import { assetRoutes } from './assets/routes';
import { authRoutes } from './auth/routes';
import { authenticator } from './auth/session';
import { blueprintRoutes } from './blueprints/routes';
import { chainRoutes } from './chain/routes';
import { billingInfoRoutes } from './checkout/billing/routes';
import { applePayRoutes } from './checkout/card/applepay-routes';
import { cardChargeRoutes } from './checkout/card/routes';
import { coinbaseChargeRoutes } from './checkout/crypto/routes';
import { freeClaimRoutes } from './checkout/free-claims/routes';
import { fusdOrderRoutes } from './checkout/fusd/routes';
import { orderRoutes } from './checkout/routes';
import { tokenChargeRoutes } from './checkout/token/routes';
import { webhookRoutes } from './checkout/webhooks/routes';
import { wertChargeRoutes } from './checkout/wert/routes';
import { compressAnswers } from './compression';
import { type AppDeps, createServices } from './deps';
import { devRoutes } from './dev/routes';
import { tokenPriceSource } from './evm/price';
import { favoriteRoutes } from './favorites/routes';
import { type AppEnv, apiError, errorResponse, mountRoutes, notFound, type Route } from './http';
import { mountMedia } from './media';
import { metricsHandler } from './metrics-route';
import { nftHistoryRoutes } from './nfts/history';
import { nftRoutes } from './nfts/routes';
import { notificationRoutes } from './notifications/routes';
import { offerRoutes } from './offers/routes';
import { mountShareImages } from './og/routes';
import { canonicalOrigin } from './origin';
import { googlePayScript, paymentsConfigRoutes } from './payments/routes';
import { payoutRoutes } from './payouts/routes';
import { observeRequests } from './requests';
import { salesRoutes } from './sales/routes';
import { jsonBodiesOnly, securityHeaders } from './security';
import { mountSeoFiles } from './seo/routes';
import { mountSpa } from './spa';
import { statsRoutes } from './stats/routes';
import { storefrontRoutes } from './storefronts/routes';
import { systemRoutes } from './system/routes';
import { queryRoutes } from './users/existence-routes';
import { kycRoutes } from './users/kyc-routes';
import { userRoutes } from './users/routes';
import { walletRoutes } from './users/wallet-routes';

/** Requests up to 3 MB: the largest upload (an asset of 2 MB) with form overhead. */
const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** The routes each app serves under /api (the API tests check every answer against its route's schema). */
export const routesOf = new WeakMap<Hono<AppEnv>, readonly Route[]>();

/** The product API under /api (and, given spaDir, the built SPA). */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const s = createServices(deps);
  const routes: Route[] = [];
  routes.push(
    ...systemRoutes(s, routes),
    ...userRoutes(s),
    ...kycRoutes(s),
    ...adminRoutes(s),
    ...notificationRoutes(s),
    ...favoriteRoutes(s),
    ...activityRoutes(s),
    ...authRoutes(s),
    ...queryRoutes(s),
    ...walletRoutes(s),
    ...chainRoutes(s),
    ...nftRoutes(s),
    ...nftHistoryRoutes(s),
    ...offerRoutes(s),
    ...storefrontRoutes(s),
    ...statsRoutes(s),
    ...salesRoutes(s),
    ...payoutRoutes(s),
    ...blueprintRoutes(s),
    ...assetRoutes(s),
    ...billingInfoRoutes(s),
    ...paymentsConfigRoutes(s),
    ...applePayRoutes(s),
    ...cardChargeRoutes(s),
    ...coinbaseChargeRoutes(s),
    ...wertChargeRoutes(s),
    // Only while the NFM_PAYMENTS flag is on: otherwise the utility token exists nowhere.
    ...(s.tokenChain && s.config.token
      ? tokenChargeRoutes(
          s,
          s.tokenChain,
          tokenPriceSource(s.config.token, () => s.clock().getTime()),
        )
      : []),
    ...fusdOrderRoutes(s),
    ...webhookRoutes(s),
    ...freeClaimRoutes(s),
    ...orderRoutes(s),
    ...(s.config.devTools ? devRoutes(s) : []),
  );

  const api = new Hono<AppEnv>();
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw apiError(413, ErrorCode.INVALID_VALUE, undefined, 'The request body is too large');
    },
  });
  // No GET or HEAD route reads a body, so none is limited: asking for it would make
  // @hono/node-server build a full fetch Request for every read.
  api.use((c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));
  // Other sites can send forms and no-cors requests, but no JSON: only JSON bodies change state.
  api.use(jsonBodiesOnly());
  mountRoutes(api, routes, authenticator(s));
  api.all('*', (c) => errorResponse(c, notFound()));

  const app = new Hono<AppEnv>();
  // Every request has an id, its log lines and jobs carry it, and its answer is timed and logged.
  app.use(observeRequests(s.log, s.metrics));
  // Every answer (API, /media, the SPA, errors and 404s) carries the security headers; the pages
  // allow Google's Google Pay script while the browser would load it, and media from MEDIA_PUBLIC_URL.
  app.use(
    securityHeaders({
      googlePayScript: () => googlePayScript(s),
      mediaSource: s.config.mediaPublicUrl && new URL(s.config.mediaPublicUrl).origin,
    }),
  );
  // Text answers (API JSON, the OpenAPI document, pages) go out compressed when the client accepts
  // it (server/compression.ts); the SPA's files are compressed at build time (server/spa.ts),
  // prepared answers (the catalog cache's, server/prepared.ts) when they are made.
  app.use(compressAnswers());
  // Prometheus metrics for the operator (server/metrics-route.ts says who may read them).
  app.get('/metrics', metricsHandler(s.config.metrics, s.metrics));
  // Pages are served on one origin only (server/origin.ts).
  app.use(canonicalOrigin(s.config.publicUrl));
  app.onError((err, c) => {
    if (err instanceof ApiError) return errorResponse(c, err);
    s.log.error(`${c.req.method} ${c.req.path} failed`, err);
    return c.json({ code: ErrorCode.UNKNOWN, message: 'Unknown error occurred' }, 500);
  });
  app.route('/api', api);
  mountMedia(app, s.storage, s.config.mediaPublicUrl);
  mountShareImages(app, s);
  // robots.txt and the sitemaps, with or without the SPA (server/seo/routes.ts).
  mountSeoFiles(app, s);
  if (deps.spaDir)
    mountSpa(app, deps.spaDir, { renderPage: deps.renderPage, log: s.log, publicUrl: s.config.publicUrl });
  app.notFound((c) => errorResponse(c, notFound()));
  routesOf.set(app, routes);
  return app;
}
