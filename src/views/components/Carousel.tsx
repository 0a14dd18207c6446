import { useActorRef, useSelector } from '@xstate/react';
import {
  type DragEvent,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactNode,
  useContext,
  useId,
  useRef,
  useState,
} from 'react';
import type { ActorRefFrom } from 'xstate';
import { CAROUSEL_SWIPE_THRESHOLD } from '#domain/constants';
import {
  type CarouselView as CarouselModel,
  carouselMachine,
  connectCarousel,
} from '../../../machines/carousel';
import { AppContext } from '../AppContext';
import { cx } from './cx';
import './carousel.css';

export interface CarouselProps {
  slides: ReactNode[];
  /** Accessible name of the carousel ("How Vitrine works", "Items of Ada's storefront"). */
  label: string;
  /** Move to the next slide every 4000 ms (off with prefers-reduced-motion). Default false. */
  autoScroll?: boolean;
  /** Wrap from the last slide to the first and back. Default true. */
  loop?: boolean;
  /**
   * Draws only the slides on screen or a step away; the others are empty boxes of the same size,
   * filled as they come near. For carousels of pictures: a page of them lays out and fetches one
   * step's worth of each, not every slide. Default false (every slide's text is in the page).
   */
  drawNear?: boolean;
  className?: string;
}

/**
 * A slide off screen is inert: its links and buttons take no focus or click. React 18 knows no
 * `inert` property and writes such an attribute only from a string: the empty string sets it.
 */
const INERT = { inert: '' };

const prefersReducedMotion = () =>
  typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

/**
 * A carousel of `slides`: previous/next buttons,
 * one dot per slide, ArrowLeft/ArrowRight, pointer swipes with a 10 % threshold, and optional
 * auto-scroll paused while hovered or focused. One slide: no controls. A new number of slides (or
 * options) starts a new carousel at the first slide.
 */
export function Carousel(props: CarouselProps) {
  return (
    <CarouselActor key={`${props.slides.length}:${!!props.autoScroll}:${props.loop ?? true}`} {...props} />
  );
}

function CarouselActor({ slides, label, autoScroll = false, loop, drawNear, className }: CarouselProps) {
  // A component of its own: it works inside the app (inspection) and outside it.
  const inspect = useContext(AppContext)?.inspect;
  const [reducedMotion] = useState(prefersReducedMotion);
  const actor = useActorRef(carouselMachine, {
    input: { count: slides.length, autoScroll: autoScroll && !reducedMotion, loop },
    inspect,
  });
  return (
    <CarouselView actor={actor} slides={slides} label={label} drawNear={drawNear} className={className} />
  );
}

export interface CarouselViewProps {
  actor: ActorRefFrom<typeof carouselMachine>;
  slides: ReactNode[];
  label: string;
  drawNear?: boolean;
  className?: string;
}

