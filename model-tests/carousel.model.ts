import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { type CarouselEvent, carouselMachine } from '../machines/carousel';
import type { MachineModel } from './harness';

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
};
