import { ChainConfig } from '#domain/responses/system';
import type { Services } from '../deps';
import { apiError, defineRoute, type Route } from '../http';

/** What the browser needs to talk to the chain itself (FCL): network, access node, wallets, contracts. */
export function chainRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/chain/config',
      tag: 'chain',
      summary:
        'The Flow network, access node, wallet discovery and contract addresses for FCL in the browser',
      response: ChainConfig,
      responses: {
        200: '{ network, accessNode, walletDiscovery, contracts, platformAddress }',
        503: 'No chain is configured',
      },
      handler(c) {
        if (!s.chain || !s.chainClient)
          throw apiError(503, 'unavailable', undefined, 'The chain is not available.');
        const { network, accessNode, walletDiscovery } = s.chain;
        const { contracts, admin } = s.chainClient.config;
        // Platform fees of resale listings are paid to Vitrine's admin account.
        return c.json({ network, accessNode, walletDiscovery, contracts, platformAddress: admin.address });
      },
    }),
  ];
}
