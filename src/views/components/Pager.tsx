import type { ReactNode } from 'react';
import { Button, type ButtonSize } from './Button';
import { cx } from './cx';

export interface PagerProps {
  /** The page shown, from 1. */
  page: number;
  pages: number;
  /** What the middle says after "Page n of m" (" · 1,204 in all"). */
  summary?: ReactNode;
  canPrevious: boolean;
  canNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  size?: ButtonSize;
  className?: string;
}

/** Previous and Next around "Page n of m", as a navigation landmark named "Pages". */
export function Pager({
  page,
  pages,
  summary,
  canPrevious,
  canNext,
  onPrevious,
  onNext,
  size,
  className,
}: PagerProps) {
  return (
    <nav className={cx('vt-pager', className)} aria-label="Pages">
      <Button variant="secondary" size={size} disabled={!canPrevious} onClick={onPrevious}>
        Previous
      </Button>
      <span className="vt-muted">
        Page {page} of {pages}
        {summary}
      </span>
      <Button variant="secondary" size={size} disabled={!canNext} onClick={onNext}>
        Next
      </Button>
    </nav>
  );
}
