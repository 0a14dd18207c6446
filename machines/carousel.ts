import { assign, type SnapshotFrom, setup } from 'xstate';
import { CAROUSEL_SWIPE_THRESHOLD, timings } from '#domain/constants';

/**
 * A carousel of one, two or more items, that may move to the next item by itself every 4000 ms (Home's
 * explainer carousel does not) and follows a swipe past 10 % of the slide's width.
 *
 * One item: `single`, nothing to do. More: `browsing`, where next/prev move one slide (wrapping
 * around unless `loop` is false; with two items they toggle), goTo jumps, and a swipe that ends at
 * least 10 % of the slide width away changes the slide (else it snaps back). With auto-scroll on,
 * `playing` moves to the next slide every 4000 ms; hovering or focusing the carousel pauses it, and
 * any move restarts the wait.
 */
export interface CarouselInput {
  count: number;
  autoScroll: boolean;
  /** Wrap from the last slide to the first and back (default true). */
  loop?: boolean;
}
export interface CarouselContext {
  index: number;
  count: number;
  autoScroll: boolean;
  loop: boolean;
  /** Hover or focus is on the carousel: no auto-scroll. */
  paused: boolean;
  /** While swiping: how far the slide is dragged, as a fraction of its width (negative = leftward). */
  offset: number;
}
export type CarouselEvent =
  | { type: 'carousel.next' }
  | { type: 'carousel.prev' }
  | { type: 'carousel.goTo'; index: number }
  | { type: 'carousel.swipe.start' }
  | { type: 'carousel.swipe.move'; fraction: number }
  | { type: 'carousel.swipe.end' }
  | { type: 'carousel.swipe.cancel' }
  | { type: 'carousel.pause' }
  | { type: 'carousel.resume' };

const wrap = (index: number, count: number) => ((index % count) + count) % count;
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** Whether there is a slide after (step 1) or before (step -1) the current one. */
function canMove(context: Pick<CarouselContext, 'index' | 'count' | 'loop'>, step: 1 | -1): boolean {
  if (context.count < 2) return false;
  if (context.loop) return true;
  const next = context.index + step;
  return next >= 0 && next < context.count;
}

export const carouselMachine = setup({
  types: {
    context: {} as CarouselContext,
    events: {} as CarouselEvent,
    input: {} as CarouselInput,
  },
  guards: {
    single: ({ context }) => context.count < 2,
    hasNext: ({ context }) => canMove(context, 1),
    hasPrev: ({ context }) => canMove(context, -1),
    validIndex: ({ context, event }) =>
      event.type === 'carousel.goTo' &&
      Number.isInteger(event.index) &&
      event.index >= 0 &&
      event.index < context.count,
    autoScrollOn: ({ context }) => context.autoScroll,
    autoScrolls: ({ context }) => context.autoScroll && !context.paused,
    swipedToNext: ({ context }) => context.offset <= -CAROUSEL_SWIPE_THRESHOLD && canMove(context, 1),
    swipedToPrev: ({ context }) => context.offset >= CAROUSEL_SWIPE_THRESHOLD && canMove(context, -1),
  },
  actions: {
    next: assign({ index: ({ context }) => wrap(context.index + 1, context.count), offset: 0 }),
    prev: assign({ index: ({ context }) => wrap(context.index - 1, context.count), offset: 0 }),
    goTo: assign({
      index: ({ context, event }) => (event.type === 'carousel.goTo' ? event.index : context.index),
      offset: 0,
    }),
    drag: assign({
      offset: ({ context, event }) =>
        event.type === 'carousel.swipe.move' && Number.isFinite(event.fraction)
          ? clamp(event.fraction, -1, 1)
          : context.offset,
    }),
    snapBack: assign({ offset: 0 }),
    pause: assign({ paused: true }),
    resume: assign({ paused: false }),
  },
  delays: {
    autoScroll: timings.carouselAutoScrollMs,
  },
}).createMachine({
  id: 'carousel',
  context: ({ input }) => ({
    index: 0,
    count: Math.max(0, Math.floor(input.count)),
    autoScroll: input.autoScroll,
    loop: input.loop ?? true,
    paused: false,
    offset: 0,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'single', target: 'single' }, { target: 'browsing' }],
    },
    /** Zero or one item: no controls, nothing moves. */
    single: {},
    browsing: {
      initial: 'resting',
      // A move (re)enters `resting`: a swipe in progress is dropped and the auto-scroll wait restarts.
      on: {
        'carousel.next': { guard: 'hasNext', target: '.resting', actions: 'next' },
        'carousel.prev': { guard: 'hasPrev', target: '.resting', actions: 'prev' },
        'carousel.goTo': { guard: 'validIndex', target: '.resting', actions: 'goTo' },
        'carousel.pause': { guard: 'autoScrollOn', actions: 'pause' },
        'carousel.resume': { guard: 'autoScrollOn', actions: 'resume' },
      },
      states: {
        /** Not moving by itself: auto-scroll is off or paused. */
        resting: {
          always: { guard: 'autoScrolls', target: 'playing' },
          on: { 'carousel.swipe.start': 'swiping' },
        },
        /** Auto-scroll: the next slide after each wait. */
        playing: {
          after: { autoScroll: { target: 'playing', reenter: true, actions: 'next' } },
          on: {
            'carousel.pause': { target: 'resting', actions: 'pause' },
            'carousel.swipe.start': 'swiping',
          },
        },
        /** A pointer drags the slides; `offset` follows it. */
        swiping: {
          on: {
            'carousel.swipe.move': { actions: 'drag' },
            'carousel.swipe.end': [
              { guard: 'swipedToNext', target: 'resting', actions: 'next' },
              { guard: 'swipedToPrev', target: 'resting', actions: 'prev' },
              { target: 'resting', actions: 'snapBack' },
            ],
            'carousel.swipe.cancel': { target: 'resting', actions: 'snapBack' },
          },
        },
      },
    },
  },
});

