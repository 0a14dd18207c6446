import { afterAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { countdownMachine, untilNextSecond, withWallClock } from '../machines/countdown';
import { COUNTDOWN_NOW, countdownModel } from './countdown.model';
import { flushCoverage } from './coverage-store';
import { generatePaths, recordMicrosteps, runPath } from './harness';

describe('countdown machine paths', () => {
  const paths = generatePaths(countdownModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThanOrEqual(4));
  for (const path of paths) it(path.description, () => runPath(countdownModel, path));

  it('ticks on whole seconds: a shorter first tick, then every 1000 ms', () => {
    expect(untilNextSecond(2000)).toBe(1000);
    expect(untilNextSecond(1500)).toBe(500);
    expect(untilNextSecond(1)).toBe(1);
    expect(untilNextSecond(3_600_001)).toBe(1);
  });

  it('reads the clock on each tick with withWallClock', () => {
    let now = COUNTDOWN_NOW;
    const actor = createActor(
      withWallClock(() => now),
      {
        input: { availableTime: COUNTDOWN_NOW + 10_000, available: true, now },
        inspect: recordMicrosteps,
      },
    ).start();
    expect(actor.getSnapshot().context.remaining).toBe(10_000);
    // A throttled tab: the timer fires late, the countdown catches up with the clock.
    now += 7_000;
    actor.send({ type: 'xstate.after.tick.countdown.counting' } as never);
    expect(actor.getSnapshot().context.remaining).toBe(3_000);
    now += 5_000;
    actor.send({ type: 'xstate.after.tick.countdown.counting' } as never);
    expect(actor.getSnapshot().value).toBe('live');
    actor.stop();
  });

  it('starts from Date.now() without input.now', () => {
    const actor = createActor(countdownMachine, {
      input: { availableTime: Date.now() + 60_000, available: false },
    }).start();
    expect(actor.getSnapshot().value).toBe('counting');
    expect(actor.getSnapshot().context.remaining).toBeGreaterThan(59_000);
    actor.stop();
  });

  afterAll(() => flushCoverage('machine'));
});
