import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { timings } from '#domain/constants';
import { errorMessage } from '#domain/errors';
import { PUBLISH_TIMEOUT_MESSAGE, publishMachine } from '../machines/publish';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { pending, publishModel } from './publish.model';

describe('publish machine paths', () => {
  const paths = generatePaths(publishModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
  for (const path of paths) it(path.description, () => runPath(publishModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('publish polling (every 2 s, up to 50 times)', () => {
  it('polls 50 times, 2 s apart, then fails with the timeout shown as errors.unknown', async () => {
    const clock = new SimulatedClock();
    const polledAt: number[] = [];
    const actor = createActor(
      publishMachine.provide({
        actors: {
          setReadyToSell: fromPromise(async () => pending),
          fetchBlueprint: fromPromise(async () => {
            polledAt.push(clock.now());
            return pending;
          }),
        },
      }),
      { input: { blueprintId: pending.id, title: pending.title }, clock },
    ).start();
    actor.send({ type: 'publish.confirm' });
    await Promise.resolve();
    for (let i = 0; i < 60; i++) {
      clock.increment(timings.publishPollMs);
      for (let j = 0; j < 5; j++) await Promise.resolve();
    }
    expect(polledAt).toHaveLength(50);
    expect(polledAt.slice(0, 3)).toEqual([2000, 4000, 6000]);
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('failed');
    expect(snapshot.context.error).toEqual({ code: 'unknown', message: PUBLISH_TIMEOUT_MESSAGE });
    expect(errorMessage(snapshot.context.error)).toBe('Unknown error occurred');
    // Retrying after a timeout keeps polling the job that is still running.
    actor.send({ type: 'publish.retry' });
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(actor.getSnapshot().context.polls).toBe(0);
  });
});
