import type { ReactNode } from 'react';
import { cx } from './cx';
import { AlertIcon, CheckCircleIcon, CloseIcon } from './icons';

export interface ToastItem {
  id: string;
  text: ReactNode;
  /** info (default), success or error: colour and icon. */
  tone?: 'info' | 'success' | 'error';
}

export interface ToastListProps {
  toasts: ReadonlyArray<ToastItem>;
  /** Called with the toast's id by its dismiss button. */
  onDismiss: (id: string) => void;
  /** Accessible name of the region. Default "Notifications". */
  label?: string;
  /** Where the stack sits. Default "bottom-right" (bottom-center on narrow screens). */
  position?: 'bottom-right' | 'bottom-center' | 'top-right';
  className?: string;
}

/**
 * The toast stack. The region is always rendered and polite, so screen readers
 * announce each toast as it is added; timing and deduplication belong to the toast machine.
 */
export function ToastList({
  toasts,
  onDismiss,
  label = 'Notifications',
  position = 'bottom-right',
  className,
}: ToastListProps) {
  return (
    <section
      aria-live="polite"
      aria-relevant="additions text"
      aria-label={label}
      className={cx('vt-toasts', `vt-toasts--${position}`, className)}
    >
      {toasts.map((toast) => {
        const tone = toast.tone ?? 'info';
        return (
          <div key={toast.id} className={cx('vt-toast', `vt-toast--${tone}`)} data-toast-id={toast.id}>
            {tone === 'info' ? null : (
              <span className="vt-toast__icon">
                {tone === 'success' ? <CheckCircleIcon size={18} /> : <AlertIcon size={18} />}
              </span>
            )}
            <div className="vt-toast__text">{toast.text}</div>
            <button
              type="button"
              className="vt-icon-button vt-toast__dismiss"
              aria-label="Dismiss notification"
              onClick={() => onDismiss(toast.id)}
            >
              <CloseIcon size={16} />
            </button>
          </div>
        );
      })}
    </section>
  );
}
