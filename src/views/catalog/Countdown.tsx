import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import { countdownText } from '#domain/countdown';
import { type countdownMachine, withWallClock } from '../../../machines/countdown';
import { useApp } from '../AppContext';
import { cx } from '../components/cx';

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
  onEnd?: (state: 'live' | 'pending') => void;
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
  const { inspect } = useApp();
  const actor = useActorRef(wallClockCountdown, { input: { availableTime, available }, inspect });
  const ended = useSelector(actor, (s) => (s.status === 'done' ? (s.value as 'live' | 'pending') : null));
  const onEndRef = useRef(onEnd);
  useEffect(() => {
    onEndRef.current = onEnd;
  });
  useEffect(() => {
    if (ended) onEndRef.current?.(ended);
  }, [ended]);
  return <CountdownView actor={actor} className={className} />;
}

export function CountdownView({
  actor,
  className,
}: {
  actor: ActorRefFrom<typeof countdownMachine>;
  className?: string;
}) {
  const state = useSelector(actor, (s) => s.value);
  const remaining = useSelector(actor, (s) => s.context.remaining);
  const availableTime = useSelector(actor, (s) => s.context.availableTime);
  const classes = cx('vt-countdown', `vt-countdown--${state}`, className);
  if (state === 'counting') {
    return (
      <span className={classes} data-state={state}>
        <span className="vt-visually-hidden">Available in </span>
        <time
          role="timer"
          aria-live="off"
          className="vt-mono"
          dateTime={availableTime === null ? undefined : new Date(availableTime).toISOString()}
        >
          {countdownText(remaining)}
        </time>
      </span>
    );
  }
  return (
    <span className={classes} data-state={state}>
      {state === 'live' ? 'Live' : 'Pending'}
    </span>
  );
}
