import type { Actor, InspectionEvent } from 'xstate';
import type { sessionMachine } from '../../machines/session';
import type { uiMachine } from '../../machines/ui';
import type { accountActors } from '../services/accounts';
import type { Api } from '../services/api';
import type { catalogService } from '../services/catalog';
import type { Flow } from '../services/flow';
import type { nftService } from '../services/nfts';
import type { salesService } from '../services/sales';
import type { uploadService } from '../services/uploads';

/** What the flows use from the runtime: the API, the long-lived actors and the eager services. */
export interface FlowDeps {
  api: Api;
  session: Actor<typeof sessionMachine>;
  ui: Actor<typeof uiMachine>;
  /** The chain service (loads on its first call). */
  flow: Flow;
  accounts: ReturnType<typeof accountActors>;
  nfts: ReturnType<typeof nftService>;
  catalog: ReturnType<typeof catalogService>;
  uploads: ReturnType<typeof uploadService>;
  sales: ReturnType<typeof salesService>;
  /** A proven wallet is connected: the session is fully logged in (wallet and auth). */
  walletConnected: () => void;
  inspect?: (event: InspectionEvent) => void;
}
