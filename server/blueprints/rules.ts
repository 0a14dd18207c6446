import type { BlueprintState } from '#domain/enums';
import type { blueprintRegistrations } from '../db/schema';

/**
 * The rules of a blueprint's life that the routes apply: which states are drafts a creator may
 * still edit, which publishing jobs mean the item is (being) put on chain, and which states may be
 * hidden.
 */

/** Drafts: a creator may still edit and publish an item that is created or available. */
export const DRAFT_STATES: BlueprintState[] = ['created', 'available'];
/** A publishing job in these states means the blueprint is (being) put on chain: no more edits. */
export const ON_CHAIN_JOBS: Array<(typeof blueprintRegistrations.$inferSelect)['status']> = [
  'pending',
  'submitted',
  'sealed',
];

/** States in which an item can be hidden and shown again from the dashboard. */
export const HIDEABLE_STATES: BlueprintState[] = ['active', 'printed', 'soldOut', 'canceled'];
