import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, fromPromise } from 'xstate';
import { connectPublish, publishMachine } from '../machines/publish';
import { type AppActors, AppContext } from '../src/views/AppContext';
import { PublishDialog, PublishView } from '../src/views/dashboard/PublishDialog';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { makeBlueprint } from './fixtures';
import { coveringPaths, type PathStep, runPath } from './harness';
import { active, pending, publishModel } from './publish.model';
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

/** The dialog as the view model says; its end reaches the page through useFlowActor (PublishDialog). */
function check(expected: AnyMachineSnapshot, started: number[]) {
  const view = connectPublish(expected as never, () => {});
  if (view.panel === 'ended') {
    expect(screen.queryByRole('dialog')).toBeNull();
    return;
  }
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
      return runPath(publishModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => <PublishView actor={actor as never} onStarted={() => started.push(1)} />),
        perform,
        check: async (expected) => {
          await act(() => Promise.resolve());
          check(expected, started);
        },
        wrap: (fn) => act(fn),
      });
    });
  }
  afterAll(() => flushCoverage('view'));
});

describe('how the publish dialog ends, as the products list hears it', () => {
  it('hears of the start, then changed: true once it is published and Done is pressed', async () => {
    const flow = publishMachine.provide({
      actors: {
        setReadyToSell: fromPromise(async () => pending),
        fetchBlueprint: fromPromise(async () => active),
      },
      delays: { pollInterval: 1 },
    });
    const started: number[] = [];
    const done: boolean[] = [];
    render(
      <AppContext.Provider value={{} as AppActors}>
        <PublishDialog
          machine={flow}
          blueprint={makeBlueprint()}
          onStarted={() => started.push(1)}
          onDone={(changed) => done.push(changed)}
        />
      </AppContext.Provider>,
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Publish' })));
    await screen.findByRole('button', { name: 'Done' });
    expect(started).toEqual([1]);
    expect(done).toEqual([]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Done' })));
    expect(done).toEqual([true]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('ends unchanged with Not yet', async () => {
    const done: boolean[] = [];
    render(
      <AppContext.Provider value={{} as AppActors}>
        <PublishDialog
          machine={publishMachine}
          blueprint={makeBlueprint()}
          onStarted={() => {}}
          onDone={(changed) => done.push(changed)}
        />
      </AppContext.Provider>,
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Not yet' })));
    expect(done).toEqual([false]);
  });
});
