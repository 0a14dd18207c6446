import { randomInt } from 'node:crypto';
import * as v from 'valibot';
import { DevNft } from '#domain/responses/nfts';
import { FlowAddress } from '#domain/schemas/accounts';
import { fieldObject } from '#domain/validation';
import { checkCollection, mintNft } from '../chain/actions';
import { upsertNft } from '../chain/facts';
import type { Services } from '../deps';
import { apiError, badRequest, defineRoute, type Route } from '../http';

/**
 * Development helpers; mounted outside production (or with VITRINE_DEV_OUTBOX=1 for the browser
 * tests). They stand in for flows of other systems while those are not at hand: a collectible in a
 * wallet. (FUSD comes as in production: a crypto top-up, paid on the crypto sandbox's page; email
 * as in production too: the embedded Mailpit's inbox.)
 */
export function devRoutes(s: Services): Route[] {
  const emulatorClient = () => {
    if (s.chainClient?.config.network !== 'emulator')
      throw apiError(503, 'unavailable', undefined, 'Only the local emulator mints test funds and NFTs.');
    return s.chainClient;
  };
  return [
    defineRoute({
      method: 'post',
      path: '/dev/nfts',
      tag: 'dev',
      summary: 'Mints a test collectible into a wallet on the local emulator (not in production)',
      body: fieldObject({
        walletAddress: FlowAddress,
        title: v.optional(v.pipe(v.string('INVALID_VALUE.title'), v.minLength(1), v.maxLength(200))),
        royaltyAddress: v.optional(FlowAddress),
        royaltyPercent: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(50))),
      }),
      response: DevNft,
      responses: { 201: 'the NFT { id, blueprintId, seriesNumber }', 503: 'Not on the emulator' },
      async handler(c, { body }) {
        const client = emulatorClient();
        if (!(await checkCollection(client, body.walletAddress)).ready)
          throw badRequest('INVALID_VALUE', 'walletAddress', 'Set up the wallet’s collection first.');
        // Test blueprints live far above real ones so they never take a real blueprint's editions.
        const blueprintId = 900_000_000 + randomInt(99_999_999);
        const metadata: Record<string, string> = { title: body.title ?? `Test collectible ${blueprintId}` };
        if (body.royaltyAddress && body.royaltyPercent) metadata.royaltyPercent = String(body.royaltyPercent);
        const minted = await mintNft(client, {
          to: body.walletAddress,
          blueprintId,
          serialNumber: 1,
          metadata,
          ...(body.royaltyAddress && body.royaltyPercent
            ? { royalties: { [body.royaltyAddress]: (body.royaltyPercent / 100).toFixed(8) } }
            : {}),
        });
        await upsertNft(
          s.db,
          { id: minted.nftId, blueprintId, serialNumber: 1, owner: body.walletAddress, metadata },
          s.clock(),
        );
        return c.json({ id: minted.nftId, blueprintId: String(blueprintId), seriesNumber: 1 }, 201);
      },
    }),
  ];
}
