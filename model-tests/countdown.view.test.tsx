import { act, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { countdownText } from '#domain/countdown';
import { connectCountdown } from '../machines/countdown';
import { type AppActors, AppContext } from '../src/views/AppContext';
import { Countdown, CountdownView } from '../src/views/catalog/Countdown';
import { countdownModel } from './countdown.model';
import { flushCoverage } from './coverage-store';
import { coveringPaths, recordMicrosteps, runPath } from './harness';

const HOUR = 3_600_000;

/** The countdown's screen: what the view model says, the timer while counting, then Live or Pending. */
function check(expected: AnyMachineSnapshot) {
  const view = connectCountdown(expected as never);
  const timer = screen.queryByRole('timer');
  if (view.phase === 'counting') {
    expect(timer?.textContent).toBe(view.text);
    expect(timer?.textContent).toBe(countdownText(expected.context.remaining));
    expect(timer?.getAttribute('aria-live')).toBe('off');
    expect(timer?.getAttribute('datetime')).toBe(view.dateTime);
  } else {
    expect(timer).toBeNull();
    expect(screen.getByText(view.text)).toBeTruthy();
  }
}

const inApp = (node: ReactNode) => (
  <AppContext.Provider value={{ inspect: recordMicrosteps } as unknown as AppActors}>
    {node}
  </AppContext.Provider>
);

describe('countdown paths through the view', () => {
  for (const path of coveringPaths(countdownModel)) {
    it(path.description, () =>
      runPath(countdownModel, path, {
        mount: (actor: AnyActorRef) => {
          render(<CountdownView actor={actor as never} />);
        },
        // No user events: every step is a tick, which the harness runs on the clock. A user event
        // added to the model would fail here until the view gets its control.
        perform: () => false,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});

describe('Countdown on the wall clock', () => {
  afterEach(() => vi.useRealTimers());

  it('shows a day count above 99 hours', () => {
    render(inApp(<Countdown availableTime={Date.now() + 5 * 24 * HOUR + HOUR} available />));
    expect(screen.getByRole('timer').textContent).toBe('5 days');
  });

  it('shows hours:minutes:seconds at 99 hours or less', () => {
    render(inApp(<Countdown availableTime={Date.now() + 98 * HOUR + 59 * 60_000 + 59_000} available />));
    expect(screen.getByRole('timer').textContent).toBe('98:59:59');
  });

  it('ticks every second, then shows Live', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    const onEnd = vi.fn();
    render(inApp(<Countdown availableTime={Date.now() + 3000} available onEnd={onEnd} />));
    expect(screen.getByRole('timer').textContent).toBe('00:00:03');
    await act(async () => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer').textContent).toBe('00:00:02');
    await act(async () => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer').textContent).toBe('00:00:01');
    await act(async () => vi.advanceTimersByTime(1000));
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByText('Live')).toBeTruthy();
    expect(onEnd).toHaveBeenCalledExactlyOnceWith('live');
  });

  it('catches up with the clock after a late tick', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    render(inApp(<Countdown availableTime={Date.now() + 10_000} available={false} />));
    // A throttled background tab: the clock moves 5 s more than the timer waited.
    vi.setSystemTime(Date.now() + 5_000);
    await act(async () => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer').textContent).toBe('00:00:04');
    await act(async () => vi.advanceTimersByTime(4000));
    expect(screen.getByText('Pending')).toBeTruthy();
  });

  it('is live or pending at once when availableTime is null or past', () => {
    const onEnd = vi.fn();
    render(inApp(<Countdown availableTime={null} available onEnd={onEnd} />));
    expect(screen.getByText('Live')).toBeTruthy();
    render(inApp(<Countdown availableTime={Date.now() - 1000} available={false} onEnd={onEnd} />));
    expect(screen.getByText('Pending')).toBeTruthy();
    expect(onEnd.mock.calls).toEqual([['live'], ['pending']]);
  });

  it('starts again when availableTime changes', () => {
    const { rerender } = render(inApp(<Countdown availableTime={null} available />));
    expect(screen.getByText('Live')).toBeTruthy();
    rerender(inApp(<Countdown availableTime={Date.now() + 2 * HOUR} available />));
    expect(screen.getByRole('timer').textContent).toMatch(/^0[12]:\d\d:\d\d$/);
  });
});
