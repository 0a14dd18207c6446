import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd } from '#domain/money';
import type { ActivityEntry, ActivityPage, ActivityUser } from '#domain/responses/activity';
import type { ActivityFilters, ActivityKind } from '#domain/schemas/activity';
import { timeAgo } from '#domain/time';
import { type ButtonProps, buttonProps } from './props';

/**
 * An activity feed (GET activity with the page's filters): it loads the newest page, then each
 * "Show more" appends the entries after those shown while the server says more follow (an entry
 * shown already is not shown twice). A failed load keeps the entries shown and offers to try again.
 */

/** Entries per load (the API serves at most 50). */
export const ACTIVITY_FEED_PAGE = 20;

export interface ActivityFeedInput {
  filters: ActivityFilters;
}
export interface ActivityFeedContext extends ActivityFeedInput {
  entries: ActivityEntry[];
  hasMore: boolean;
  error: ApiErrorBody | null;
}
export type ActivityFeedEvent = { type: 'activity.more' } | { type: 'activity.retry' };

export const activityFeedMachine = setup({
  types: {
    context: {} as ActivityFeedContext,
    events: {} as ActivityFeedEvent,
    input: {} as ActivityFeedInput,
    tags: {} as 'busy',
  },
  actors: {
    /** GET activity with the filters, entries from..to (1-based, inclusive). */
    fetchPage: fromPromise<ActivityPage, ActivityFilters & { from: number; to: number }>(async () => {
      throw new Error('fetchPage not provided');
    }),
  },
  guards: {
    hasMore: ({ context }) => context.hasMore,
  },
}).createMachine({
  id: 'activityFeed',
  context: ({ input }) => ({ ...input, entries: [], hasMore: false, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => ({
          ...context.filters,
          from: context.entries.length + 1,
          to: context.entries.length + ACTIVITY_FEED_PAGE,
        }),
        onDone: {
          target: 'ready',
          actions: assign({
            // Entries that arrived meanwhile push older ones down a page: those shown already are skipped.
            entries: ({ context, event }) => {
              const shown = new Set(context.entries.map((e) => e.id));
              return [...context.entries, ...event.output.results.filter((e) => !shown.has(e.id))];
            },
            hasMore: ({ event }) => event.output.hasMore,
            error: null,
          }),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    ready: {
      on: { 'activity.more': { guard: 'hasMore', target: 'loading' } },
    },
    failed: {
      on: { 'activity.retry': { target: 'loading' } },
    },
  },
});

/** What each kind reads as in the feed. */
export const activityKindLabels: Record<ActivityKind, string> = {
  sale: 'Sale',
  listing: 'Listing',
  delisting: 'Delisting',
  mint: 'Mint',
  transfer: 'Transfer',
  offer: 'Offer',
  offerAccepted: 'Offer accepted',
};

/** One side of an entry: the account's @username (linking to it), else the wallet shortened. */
export interface ActivityPartyView {
  label: string;
  userId: string | null;
  avatarUrl: string | null;
}
const party = (user: ActivityUser | null): ActivityPartyView | null => {
  if (!user) return null;
  const wallet = user.walletAddress ?? '';
  const label = user.username ? `@${user.username}` : `${wallet.slice(0, 6)}…${wallet.slice(-4)}`;
  return { label, userId: user.username ? user.id : null, avatarUrl: user.avatarUrl };
};

export interface ActivityEntryView {
  id: string;
  kind: string;
  title: string;
  /** The item page's id: the NFT's token id, else its blueprint's id; null when unknown. */
  itemId: string | null;
  imageUrl: string | null;
  edition: string | null;
  price: string | null;
  from: ActivityPartyView | null;
  to: ActivityPartyView | null;
  timeAgo: string;
  at: string;
}

export interface ActivityFeedView {
  entries: ActivityEntryView[];
  /** Nothing to show (loaded, no entries). */
  empty: boolean;
  emptyText: string;
  busy: boolean;
  canLoadMore: boolean;
  /** "Show more" is on screen: more follow, or the next page is loading. */
  showMore: boolean;
  error: string | null;
  canRetry: boolean;
  getMoreButtonProps: () => ButtonProps;
  getRetryButtonProps: () => ButtonProps;
}

export function entryView(entry: ActivityEntry, now: Date): ActivityEntryView {
  const at = new Date(entry.at);
  return {
    id: entry.id,
    kind: activityKindLabels[entry.kind],
    title: entry.item.title ?? (entry.item.nftId ? `NFT #${entry.item.nftId}` : 'Unknown item'),
    itemId: entry.item.nftId ?? entry.item.blueprintId,
    imageUrl: entry.item.imageUrl,
    edition: entry.item.edition === null ? null : `#${entry.item.edition}`,
    price: entry.price === null ? null : formatUsd(entry.price),
    from: party(entry.from),
    to: party(entry.to),
    timeAgo: at > now ? 'just now' : timeAgo(at),
    at: at.toISOString(),
  };
}

export function connectActivityFeed(
  snapshot: SnapshotFrom<typeof activityFeedMachine>,
  send: (event: ActivityFeedEvent) => void,
  now: Date = new Date(),
): ActivityFeedView {
  const { entries, error } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  return {
    entries: entries.map((e) => entryView(e, now)),
    empty: !busy && !error && entries.length === 0,
    emptyText: 'No activity yet.',
    busy,
    canLoadMore: snapshot.can({ type: 'activity.more' }),
    showMore: snapshot.can({ type: 'activity.more' }) || (busy && entries.length > 0),
    error: error ? errorMessage(error) : null,
    canRetry: snapshot.can({ type: 'activity.retry' }),
    getMoreButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'activity.more' }),
        disabled: !snapshot.can({ type: 'activity.more' }),
        busy,
      }),
    getRetryButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'activity.retry' }),
        disabled: !snapshot.can({ type: 'activity.retry' }),
      }),
  };
}
