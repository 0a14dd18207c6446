import { createActor, createMachine } from 'xstate';
import type { OfferJson } from '#domain/responses/offers';
import type { makeUser } from '../../../model-tests/fixtures';

export const NOW = new Date('2026-11-22T12:00:00.000Z');
export const daysFromNow = (d: number) => new Date(NOW.getTime() + d * 86_400_000).toISOString();

export const OWNER = { id: 'u9', username: 'theo_b', avatarUrl: null, walletAddress: '0xf3fcd2c1a78f5eee' };
export const BUYER = {
  id: 'u1',
  username: 'ada_lovelace',
  avatarUrl: null,
  walletAddress: '0x01cf0e2f2f715450',
};
export const OTHER = { id: 'u5', username: null, avatarUrl: null, walletAddress: '0x179b6b1cb6755e31' };

/** An open offer of $25 by another collector on NFT 4711 (Night Market #03), for 3 more days. */
export function offer(over: Partial<OfferJson> = {}): OfferJson {
  return {
    id: 'o1',
    chainOfferId: '17',
    nft: { id: '4711', blueprintId: 'b1', title: 'Night Market', imageUrl: null, seriesNumber: 3 },
    buyer: OTHER,
    owner: OWNER,
    amount: 2500,
    status: 'open',
    expiresAt: daysFromNow(3),
    createdAt: daysFromNow(-4),
    closedAt: null,
    transactionId: 'tx1',
    closingTransactionId: null,
    ...over,
  };
}

/** A stand-in for the session actor. */
export function sessionOf(user: ReturnType<typeof makeUser> | null) {
  return createActor(createMachine({ initial: 'on', context: { user }, states: { on: {} } })).start();
}
