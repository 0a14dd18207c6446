import * as sdk from '@onflow/sdk';
import type { Executor } from '../db';
import type { FlowClient } from './client';

/**
 * Reading chain events: the VitrineNFT and NFTStorefrontV2 events of a block range from the access
 * node, in chain order, as the indexer and the record routes apply them.
 */

/** The access node answers at most 250 blocks per events request. */
export const MAX_BLOCK_RANGE = 250;

export interface IndexedEvent {
  type: string;
  blockHeight: number;
  transactionId: string;
  transactionIndex: number;
  eventIndex: number;
  /** The block's time (ISO 8601), when the access node gives it. */
  blockTimestamp?: string;
  // biome-ignore lint/suspicious/noExplicitAny: decoded JSON-Cadence values
  data: Record<string, any>;
}

/** Events of other modules the indexer applies in its batch transaction (e.g. FUSD payments). */
export interface ExtraEvents {
  type: string;
  /** Applies one event; answers whether it changed anything. Must be safe to repeat. */
  apply(tx: Executor, event: IndexedEvent, now: Date): Promise<boolean>;
}

/** A Cadence Type value as decoded by the SDK: its type identifier. */
export function typeId(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as { staticType?: { typeID?: string } | string; typeID?: string } | null;
  if (!v) return '';
  if (typeof v.staticType === 'string') return v.staticType;
  return v.staticType?.typeID ?? v.typeID ?? '';
}

/** When the event's block was made, if the access node said so. */
export function blockTime(e: IndexedEvent): Date | null {
  const at = e.blockTimestamp ? new Date(e.blockTimestamp) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
}

export async function latestSealedHeight(client: FlowClient): Promise<number> {
  const block = (await client.sdk.send([sdk.getBlock(true)]).then(client.sdk.decode)) as { height: number };
  return Number(block.height);
}

/** The events of `types` in blocks from..to (inclusive), in chain order. */
export async function readEvents(
  client: FlowClient,
  types: string[],
  from: number,
  to: number,
): Promise<IndexedEvent[]> {
  const all: IndexedEvent[] = [];
  for (const type of types) {
    const events = (await client.sdk
      .send([sdk.getEventsAtBlockHeightRange(type, from, to)])
      .then(client.sdk.decode)) as IndexedEvent[];
    for (const e of events) {
      all.push({
        type: e.type,
        blockHeight: Number(e.blockHeight),
        transactionId: e.transactionId,
        transactionIndex: Number(e.transactionIndex),
        eventIndex: Number(e.eventIndex),
        blockTimestamp: e.blockTimestamp,
        data: e.data,
      });
    }
  }
  return all.sort(
    (a, b) =>
      a.blockHeight - b.blockHeight || a.transactionIndex - b.transactionIndex || a.eventIndex - b.eventIndex,
  );
}

export function indexedEventTypes(client: FlowClient) {
  return {
    minted: client.eventType('VitrineNFT', 'Minted'),
    deposited: client.eventType('NonFungibleToken', 'Deposited'),
    available: client.eventType('NFTStorefrontV2', 'ListingAvailable'),
    completed: client.eventType('NFTStorefrontV2', 'ListingCompleted'),
    nftType: client.eventType('VitrineNFT', 'NFT'),
  };
}
