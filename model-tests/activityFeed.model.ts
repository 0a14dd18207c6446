import { expect } from 'vitest';
import type { ActivityEntry } from '#domain/responses/activity';
import { ACTIVITY_FEED_PAGE, activityFeedMachine } from '../machines/activityFeed';
import { after, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof activityFeedMachine>;
const lastInput = (o: O) =>
  o.calls.filter((c) => c.name === 'fetchPage').at(-1)?.input as {
    from: number;
    to: number;
    kinds?: string[];
  };

/** A resale of edition 3 of "Lighthouse", at `at` (by default a minute before now). */
export const saleEntry = (id = 'entry-1', at = new Date(Date.now() - 60_000)): ActivityEntry => ({
  id,
  kind: 'sale',
  item: {
    nftId: '4242',
    blueprintId: '6f1c2a4e-8d0b-4c3a-9e57-2b1d0f9a7c11',
    title: 'Lighthouse',
    imageUrl: null,
    edition: 3,
  },
  price: 1250,
  from: { id: 'u-1', username: 'ada', avatarUrl: null, walletAddress: '0x01cf0e2f2f715450' },
  to: { id: null, username: null, avatarUrl: null, walletAddress: '0xf8d6e0586b0a20c7' },
  at: at.toISOString(),
  transactionId: 'tx',
});
/**
 * When the model's sales happened: one instant for every event, so that the events the path
 * generator compares are equal however many milliseconds pass while it runs (a new instant per
 * event made the number of paths vary from run to run).
 */
const SOLD_AT = new Date(Date.now() - 60_000);

/** A page of one entry; the same page twice shows its entry once. */
const page = (hasMore: boolean) => ({
  results: [saleEntry(hasMore ? 'entry-more' : 'entry-last', SOLD_AT)],
  hasMore,
});

export const activityFeedModel: MachineModel<typeof activityFeedMachine> = {
  machine: activityFeedMachine,
  fakes: ['fetchPage'],
  scenarios: [{ name: 'the marketplace’s sales', input: { filters: { kinds: ['sale'] } } }],
  events: () => [
    { type: 'xstate.done.actor.fetchPage', output: page(true) },
    { type: 'xstate.done.actor.fetchPage', output: page(false) },
    {
      type: 'xstate.error.actor.fetchPage',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
    },
    { type: 'activity.more' },
    { type: 'activity.retry' },
  ],
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.entries.length > 0, s.context.hasMore, s.context.error?.code ?? null]),
  expect: {
    // Each load asks for the entries after those shown, with the page's filters.
    loading: (o) => {
      expectWorking(o, 'fetchPage');
      const input = lastInput(o);
      const shown = o.snapshot.context.entries.length;
      expect(input).toMatchObject({ kinds: ['sale'], from: shown + 1, to: shown + ACTIVITY_FEED_PAGE });
    },
    ready: (o) => {
      expect(o.snapshot.hasTag('busy')).toBe(false);
      expect(after(o, 'done', 'fetchPage')).toBe(true);
      expect(o.snapshot.context.hasMore).toBe((o.event.output as { hasMore: boolean }).hasMore);
      expect(o.snapshot.context.error).toBeNull();
    },
    failed: (o) => {
      expect(after(o, 'error', 'fetchPage')).toBe(true);
      expect(o.snapshot.context.error?.code).toBe('NETWORK_FAILURE');
    },
  },
};
