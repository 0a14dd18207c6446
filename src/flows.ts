import { accountFlows } from './flows/account';
import { creatorFlows } from './flows/creator';
import type { FlowDeps } from './flows/deps';
import { nftFlows } from './flows/nft';
import { offerFlows } from './flows/offers';
import { paymentQueries, purchaseFlows } from './flows/purchase';
import { sharedFlowParts } from './flows/shared';
import { accountActors } from './services/accounts';
import { uploadService } from './services/uploads';

/**
 * The flow machines with their real services provided, and the payment rails the checkout offers.
 * This module loads with the first screen that runs a flow (src/runtime.ts), so the wiring of
 * every flow and the payment services stay out of every page's first load. Each machine loads with
 * the screen that uses it, once. The flows are grouped in src/flows/: account, nft, offers, creator
 * and purchase, with what several groups share in src/flows/shared.ts.
 */
export function createFlows(runtime: Omit<FlowDeps, 'uploads' | 'accounts'>) {
  // Only flows upload files or register, log in and save account settings: the upload service and
  // the account actors load with them.
  const deps: FlowDeps = {
    ...runtime,
    accounts: accountActors(runtime.api),
    uploads: uploadService(runtime.api),
  };
  const shared = sharedFlowParts(deps);
  const flows = {
    ...accountFlows(deps, shared),
    ...nftFlows(deps, shared),
    ...offerFlows(deps, shared),
    ...creatorFlows(deps, shared),
    ...purchaseFlows(deps, shared),
  };
  return { flows, ...paymentQueries(shared) };
}

export type Flows = ReturnType<typeof createFlows>['flows'];
