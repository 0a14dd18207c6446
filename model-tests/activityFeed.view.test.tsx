import { act, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectActivityFeed } from '../machines/activityFeed';
import { ActivityFeedView } from '../src/views/activity/ActivityTab';
import { activityFeedModel } from './activityFeed.model';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';

/**
 * Activity feed paths through the view: "Show more" and "Try again". A step whose control is
 * missing or disabled fails.
 */
async function perform(step: PathStep) {
  switch (step.event.type) {
    case 'activity.more':
      return clickFirst('Show more');
    case 'activity.retry':
      return clickFirst('Try again');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const view = connectActivityFeed(expected as never, () => {});
  const list = screen.queryByRole('list', { name: 'Activity' });
  const shown = list ? within(list).getAllByRole('listitem') : [];
  expect(shown.map((li) => li.querySelector('.vt-activity__kind')?.textContent)).toEqual(
    view.entries.map((e) => e.kind),
  );
  for (const [i, entry] of view.entries.entries()) {
    expect(within(shown[i]!).getByRole('link', { name: entry.title }).getAttribute('href')).toBe(
      `/nft/${entry.itemId}`,
    );
    expect(shown[i]!.querySelector('time')?.textContent).toBe(entry.timeAgo);
  }
  expect(screen.queryAllByRole('alert').map((a) => a.querySelector('p')?.textContent)).toEqual(
    view.error ? [view.error] : [],
  );
  const more = screen.queryByRole('button', { name: 'Show more' }) as HTMLButtonElement | null;
  expect(more ? !more.disabled : false).toBe(view.canLoadMore);
  expect(screen.queryByText(view.emptyText) !== null).toBe(view.empty);
}

describe('activity feed paths through the view', () => {
  for (const path of coveringPaths(activityFeedModel)) {
    it(path.description, () =>
      runPath(activityFeedModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <ActivityFeedView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
