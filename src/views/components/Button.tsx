import {
  type ComponentPropsWithRef,
  type ElementType,
  type ForwardedRef,
  forwardRef,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { cx } from './cx';
import { Spinner } from './Spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

interface ButtonOwnProps {
  /** primary (default), secondary, ghost or danger. */
  variant?: ButtonVariant;
  /** sm 32 px, md 40 px (default), lg 48 px high. */
  size?: ButtonSize;
  /** Shows a spinner in place of the label, sets aria-busy and disables the button. */
  loading?: boolean;
  /** Stretch to the container's width. */
  fullWidth?: boolean;
  /** Icon before / after the label. */
  startIcon?: ReactNode;
  endIcon?: ReactNode;
  disabled?: boolean;
  className?: string;
  children?: ReactNode;
}

/**
 * A `<button type="button">` by default; an `<a>` when `href` is given; any component (e.g. a router
 * `Link`) with `as`, which receives the remaining props.
 */
export type ButtonProps<C extends ElementType = 'button'> = ButtonOwnProps & {
  as?: C;
  href?: string;
} & Omit<ComponentPropsWithRef<C>, keyof ButtonOwnProps | 'as' | 'href'>;

function ButtonBase(props: ButtonProps<ElementType>, ref: ForwardedRef<HTMLElement>) {
  const {
    as,
    href,
    variant = 'primary',
    size = 'md',
    loading = false,
    fullWidth = false,
    startIcon,
    endIcon,
    disabled = false,
    className,
    children,
    ...rest
  } = props;
  const Component: ElementType = as ?? (href !== undefined ? 'a' : 'button');
  const inactive = disabled || loading;
  const classes = cx(
    'vt-button',
    `vt-button--${variant}`,
    `vt-button--${size}`,
    fullWidth && 'vt-button--block',
    loading && 'vt-button--loading',
    className,
  );
  const content = (
    <>
      <span className="vt-button__label">
        {startIcon ? <span className="vt-button__icon">{startIcon}</span> : null}
        {children}
        {endIcon ? <span className="vt-button__icon">{endIcon}</span> : null}
      </span>
      {loading ? <Spinner size="sm" decorative className="vt-button__spinner" /> : null}
    </>
  );

  if (Component === 'button') {
    return (
      <button
        type="button"
        {...rest}
        ref={ref as ForwardedRef<HTMLButtonElement>}
        className={classes}
        disabled={inactive}
        aria-busy={loading || undefined}
      >
        {content}
      </button>
    );
  }

  // Links cannot be disabled natively: mark them and swallow the click instead.
  const { onClick, ...linkRest } = rest as { onClick?: (event: MouseEvent<HTMLElement>) => void };
  const handleClick = (event: MouseEvent<HTMLElement>) => {
    if (inactive) {
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };
  return (
    <Component
      {...(href !== undefined ? { href } : {})}
      {...linkRest}
      ref={ref}
      className={classes}
      onClick={handleClick}
      aria-disabled={inactive || undefined}
      aria-busy={loading || undefined}
    >
      {content}
    </Component>
  );
}

/**
 * A ref given to the button reaches its element (`forwardRef`); the cast gives the forwarded
 * component back the type parameter of `as` (the props of the element or component it renders),
 * which forwardRef's own type cannot carry.
 */
export const Button = forwardRef(ButtonBase) as <C extends ElementType = 'button'>(
  props: ButtonProps<C>,
) => ReactElement;
