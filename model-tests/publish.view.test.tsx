import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectPublish } from '../machines/publish';
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
  const view = connectPublish(expected as never, () => {});
  if (view.panel === 'ended') {
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(done).toEqual([expected.output.changed]);
    return;
  }
  expect(done).toEqual([]);
  const dialog = screen.getByRole('dialog');
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(view.title);
  expect(view.title).toBe(view.panel === 'published' ? 'Published' : 'Publish “Night Loop”?');
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  const buttons = screen.queryAllByRole('button').map((b) => b.textContent);
  const footer: Record<string, string[]> = {
    confirming: ['Not yet', 'Publish'],
    failed: ['Close', 'Try again'],
    published: ['Done'],
    working: [],
  };
  for (const name of ['Not yet', 'Publish', 'Close', 'Try again', 'Done'])
    expect(buttons.includes(name)).toBe(footer[view.panel]!.includes(name));
  if (view.panel === 'confirming')
    expect(dialog.textContent).toContain('Once it is on chain it cannot be edited');
  const status = screen.queryByRole('status');
  expect(!!status).toBe(view.busy);
  if (view.busy) {
    expect(status!.textContent).toContain('Putting it on chain');
    if (view.progress) expect(status!.textContent).toContain(view.progress);
  }
  // The list hears of the start once the status is set, and only then.
  expect(started.length > 0).toBe(expected.context.blueprint !== null);
  expect(alerts).toEqual(view.error ? [view.error] : []);
  if (view.note) expect(dialog.textContent).toContain(view.note);
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