export function CarouselView({ actor, slides, label, drawNear = false, className }: CarouselViewProps) {
  const trackId = useId();
  const view = connectCarousel(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  const { index, single } = view;
  const swipe = useSwipe(view);
  const hold = useHoldPause(view);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (single || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, select, [contenteditable="true"]')) return;
    if (event.key === 'ArrowLeft') {
      event.preventDefault();
      view.previous();
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      view.next();
    }
  };

  return (
    <section
      aria-roledescription="carousel"
      aria-label={label}
      className={cx('vt-carousel', single && 'vt-carousel--single', className)}
      data-index={index}
      onKeyDown={onKeyDown}
      {...hold}
    >
      {/* The swipe surface: the buttons and the arrow keys do the same. */}
      <div className="vt-carousel__viewport" {...swipe}>
        <div
          id={trackId}
          className={cx('vt-carousel__track', view.swiping && 'vt-carousel__track--swiping')}
          style={{ transform: view.transform }}
          aria-live={view.playing ? 'off' : 'polite'}
        >
          {slides.map((slide, i) => (
            // biome-ignore lint/a11y/useSemanticElements: WAI-ARIA carousel pattern: a slide is a group, not a form fieldset.
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: slides are positional; the carousel restarts when their number changes.
              key={i}
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${slides.length}`}
              className={cx('vt-carousel__slide', i === index && 'vt-carousel__slide--current')}
              {...(i === index ? {} : INERT)}
            >
              {!drawNear || view.near(i) ? slide : null}
            </div>
          ))}
        </div>
      </div>
      {single ? null : <CarouselControls view={view} count={slides.length} trackId={trackId} />}
    </section>
  );
}

/**
 * Pointer swipes on the slides: a swipe follows the pointer, and past the threshold it captures
 * the pointer and swallows the click that ends it; answers the props of the swipe surface.
 */
function useSwipe(view: CarouselModel) {
  const viewport = useRef<HTMLDivElement>(null);
  const drag = useRef<{ pointerId: number; startX: number; width: number } | null>(null);
  /** A swipe went past the threshold: the click that ends it must not activate a link in the slide. */
  const dragged = useRef(false);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (view.single || !event.isPrimary || (event.pointerType === 'mouse' && event.button !== 0)) return;
    drag.current = {
      pointerId: event.pointerId,
      startX: event.clientX,
      width: viewport.current?.getBoundingClientRect().width ?? 0,
    };
    dragged.current = false;
    view.swipeStart();
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || event.pointerId !== current.pointerId) return;
    const fraction = current.width > 0 ? (event.clientX - current.startX) / current.width : 0;
    if (!dragged.current && Math.abs(fraction) >= CAROUSEL_SWIPE_THRESHOLD) {
      dragged.current = true;
      // Captured only once it is a swipe: a capture from the start would retarget a tap's click away
      // from the link or button it landed on.
      try {
        event.currentTarget.setPointerCapture?.(event.pointerId);
      } catch {
        // The pointer is gone already: its up or cancel ends the swipe anyway.
      }
    }
    view.swipeMove(fraction);
  };
  const endDrag = (event: PointerEvent<HTMLDivElement>, end: () => void) => {
    if (!drag.current || event.pointerId !== drag.current.pointerId) return;
    drag.current = null;
    end();
  };
  const onClickCapture = (event: MouseEvent<HTMLDivElement>) => {
    // detail 0: a click from the keyboard, never the end of a swipe.
    if (!dragged.current || event.detail === 0) return;
    dragged.current = false;
    event.preventDefault();
    event.stopPropagation();
  };
  return {
    ref: viewport,
    onPointerDown,
    onPointerMove,
    onPointerUp: (event: PointerEvent<HTMLDivElement>) => endDrag(event, view.swipeEnd),
    onPointerCancel: (event: PointerEvent<HTMLDivElement>) => endDrag(event, view.swipeCancel),
    // Not captured yet (under the threshold): leaving the slides drops the swipe.
    onPointerLeave: (event: PointerEvent<HTMLDivElement>) => {
      if (!dragged.current) endDrag(event, view.swipeCancel);
    },
    onClickCapture,
    onDragStart: (event: DragEvent<HTMLDivElement>) => event.preventDefault(),
  };
}

/**
 * Hover or focus anywhere in the carousel pauses auto-scroll; it resumes when both have left.
 * Answers the props of the carousel's element.
 */
function useHoldPause(view: CarouselModel) {
  const hovered = useRef(false);
  const focused = useRef(false);
  const pause = view.pause;
  const resumeUnlessHeld = () => {
    if (!hovered.current && !focused.current) view.resume();
  };
  return {
    onPointerEnter: () => {
      hovered.current = true;
      pause();
    },
    onPointerLeave: () => {
      hovered.current = false;
      resumeUnlessHeld();
    },
    onFocus: () => {
      focused.current = true;
      pause();
    },
    onBlur: (event: FocusEvent<HTMLElement>) => {
      if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
      focused.current = false;
      resumeUnlessHeld();
    },
  };
}

/** Previous and next buttons around one dot a slide (the current one marked). */
function CarouselControls({ view, count, trackId }: { view: CarouselModel; count: number; trackId: string }) {
  return (
    <div className="vt-carousel__controls">
      <button
        type="button"
        className="vt-carousel__arrow"
        aria-label="Previous slide"
        aria-controls={trackId}
        disabled={!view.canPrevious}
        onClick={view.previous}
      >
        <Chevron direction="left" />
      </button>
      <div className="vt-carousel__dots">
        {Array.from({ length: count }, (_, i) => (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: one dot per slide position.
            key={i}
            type="button"
            className="vt-carousel__dot"
            aria-label={`Go to slide ${i + 1}`}
            aria-controls={trackId}
            aria-current={i === view.index ? 'true' : undefined}
            onClick={() => view.goTo(i)}
          />
        ))}
      </div>
      <button
        type="button"
        className="vt-carousel__arrow"
        aria-label="Next slide"
        aria-controls={trackId}
        disabled={!view.canNext}
        onClick={view.next}
      >
        <Chevron direction="right" />
      </button>
    </div>
  );
}

function Chevron({ direction }: { direction: 'left' | 'right' }) {
  return (
    <svg
      width={20}
      height={20}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={direction === 'left' ? 'm15 18-6-6 6-6' : 'm9 18 6-6-6-6'} />
    </svg>
  );
}
