import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import {
  type CountdownOutput,
  connectCountdown,
  type countdownMachine,
  withWallClock,
} from '../../../machines/countdown';
import { cx } from '../components/cx';
import { useFlowActor } from '../useFlowActor';

/** The countdown machine on the browser's clock: every tick re-reads Date.now(). */
const wallClockCountdown = withWallClock(() => Date.now());

export interface CountdownProps {
  /** When the drop goes live (ms since epoch); null: it already is. */
  availableTime: number | null;
  /** The blueprint can be bought once live (its state is available/active). */
  available: boolean;
  /**
   * Called once the countdown is over ("live" or "pending"), also at mount when it already is: a
   * price label can switch from "price" to "from" (priceLabel).
   */
  onEnd?: (state: CountdownOutput) => void;
  className?: string;
}

/**
 * A blueprint's countdown to its availableTime, then "Live" (available) or "Pending". A new
 * availableTime or availability starts a new countdown.
 */
export function Countdown(props: CountdownProps) {
  return <CountdownActor key={`${props.availableTime}:${props.available}`} {...props} />;
}

function CountdownActor({ availableTime, available, onEnd, className }: CountdownProps) {
  const actor = useFlowActor(wallClockCountdown, { availableTime, available }, (ended) => onEnd?.(ended));
  return <CountdownView actor={actor} className={className} />;
}

export function CountdownView({
  actor,
  className,
}: {
  actor: ActorRefFrom<typeof countdownMachine>;
  className?: string;
}) {
  const view = connectCountdown(useSelector(actor, (s) => s));
  const classes = cx('vt-countdown', `vt-countdown--${view.phase}`, className);
  if (view.phase === 'counting') {
    return (
      <span className={classes} data-state={view.phase}>
        <span className="vt-visually-hidden">Available in </span>
        {/* The server rendered the time left a moment earlier: the browser's own reading replaces it. */}
        <time
          role="timer"
          aria-live="off"
          className="vt-mono"
          dateTime={view.dateTime ?? undefined}
          suppressHydrationWarning
        >
          {view.text}
        </time>
      </span>
    );
  }
  return (
    <span className={classes} data-state={view.phase}>
      {view.text}
    </span>
  );
}
