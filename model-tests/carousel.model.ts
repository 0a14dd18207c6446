import { expect } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { type CarouselEvent, carouselMachine } from '../machines/carousel';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof carouselMachine>;
/**
 * The slide shown, from the rules: next and previous move by one (wrapping around when the carousel
 * loops, else not past the ends), go-to jumps, a swipe of at least 10 % of the width moves one way,
 * less snaps back, and auto-scroll moves to the next slide.
 */
function expected(o: O) {
  const { count, loop } = o.snapshot.context;
  let index = 0;
  let offset = 0;
  let paused = false;
  const move = (by: number) => {
    const to = index + by;
    if (to >= 0 && to < count) index = to;
    else if (loop && count > 1) index = (to + count) % count;
  };
  for (const e of o.history) {
    if (e.type === 'carousel.next' || e.type.startsWith('xstate.after.autoScroll')) move(1);
    if (e.type === 'carousel.prev') move(-1);
    if (e.type === 'carousel.goTo') index = e.index as number;
    if (e.type === 'carousel.swipe.move') offset = e.fraction as number;
    if (e.type === 'carousel.swipe.end' && offset <= -0.1) move(1);
    if (e.type === 'carousel.swipe.end' && offset >= 0.1) move(-1);
    if (e.type === 'carousel.next' || e.type === 'carousel.prev' || e.type === 'carousel.goTo') offset = 0;
    if (
      e.type === 'carousel.swipe.end' ||
      e.type === 'carousel.swipe.cancel' ||
      e.type === 'carousel.swipe.start'
    )
      offset = 0;
    if (e.type === 'carousel.pause') paused = true;
    if (e.type === 'carousel.resume') paused = false;
  }
  return { index, paused };
}

/**
 * Swipe positions the paths drag to, as fractions of the slide width: exactly the 10 % threshold
 * leftward (next), a quarter rightward (previous), and 5 % leftward (snaps back).
 */
export const SWIPE_FRACTIONS = [-0.1, 0.25, -0.05] as const;

export const carouselModel: MachineModel<typeof carouselMachine> = {
  machine: carouselMachine,
  scenarios: [
    { name: '1 item', input: { count: 1, autoScroll: true } },
    { name: '2 items', input: { count: 2, autoScroll: false } },
    { name: '4 items without auto-scroll (Home explainer)', input: { count: 4, autoScroll: false } },
    { name: '3 items with auto-scroll', input: { count: 3, autoScroll: true } },
    { name: '3 items without looping', input: { count: 3, autoScroll: false, loop: false } },
  ],
  events: (s: AnyMachineSnapshot): Array<CarouselEvent | EventObject> => [
    { type: 'carousel.next' },
    { type: 'carousel.prev' },
    { type: 'carousel.goTo', index: s.context.count - 1 },
    { type: 'carousel.swipe.start' },
    // One drag per swipe keeps the graph small; further moves only replace the offset.
    ...(s.context.offset === 0
      ? SWIPE_FRACTIONS.map((fraction) => ({ type: 'carousel.swipe.move', fraction }))
      : []),
    { type: 'carousel.swipe.end' },
    { type: 'carousel.swipe.cancel' },
    { type: 'carousel.pause' },
    { type: 'carousel.resume' },
    { type: 'xstate.after.autoScroll.carousel.browsing.playing' },
  ],
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.index, s.context.paused, Math.round(s.context.offset * 1000) / 1000]),
  expect: {
    single: (o) => {
      expect(o.snapshot.context.count).toBe(1);
      expect(o.snapshot.context.index).toBe(0);
    },
    browsing: (o) => {
      expect(o.snapshot.context.count).toBeGreaterThan(1);
      expect(o.snapshot.context.index).toBe(expected(o).index);
    },
    'browsing.resting': (o) => {
      expect(o.snapshot.context.offset).toBe(0);
      expect(o.snapshot.context.autoScroll && !expected(o).paused).toBe(false);
    },
    // Auto-scroll runs when on and not paused (hover or focus pause it).
    'browsing.playing': (o) => {
      expect(o.snapshot.context.autoScroll).toBe(true);
      expect(expected(o).paused).toBe(false);
    },
    'browsing.swiping': (o) => {
      const move = o.history.findLast(
        (e) => e.type === 'carousel.swipe.move' || e.type === 'carousel.swipe.start',
      );
      expect(o.snapshot.context.offset).toBe(move?.type === 'carousel.swipe.move' ? move.fraction : 0);
    },
  },
};
