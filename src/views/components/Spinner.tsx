import type { CSSProperties } from 'react';
import { cx } from './cx';

export type SpinnerSize = 'sm' | 'md' | 'lg';

export interface SpinnerProps {
  /** sm 16 px, md 24 px (default), lg 40 px, or a pixel size. */
  size?: SpinnerSize | number;
  /** Accessible name of the status; default "Loading". */
  label?: string;
  /** Hide from assistive technology when something else announces the busy state (e.g. a busy button). */
  decorative?: boolean;
  className?: string;
}

/** An indeterminate progress ring in the current text colour. */
export function Spinner({ size = 'md', label = 'Loading', decorative = false, className }: SpinnerProps) {
  const style =
    typeof size === 'number' ? ({ '--vt-spinner-size': `${size}px` } as CSSProperties) : undefined;
  const sizeClass = typeof size === 'number' ? undefined : `vt-spinner--${size}`;
  if (decorative) {
    return <span className={cx('vt-spinner', sizeClass, className)} style={style} aria-hidden="true" />;
  }
  return (
    <span className={cx('vt-spinner', sizeClass, className)} style={style} role="status" aria-label={label} />
  );
}
