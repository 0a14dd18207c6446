import * as v from 'valibot';
import { ACTIVITY_KINDS } from '../schemas/activity';
import { Count, DateTime } from './common';

/** A user on one side of an entry: a Vitrine account (id, username, avatar) and/or a wallet. */
export const ActivityUser = v.object({
  id: v.nullable(v.string()),
  username: v.nullable(v.string()),
  avatarUrl: v.nullable(v.string()),
  walletAddress: v.nullable(v.string()),
});
export type ActivityUser = v.InferOutput<typeof ActivityUser>;

/** The item an entry is about: the NFT (when there is one), its blueprint, title, image and edition. */
export const ActivityItem = v.object({
  nftId: v.nullable(v.string()),
  blueprintId: v.nullable(v.string()),
  title: v.nullable(v.string()),
  imageUrl: v.nullable(v.string()),
  edition: v.nullable(Count),
});

export const ActivityEntry = v.object({
  id: v.string(),
  kind: v.picklist(ACTIVITY_KINDS),
  item: ActivityItem,
  /** FUSD cents, for sales, listings and offers. */
  price: v.nullable(Count),
  from: v.nullable(ActivityUser),
  to: v.nullable(ActivityUser),
  at: DateTime,
  transactionId: v.nullable(v.string()),
});
export type ActivityEntry = v.InferOutput<typeof ActivityEntry>;

/** GET activity: newest first; hasMore when entries follow this page. */
export const ActivityPage = v.object({ results: v.array(ActivityEntry), hasMore: v.boolean() });
export type ActivityPage = v.InferOutput<typeof ActivityPage>;
