import { createActor, fromPromise, type InspectionEvent } from 'xstate';
import { isLoggedIn, sessionMachine } from '../machines/session';
import { uiMachine } from '../machines/ui';
import type { Flows } from './flows';
import { lazyMethods, once } from './lazy';
import { type Api, type ApiOptions, createApi } from './services/api';
import { catalogService } from './services/catalog';
import { formDrafts } from './services/drafts';
import type { Flow } from './services/flow';
import { nftService } from './services/nfts';
import { profileActor } from './services/profile';
import type { SalesService } from './services/sales';
import { browserStorage } from './services/storage';

/**
 * The composition root: the long-lived actors (session, ui), the services every page uses, and the
 * flow machines with the real services provided (src/flows.ts, loaded with the first flow). Views receive this through AppContext and never import services.
 */
export function createRuntime(
  inspect?: (event: InspectionEvent) => void,
  /**
   * Where the API is and how it is reached (the server's own render calls itself in-process), and the
   * answers a server-rendered first load was made from.
   */
  transport: Pick<ApiOptions, 'baseUrl' | 'fetch' | 'answered'> = {},
) {
  const currentPath = () => `${window.location.pathname}${window.location.search}`;
  // One renewal at a time: calls that fail together wait for the same new token.
  let renewing: Promise<string | null> | undefined;
  const renewToken = () =>
    (renewing ??= api
      .post('/auth/sessions/refresh')
      .then(({ authToken }) => {
        session.send({ type: 'session.refreshed', token: authToken });
        return authToken;
      })
      .catch(() => null)
      .finally(() => {
        renewing = undefined;
      }));
  const api = createApi({
    ...transport,
    getToken: () => session.getSnapshot().context.token,
    onUnauthorized: (body) =>
      session.send({ type: 'session.unauthorized', path: currentPath(), reason: body.message || undefined }),
    renewToken,
  });
  // The chain service (and the Cadence it sends) loads on its first call, not with every page.
  let flowLoaded: Flow | undefined;
  const loadFlow = once(async () => (flowLoaded = (await import('./services/flow')).createFlow(api)));
  const flow = lazyMethods<Flow>(loadFlow);
  const nfts = nftService(api);
  const catalog = catalogService(api);
  // Sales and payouts (the dashboard, the payouts page) load with their first call.
  const sales = lazyMethods<SalesService>(
    once(async () => (await import('./services/sales')).salesService(api)),
  );

  const session = sessionActor(api, inspect);
  let wasLoggedIn = false;
  session.subscribe((s) => {
    browserStorage.setToken(s.context.token);
    browserStorage.setLoginRedirect(s.context.loginRedirect);
    // Logging out ends the wallet's FCL session too.
    const loggedIn = isLoggedIn(s);
    if (wasLoggedIn && !loggedIn) void flowLoaded?.disconnect().catch(() => {});
    wasLoggedIn = loggedIn;
  });
  /** A proven wallet is connected: the session is fully logged in (wallet and auth). */
  const walletConnected = () => session.send({ type: 'session.wallet.changed', loggedIn: true });

  const ui = createActor(
    uiMachine.provide({ actions: { rememberCookies: () => browserStorage.acceptCookies() } }),
    {
      input: { cookiesAccepted: browserStorage.cookiesAccepted() },
      inspect,
    },
  );

  /** The flow machines and the payment services load with the first screen that runs a flow. */
  const flowKit = once(async () =>
    (await import('./flows')).createFlows({
      api,
      session,
      ui,
      flow,
      nfts,
      catalog,
      sales,
      walletConnected,
      inspect,
    }),
  );
  const flows = lazyMethods<Flows>(async () => (await flowKit()).flows);

  session.start();
  ui.start();
  /** Whether a wallet can be connected here (the server runs a chain). */
  const walletAvailable = once(() => flow.available());

  /** The charge this tab left for 3-D Secure, if any: the checkout restores it. */
  const cardCheckpoint = async () => (await flowKit()).cardCheckpoint();
  /** The payment methods the server runs, in the order the checkout offers them. */
  const paymentRails = async () => (await flowKit()).paymentRails();
  /** The utility-token rail when it runs: its network, the browser wallet, a charge to resume. */
  const tokenRail = async () => (await flowKit()).tokenRail();

  return {
    session,
    ui,
    flows,
    nfts,
    catalog,
    sales,
    walletAvailable,
    cardCheckpoint,
    billingCountry: browserStorage.billingCountry,
    paymentRails,
    tokenRail,
    drafts: formDrafts,
    inspect,
  };
}

/** The session actor: it reads the profile, renews the token and ends the session on the server. */
function sessionActor(api: Api, inspect?: (event: InspectionEvent) => void) {
  return createActor(
    sessionMachine.provide({
      actors: {
        fetchProfile: profileActor(api),
        refreshSession: fromPromise(async () => ({
          token: (await api.post('/auth/sessions/refresh')).authToken,
        })),
      },
      actions: {
        // The refresh cookie names the session too, so logging out works even with an old token.
        endSession: (_, { token }) =>
          void api
            .delete('/auth/sessions/current', {
              init: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
            })
            .catch(() => {}),
      },
    }),
    {
      input: { token: browserStorage.token(), loginRedirect: browserStorage.loginRedirect() },
      inspect,
    },
  );
}
