import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '#domain/errors';
import { PublishView } from '../src/views/dashboard/PublishDialog';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { publishModel } from './publish.model';
import { renderWithRouter } from './router';

/** Publish paths through the dialog: Publish, Not yet, Try again, Close and Done. */
async function perform(step: PathStep) {
  const names: Record<string, string[]> = {
    'publish.confirm': ['Publish'],
    'publish.cancel': ['Not yet'],
    'publish.retry': ['Try again'],
    'publish.close': ['Done', 'Close'],
  };
  const wanted = names[step.event.type];
  return wanted ? clickFirst(...wanted) : false;
}

function check(expected: AnyMachineSnapshot, started: number[], done: boolean[]) {
  const state = expected.value as string;
  if (state === 'canceled' || state === 'closed') {
    expect(done).toEqual([state === 'closed']);
    return;
  }
  const dialog = screen.getByRole('dialog');
  const heading = screen.getByRole('heading', { level: 2 }).textContent;
  expect(heading).toBe(state === 'published' ? 'Published' : 'Publish “Night Loop”?');
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  if (state === 'confirming') {
    expect(dialog.textContent).toContain('Once it is on chain it cannot be edited');
    expect(screen.getByRole('button', { name: 'Publish' })).toBeTruthy();
  }
  if (expected.hasTag('busy')) {
    expect(screen.getByRole('status').textContent).toContain('Putting it on chain');
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    const polls = expected.context.polls as number;
    if (polls > 0) expect(dialog.textContent).toContain(`Check ${polls} of 50.`);
  }
  if (state === 'waiting' || state === 'checking') expect(started.length).toBeGreaterThan(0);
  expect(alerts).toEqual(state === 'failed' ? [errorMessage(expected.context.error)] : []);
  if (state === 'published') expect(dialog.textContent).toContain('is active');
}

describe('publish paths through the dialog', () => {
  for (const path of coveringPaths(publishModel)) {
    it(path.description, () => {
      const started: number[] = [];
      const done: boolean[] = [];
      return runPath(publishModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => (
            <PublishView
              actor={actor as never}
              onStarted={() => started.push(1)}
              onDone={(changed) => done.push(changed)}
            />
          )),
        perform,
        check: async (expected) => {
          await act(() => Promise.resolve());
          check(expected, started, done);
        },
        wrap: (fn) => act(fn),
      });
    });
  }
  afterAll(() => flushCoverage('view'));
});
