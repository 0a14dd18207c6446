import {
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefObject,
  useId,
  useLayoutEffect,
  useRef,
} from 'react';
import { createPortal } from 'react-dom';
import { cx } from './cx';
import { tabbables } from './focus';
import { CloseIcon } from './icons';
import { lockBodyScroll } from './scrollLock';
import { useEscape } from './useEscape';

export type ModalSize = 'sm' | 'md' | 'lg';

export interface ModalProps {
  open: boolean;
  /** Called on Escape, on the close button, and on an outside click when `closeOnOutsideClick`. */
  onClose: () => void;
  /** Heading of the dialog; names it through aria-labelledby. */
  title: ReactNode;
  children?: ReactNode;
  /** Short text under the title; describes the dialog through aria-describedby. */
  description?: ReactNode;
  /** Actions row at the bottom (buttons, end-aligned). */
  footer?: ReactNode;
  /** Close when the backdrop is clicked. Default false. */
  closeOnOutsideClick?: boolean;
  /** Show the × button in the header. Default true. */
  showCloseButton?: boolean;
  /** sm 400 px, md 520 px (default), lg 760 px wide at most. */
  size?: ModalSize;
  /** Element to focus on open; default: the first focusable element of the body or footer. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  className?: string;
}

/** Open modals, innermost last: only the innermost traps focus. */
const openModals: symbol[] = [];

/**
 * A modal dialog rendered in a portal on document.body. While open: Escape closes it, Tab stays inside,
 * the page behind does not scroll; on close, focus returns to the element that had it before.
 */
export function Modal(props: ModalProps) {
  if (!props.open) return null;
  return <OpenModal {...props} />;
}

function OpenModal({
  onClose,
  title,
  children,
  description,
  footer,
  closeOnOutsideClick = false,
  showCloseButton = true,
  size = 'md',
  initialFocusRef,
  className,
}: ModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const footerRef = useRef<HTMLDivElement>(null);
  const pressStartedOnBackdrop = useRef(false);
  const latestOnClose = useRef(onClose);
  useLayoutEffect(() => {
    latestOnClose.current = onClose;
  });

  useEscape(() => latestOnClose.current(), true);

  useModalFocus(dialogRef, bodyRef, footerRef, initialFocusRef);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Tab' && dialogRef.current) keepTabInside(event, dialogRef.current);
  };

  // A press that starts inside the dialog and ends on the backdrop (text selection) is not a click outside.
  const onBackdropPointerDown = (event: MouseEvent<HTMLDivElement>) => {
    pressStartedOnBackdrop.current = event.target === event.currentTarget;
  };
  const onBackdropClick = (event: MouseEvent<HTMLDivElement>) => {
    const outside = pressStartedOnBackdrop.current && event.target === event.currentTarget;
    pressStartedOnBackdrop.current = false;
    if (outside && closeOnOutsideClick) onClose();
  };

  return createPortal(
    // biome-ignore lint/a11y: the backdrop click is a mouse convenience; Escape and the close button are the keyboard path.
    <div
      className="vt-modal__backdrop"
      data-testid="modal-backdrop"
      onMouseDown={onBackdropPointerDown}
      onClick={onBackdropClick}
    >
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={cx('vt-modal', `vt-modal--${size}`, className)}
        onKeyDown={onKeyDown}
      >
        <div className="vt-modal__header">
          <h2 id={titleId} className="vt-modal__title">
            {title}
          </h2>
          {showCloseButton ? (
            <button
              type="button"
              className="vt-icon-button vt-modal__close"
              aria-label="Close"
              onClick={onClose}
            >
              <CloseIcon size={20} />
            </button>
          ) : null}
        </div>
        {description || children ? (
          <div ref={bodyRef} className="vt-modal__body">
            {description ? (
              <p id={descriptionId} className="vt-modal__description">
                {description}
              </p>
            ) : null}
            {children}
          </div>
        ) : null}
        {footer ? (
          <div ref={footerRef} className="vt-modal__footer">
            {footer}
          </div>
        ) : null}
      </div>
    </div>,
    document.body,
  );
}

/**
 * While the modal is open: it is the innermost (only the innermost traps focus), the page behind
 * does not scroll, and focus moves in (to `initialFocusRef`, else the first focusable element of
 * the body, the footer, the dialog, else the dialog itself) and is pulled back in when it leaves. On
 * close all of it is undone and focus returns to the element that had it before.
 */
function useModalFocus(
  dialogRef: RefObject<HTMLDivElement | null>,
  bodyRef: RefObject<HTMLDivElement | null>,
  footerRef: RefObject<HTMLDivElement | null>,
  initialFocusRef: RefObject<HTMLElement | null> | undefined,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per opening; initialFocusRef is read then.
  useLayoutEffect(() => {
    const token = Symbol('modal');
    openModals.push(token);
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const unlock = lockBodyScroll();

    const dialog = dialogRef.current!;
    const target =
      initialFocusRef?.current ??
      (bodyRef.current ? tabbables(bodyRef.current)[0] : undefined) ??
      (footerRef.current ? tabbables(footerRef.current)[0] : undefined) ??
      tabbables(dialog)[0] ??
      dialog;
    target.focus();

    const onFocusIn = (event: FocusEvent) => {
      if (openModals[openModals.length - 1] !== token) return;
      if (event.target instanceof Node && dialog.contains(event.target)) return;
      (tabbables(dialog)[0] ?? dialog).focus();
    };
    document.addEventListener('focusin', onFocusIn);

    return () => {
      document.removeEventListener('focusin', onFocusIn);
      const index = openModals.indexOf(token);
      if (index !== -1) openModals.splice(index, 1);
      unlock();
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, []);
}

/** Tab and Shift+Tab go round the dialog's focusable elements (the dialog itself when it has none). */
function keepTabInside(event: KeyboardEvent<HTMLDivElement>, dialog: HTMLDivElement) {
  const items = tabbables(dialog);
  if (items.length === 0) {
    event.preventDefault();
    dialog.focus();
    return;
  }
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === dialog)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