export interface CarouselView {
  index: number;
  count: number;
  /** Zero or one slide: no controls. */
  single: boolean;
  /** A pointer drags the slides (no transition while it does). */
  swiping: boolean;
  /** Moving by itself: the live region stays quiet. */
  playing: boolean;
  /** Where the track sits: the current slide, plus the drag. */
  transform: string;
  canPrevious: boolean;
  canNext: boolean;
  /**
   * Whether slide `i` is on screen or a step away (Next, Previous, auto-scroll or a swipe reveal it
   * next), counting round the ends.
   */
  near: (i: number) => boolean;
  next: () => void;
  previous: () => void;
  goTo: (index: number) => void;
  swipeStart: () => void;
  /** The drag so far, as a fraction of the slide's width (negative = leftward). */
  swipeMove: (fraction: number) => void;
  swipeEnd: () => void;
  swipeCancel: () => void;
  pause: () => void;
  resume: () => void;
}

export function connectCarousel(
  snapshot: SnapshotFrom<typeof carouselMachine>,
  send: (event: CarouselEvent) => void,
): CarouselView {
  const { index, count, offset } = snapshot.context;
  return {
    index,
    count,
    single: snapshot.matches('single'),
    swiping: snapshot.matches({ browsing: 'swiping' }),
    playing: snapshot.matches({ browsing: 'playing' }),
    transform: `translateX(${(offset - index) * 100}%)`,
    canPrevious: snapshot.can({ type: 'carousel.prev' }),
    canNext: snapshot.can({ type: 'carousel.next' }),
    near: (i) => {
      const ahead = (((i - index) % count) + count) % count;
      return ahead === 0 || ahead === 1 || ahead === count - 1;
    },
    next: () => send({ type: 'carousel.next' }),
    previous: () => send({ type: 'carousel.prev' }),
    goTo: (to) => send({ type: 'carousel.goTo', index: to }),
    swipeStart: () => send({ type: 'carousel.swipe.start' }),
    swipeMove: (fraction) => send({ type: 'carousel.swipe.move', fraction }),
    swipeEnd: () => send({ type: 'carousel.swipe.end' }),
    swipeCancel: () => send({ type: 'carousel.swipe.cancel' }),
    pause: () => send({ type: 'carousel.pause' }),
    resume: () => send({ type: 'carousel.resume' }),
  };
}
