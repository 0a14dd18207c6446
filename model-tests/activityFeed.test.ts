import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { activityFeedMachine, connectActivityFeed } from '../machines/activityFeed';
import { activityFeedModel, saleEntry } from './activityFeed.model';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';

describe('activityFeed machine paths', () => {
  const paths = generatePaths(activityFeedModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(activityFeedModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('activityFeed', () => {
  it('appends the next page on "Show more" until none follow, and reads each entry as the feed shows it', async () => {
    const asked: unknown[] = [];
    const actor = createActor(
      activityFeedMachine.provide({
        actors: {
          fetchPage: fromPromise(async ({ input }) => {
            asked.push(input);
            return { results: [saleEntry(`entry-${asked.length}`)], hasMore: asked.length < 2 };
          }),
        },
      }),
      { input: { filters: { storefrontId: 's-1' } } },
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    const first = connectActivityFeed(actor.getSnapshot(), (e) => actor.send(e));
    expect(first.canLoadMore).toBe(true);
    expect(first.entries[0]).toMatchObject({
      kind: 'Sale',
      title: 'Lighthouse',
      itemId: '4242',
      edition: '#3',
      price: '$12.50',
      from: { label: '@ada', userId: 'u-1' },
      to: { label: '0xf8d6…20c7', userId: null },
      timeAgo: '1 minute ago',
    });
    first.getMoreButtonProps().onClick!();
    await waitFor(actor, (s) => s.matches('ready') && s.context.entries.length === 2);
    const second = connectActivityFeed(actor.getSnapshot(), () => {});
    expect([second.canLoadMore, second.getMoreButtonProps().disabled]).toEqual([false, true]);
    expect(asked).toEqual([
      { storefrontId: 's-1', from: 1, to: 20 },
      { storefrontId: 's-1', from: 2, to: 21 },
    ]);
  });
});
