import { afterAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { type CarouselInput, carouselMachine, connectCarousel } from '../machines/carousel';
import { carouselModel } from './carousel.model';
import { flushCoverage } from './coverage-store';
import { generatePaths, recordMicrosteps, runPath } from './harness';

describe('carousel machine paths', () => {
  const paths = generatePaths(carouselModel);
  it('generates paths for every scenario', () => {
    for (const scenario of carouselModel.scenarios)
      expect(
        paths.some((p) => p.scenario === scenario),
        scenario.name,
      ).toBe(true);
  });
  for (const path of paths) it(path.description, () => runPath(carouselModel, path));

  const start = (input: CarouselInput) =>
    createActor(carouselMachine, { input, inspect: recordMicrosteps }).start();

  it('wraps around in both directions with more than two items', () => {
    const actor = start({ count: 4, autoScroll: false });
    actor.send({ type: 'carousel.prev' });
    expect(actor.getSnapshot().context.index).toBe(3);
    actor.send({ type: 'carousel.next' });
    expect(actor.getSnapshot().context.index).toBe(0);
    actor.stop();
  });

  it('tells which slides are on screen or a step away, round the ends', () => {
    const actor = start({ count: 5, autoScroll: false });
    const near = () =>
      [0, 1, 2, 3, 4].filter((i) => connectCarousel(actor.getSnapshot(), actor.send).near(i));
    expect(near()).toEqual([0, 1, 4]);
    actor.send({ type: 'carousel.goTo', index: 2 });
    expect(near()).toEqual([1, 2, 3]);
    actor.send({ type: 'carousel.goTo', index: 4 });
    expect(near()).toEqual([0, 3, 4]);
    actor.stop();
  });

  it('ignores goTo outside the slides and clamps drags to one slide width', () => {
    const actor = start({ count: 3, autoScroll: false });
    actor.send({ type: 'carousel.goTo', index: 3 });
    actor.send({ type: 'carousel.goTo', index: -1 });
    actor.send({ type: 'carousel.goTo', index: 1.5 });
    expect(actor.getSnapshot().context.index).toBe(0);
    actor.send({ type: 'carousel.swipe.start' });
    actor.send({ type: 'carousel.swipe.move', fraction: -3 });
    expect(actor.getSnapshot().context.offset).toBe(-1);
    actor.send({ type: 'carousel.swipe.move', fraction: Number.NaN });
    expect(actor.getSnapshot().context.offset).toBe(-1);
    actor.send({ type: 'carousel.swipe.end' });
    expect(actor.getSnapshot().context).toMatchObject({ index: 1, offset: 0 });
    actor.stop();
  });

  it('has nothing to do with no items', () => {
    const actor = start({ count: 0, autoScroll: true });
    expect(actor.getSnapshot().value).toBe('single');
    actor.stop();
  });

  afterAll(() => flushCoverage('machine'));
});
