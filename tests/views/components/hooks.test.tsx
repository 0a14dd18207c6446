import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  RESIZE_DEBOUNCE_MS,
  useDebouncedResize,
  useViewportWidth,
} from '../../../src/views/components/useDebouncedResize';
import { useEscape } from '../../../src/views/components/useEscape';
import { useOutsideClick } from '../../../src/views/components/useOutsideClick';

function ResizeProbe({ onResize, delay }: { onResize: (size: { width: number }) => void; delay?: number }) {
  useDebouncedResize(onResize, delay);
  return null;
}

function Width() {
  return <output>{useViewportWidth()}</output>;
}

function resizeTo(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

describe('useDebouncedResize', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('debounces resizes by 100 ms by default', () => {
    expect(RESIZE_DEBOUNCE_MS).toBe(100);
  });

  it('fires once, 100 ms after the last resize of a burst, with the latest size', () => {
    vi.useFakeTimers();
    const onResize = vi.fn();
    render(<ResizeProbe onResize={onResize} delay={100} />);

    resizeTo(900);
    vi.advanceTimersByTime(60);
    resizeTo(800);
    vi.advanceTimersByTime(60);
    resizeTo(700);
    vi.advanceTimersByTime(99);
    expect(onResize).not.toHaveBeenCalled();

    vi.advanceTimersByTime(1);
    expect(onResize).toHaveBeenCalledTimes(1);
    expect(onResize).toHaveBeenCalledWith(expect.objectContaining({ width: 700 }));

    vi.advanceTimersByTime(1000);
    expect(onResize).toHaveBeenCalledTimes(1);
  });

  it('uses 100 ms when no delay is given, and drops a pending call on unmount', () => {
    vi.useFakeTimers();
    const onResize = vi.fn();
    const { unmount } = render(<ResizeProbe onResize={onResize} />);
    resizeTo(500);
    vi.advanceTimersByTime(100);
    expect(onResize).toHaveBeenCalledTimes(1);

    resizeTo(600);
    unmount();
    vi.advanceTimersByTime(500);
    expect(onResize).toHaveBeenCalledTimes(1);
  });

  it('useViewportWidth follows the window width after the debounce', () => {
    vi.useFakeTimers();
    resizeTo(1024);
    const { container } = render(<Width />);
    expect(container.textContent).toBe('1024');
    act(() => {
      resizeTo(640);
    });
    expect(container.textContent).toBe('1024');
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(container.textContent).toBe('640');
  });
});

function EscapeProbe({ name, active, log }: { name: string; active: boolean; log: string[] }) {
  useEscape(() => log.push(name), active);
  return null;
}

describe('useEscape', () => {
  it('calls the handler on Escape only while active', async () => {
    const user = userEvent.setup();
    const log: string[] = [];
    const { rerender } = render(<EscapeProbe name="menu" active={false} log={log} />);
    await user.keyboard('{Escape}');
    expect(log).toEqual([]);

    rerender(<EscapeProbe name="menu" active log={log} />);
    await user.keyboard('{Enter}');
    await user.keyboard('{Escape}');
    expect(log).toEqual(['menu']);
  });

  it('runs only the innermost (latest activated) handler', async () => {
    const user = userEvent.setup();
    const log: string[] = [];
    const { rerender } = render(
      <>
        <EscapeProbe name="modal" active log={log} />
        <EscapeProbe name="menu" active={false} log={log} />
      </>,
    );
    rerender(
      <>
        <EscapeProbe name="modal" active log={log} />
        <EscapeProbe name="menu" active log={log} />
      </>,
    );
    await user.keyboard('{Escape}');
    expect(log).toEqual(['menu']);

    rerender(
      <>
        <EscapeProbe name="modal" active log={log} />
        <EscapeProbe name="menu" active={false} log={log} />
      </>,
    );
    await user.keyboard('{Escape}');
    expect(log).toEqual(['menu', 'modal']);
  });
});

function OutsideProbe({ active, onOutside }: { active: boolean; onOutside: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useOutsideClick(ref, onOutside, active);
  return (
    <div>
      <div ref={ref}>
        <button type="button">inside</button>
      </div>
      <button type="button">outside</button>
    </div>
  );
}

describe('useOutsideClick', () => {
  it('calls the handler for a press outside the element, not inside, and only while active', async () => {
    const user = userEvent.setup();
    const onOutside = vi.fn();
    const { getByText, rerender } = render(<OutsideProbe active onOutside={onOutside} />);

    await user.click(getByText('inside'));
    expect(onOutside).not.toHaveBeenCalled();
    await user.click(getByText('outside'));
    expect(onOutside).toHaveBeenCalledTimes(1);

    rerender(<OutsideProbe active={false} onOutside={onOutside} />);
    await user.click(getByText('outside'));
    expect(onOutside).toHaveBeenCalledTimes(1);
  });
});
