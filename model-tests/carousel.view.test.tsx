import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { type CarouselInput, connectCarousel } from '../machines/carousel';
import { Carousel, CarouselView } from '../src/views/components/Carousel';
import { carouselModel } from './carousel.model';
import { flushCoverage } from './coverage-store';
import { coveringPaths, type PathStep, runPath } from './harness';

const LABEL = 'How Vitrine works';
/** The slides' width in these tests (jsdom has no layout): a swipe of 40 px is the 10 % threshold. */
const WIDTH = 400;
const START_X = 200;

const NAMES = ['Create', 'List', 'Sell', 'Collect'];
const slidesOf = (count: number) => NAMES.slice(0, count).map((name) => <p key={name}>{name}</p>);

const region = () => screen.getByRole('region', { name: LABEL });
const viewport = () => region().querySelector<HTMLElement>('.vt-carousel__viewport')!;
const track = () => region().querySelector<HTMLElement>('.vt-carousel__track')!;

/** Gives the viewport a width, as a browser's layout would. */
function sized() {
  viewport().getBoundingClientRect = () => ({ width: WIDTH, height: 200, x: 0, y: 0 }) as DOMRect;
}

/**
 * Every event through the screen: buttons and keys take turns for next/prev, dots for goTo, pointer
 * events for swipes, hover and focus take turns for pause. Only the auto-scroll timer goes to the clock.
 */
let turn = 0;
let held: { hover: boolean; focus: boolean } = { hover: false, focus: false };

async function perform(step: PathStep) {
  const e = step.event as { type: string; index?: number; fraction?: number };
  const pointer = { pointerId: 1, isPrimary: true, pointerType: 'mouse', button: 0 };
  turn++;
  switch (e.type) {
    case 'carousel.next':
      if (turn % 2) fireEvent.click(screen.getByRole('button', { name: 'Next slide' }));
      else fireEvent.keyDown(region(), { key: 'ArrowRight' });
      return true;
    case 'carousel.prev':
      if (turn % 2) fireEvent.click(screen.getByRole('button', { name: 'Previous slide' }));
      else fireEvent.keyDown(region(), { key: 'ArrowLeft' });
      return true;
    case 'carousel.goTo':
      fireEvent.click(screen.getByRole('button', { name: `Go to slide ${e.index! + 1}` }));
      return true;
    case 'carousel.swipe.start':
      fireEvent.pointerDown(viewport(), { ...pointer, clientX: START_X });
      return true;
    case 'carousel.swipe.move':
      fireEvent.pointerMove(viewport(), { ...pointer, clientX: START_X + e.fraction! * WIDTH });
      return true;
    case 'carousel.swipe.end':
      fireEvent.pointerUp(viewport(), { ...pointer });
      return true;
    case 'carousel.swipe.cancel':
      fireEvent.pointerCancel(viewport(), { ...pointer });
      return true;
    case 'carousel.pause':
      if (!held.hover && !held.focus && turn % 2) {
        held.focus = true;
        const next = screen.getByRole('button', { name: 'Next slide' });
        act(() => next.focus());
      } else {
        held.hover = true;
        fireEvent.pointerEnter(region());
      }
      return true;
    case 'carousel.resume':
      // Resumes once neither the focus nor the pointer is in the carousel.
      if (held.focus) act(() => (document.activeElement as HTMLElement).blur());
      if (held.hover || !held.focus) fireEvent.pointerLeave(region());
      held = { hover: false, focus: false };
      return true;
    default:
      return false;
  }
}

/** The carousel shows what the view model of the expected snapshot says. */
function check(expected: AnyMachineSnapshot) {
  const view = connectCarousel(expected as never, () => {});
  const slides = within(region()).getAllByRole('group');
  expect(slides).toHaveLength(view.count);
  slides.forEach((slide, i) => {
    expect(slide.getAttribute('aria-roledescription')).toBe('slide');
    expect(slide.getAttribute('aria-label')).toBe(`${i + 1} of ${view.count}`);
    expect(slide.hasAttribute('inert')).toBe(i !== view.index);
  });
  expect(track().style.transform).toBe(view.transform);
  expect(track().classList.contains('vt-carousel__track--swiping')).toBe(view.swiping);
  expect(track().getAttribute('aria-live')).toBe(view.playing ? 'off' : 'polite');
  if (view.single) {
    expect(within(region()).queryAllByRole('button')).toEqual([]);
    return;
  }
  for (let i = 0; i < view.count; i++) {
    const dot = screen.getByRole('button', { name: `Go to slide ${i + 1}` });
    expect(dot.getAttribute('aria-current')).toBe(i === view.index ? 'true' : null);
  }
  const prev = screen.getByRole('button', { name: 'Previous slide' }) as HTMLButtonElement;
  const next = screen.getByRole('button', { name: 'Next slide' }) as HTMLButtonElement;
  expect(prev.disabled).toBe(!view.canPrevious);
  expect(next.disabled).toBe(!view.canNext);
}

describe('carousel paths through the view', () => {
  for (const path of coveringPaths(carouselModel)) {
    const { count } = path.scenario.input as CarouselInput;
    it(path.description, () =>
      runPath(carouselModel, path, {
        mount: (actor: AnyActorRef) => {
          held = { hover: false, focus: false };
          render(<CarouselView actor={actor as never} slides={slidesOf(count)} label={LABEL} />);
          sized();
        },
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});

describe('Carousel', () => {
  afterEach(() => vi.useRealTimers());

  const shown = () => Number(region().dataset.index);

  it('has no controls for one slide', () => {
    render(<Carousel slides={slidesOf(1)} label={LABEL} autoScroll />);
    expect(within(region()).getByRole('group', { name: '1 of 1' })).toBeTruthy();
    expect(within(region()).queryAllByRole('button')).toEqual([]);
    expect(region().getAttribute('aria-roledescription')).toBe('carousel');
  });

  it('scrolls every 4000 ms, not while hovered or focused', async () => {
    vi.useFakeTimers();
    render(<Carousel slides={slidesOf(3)} label={LABEL} autoScroll />);
    await act(async () => vi.advanceTimersByTime(3999));
    expect(shown()).toBe(0);
    await act(async () => vi.advanceTimersByTime(1));
    expect(shown()).toBe(1);
    fireEvent.pointerEnter(region());
    await act(async () => vi.advanceTimersByTime(12_000));
    expect(shown()).toBe(1);
    screen.getByRole('button', { name: 'Next slide' }).focus();
    fireEvent.pointerLeave(region());
    // Still focused: still paused.
    await act(async () => vi.advanceTimersByTime(12_000));
    expect(shown()).toBe(1);
    act(() => (document.activeElement as HTMLElement).blur());
    await act(async () => vi.advanceTimersByTime(4000));
    expect(shown()).toBe(2);
    await act(async () => vi.advanceTimersByTime(4000));
    expect(shown()).toBe(0);
  });

  it('restarts the wait after a move', async () => {
    vi.useFakeTimers();
    render(<Carousel slides={slidesOf(4)} label={LABEL} autoScroll />);
    await act(async () => vi.advanceTimersByTime(3000));
    fireEvent.click(screen.getByRole('button', { name: 'Go to slide 3' }));
    await act(async () => vi.advanceTimersByTime(3000));
    expect(shown()).toBe(2);
    await act(async () => vi.advanceTimersByTime(1000));
    expect(shown()).toBe(3);
  });

  it('does not scroll by itself without autoScroll (Home explainer)', async () => {
    vi.useFakeTimers();
    render(<Carousel slides={slidesOf(4)} label={LABEL} />);
    await act(async () => vi.advanceTimersByTime(60_000));
    expect(shown()).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Previous slide' }));
    expect(shown()).toBe(3);
    expect(screen.getByRole('button', { name: 'Go to slide 4' }).getAttribute('aria-current')).toBe('true');
  });

  it('does not scroll by itself when the user prefers reduced motion', async () => {
    vi.useFakeTimers();
    window.matchMedia = ((query: string) => ({ matches: query.includes('reduce') })) as never;
    try {
      render(<Carousel slides={slidesOf(3)} label={LABEL} autoScroll />);
      await act(async () => vi.advanceTimersByTime(20_000));
      expect(shown()).toBe(0);
    } finally {
      delete (window as { matchMedia?: unknown }).matchMedia;
    }
  });

  it('swipes past 10 % of the width, and the click ending the swipe does not reach the slide', () => {
    const clicked = vi.fn();
    render(
      <Carousel
        slides={[
          <button key="a" type="button" onClick={clicked}>
            Inside
          </button>,
          <p key="b">Two</p>,
        ]}
        label={LABEL}
      />,
    );
    sized();
    const pointer = { pointerId: 7, isPrimary: true, pointerType: 'touch' };
    // 9 % snaps back.
    fireEvent.pointerDown(viewport(), { ...pointer, clientX: 300 });
    fireEvent.pointerMove(viewport(), { ...pointer, clientX: 264 });
    expect(track().style.transform).toBe('translateX(-9%)');
    fireEvent.pointerUp(viewport(), pointer);
    expect(shown()).toBe(0);
    // A tap still clicks what it lands on.
    fireEvent.click(screen.getByRole('button', { name: 'Inside' }), { detail: 1 });
    expect(clicked).toHaveBeenCalledTimes(1);
    // A second pointer does not drag.
    fireEvent.pointerDown(viewport(), { ...pointer, clientX: 300 });
    fireEvent.pointerMove(viewport(), { ...pointer, pointerId: 8, clientX: 100 });
    expect(track().style.transform).toBe('translateX(0%)');
    // 20 % leftward: next slide; the click that follows is swallowed.
    fireEvent.pointerMove(viewport(), { ...pointer, clientX: 220 });
    fireEvent.pointerUp(viewport(), pointer);
    fireEvent.click(screen.getByRole('button', { name: 'Inside' }), { detail: 1 });
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(shown()).toBe(1);
    // Two slides toggle.
    fireEvent.keyDown(region(), { key: 'ArrowRight' });
    expect(shown()).toBe(0);
    fireEvent.keyDown(region(), { key: 'ArrowLeft' });
    expect(shown()).toBe(1);
  });

  it('drops an unfinished swipe when the pointer leaves the slides', () => {
    render(<Carousel slides={slidesOf(3)} label={LABEL} />);
    sized();
    const pointer = { pointerId: 1, isPrimary: true, pointerType: 'mouse', button: 0 };
    fireEvent.pointerDown(viewport(), { ...pointer, clientX: 200 });
    fireEvent.pointerMove(viewport(), { ...pointer, clientX: 190 });
    fireEvent.pointerLeave(viewport(), { ...pointer, relatedTarget: region() });
    expect(track().classList.contains('vt-carousel__track--swiping')).toBe(false);
    expect(track().style.transform).toBe('translateX(0%)');
    // A right click does not start one.
    fireEvent.pointerDown(viewport(), { ...pointer, button: 2, clientX: 200 });
    expect(track().classList.contains('vt-carousel__track--swiping')).toBe(false);
  });

  it('stops at the ends without loop', () => {
    render(<Carousel slides={slidesOf(2)} label={LABEL} loop={false} />);
    expect((screen.getByRole('button', { name: 'Previous slide' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(region(), { key: 'ArrowLeft' });
    expect(shown()).toBe(0);
    fireEvent.keyDown(region(), { key: 'ArrowRight' });
    fireEvent.keyDown(region(), { key: 'ArrowRight' });
    expect(shown()).toBe(1);
    expect((screen.getByRole('button', { name: 'Next slide' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('starts again at the first slide when the number of slides changes', () => {
    const { rerender } = render(<Carousel slides={slidesOf(3)} label={LABEL} />);
    fireEvent.click(screen.getByRole('button', { name: 'Go to slide 3' }));
    expect(shown()).toBe(2);
    rerender(<Carousel slides={slidesOf(4)} label={LABEL} />);
    expect(shown()).toBe(0);
    expect(within(region()).getAllByRole('group')).toHaveLength(4);
  });

  it('with drawNear, draws the slide on screen and the ones a step either way, and fills the rest as they come near', () => {
    render(<Carousel slides={slidesOf(4)} label={LABEL} drawNear />);
    const drawn = () =>
      within(region())
        .getAllByRole('group', { hidden: true })
        .map((slide) => slide.textContent);
    // Every slide keeps its box (the track's layout does not move); only its content waits.
    expect(drawn()).toEqual(['Create', 'List', '', 'Collect']);
    fireEvent.click(screen.getByRole('button', { name: 'Next slide' }));
    expect(drawn()).toEqual(['Create', 'List', 'Sell', '']);
    fireEvent.click(screen.getByRole('button', { name: 'Go to slide 4' }));
    expect(drawn()).toEqual(['Create', '', 'Sell', 'Collect']);
  });

  it('without drawNear, draws every slide (their text is in the page)', () => {
    render(<Carousel slides={slidesOf(4)} label={LABEL} />);
    expect(
      within(region())
        .getAllByRole('group', { hidden: true })
        .map((slide) => slide.textContent),
    ).toEqual(NAMES);
  });
});
