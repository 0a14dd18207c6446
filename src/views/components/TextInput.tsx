import { type ChangeEvent, type InputHTMLAttributes, type ReactNode, useId, useRef, useState } from 'react';
import { cx } from './cx';
import { EyeIcon, EyeOffIcon, LockIcon } from './fieldIcons';
import { CloseIcon } from './icons';

export interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: ReactNode;
  /** Keep the label for assistive technology only. */
  hideLabel?: boolean;
  /** Error text under the field (role="alert"); marks the input aria-invalid. */
  error?: ReactNode;
  /** Help text under the field. */
  hint?: ReactNode;
  /** Show a "Clear" button while the field has a value. */
  clearable?: boolean;
  /** Called after the clear button emptied the field (onChange also fires with ""). */
  onClear?: () => void;
  /** Content at the start of the field (an icon, a currency sign). */
  startAdornment?: ReactNode;
  /** Class of the outer wrapper (label + field + messages). */
  containerClassName?: string;
}

/**
 * Sets the value the way typing does, so React's onChange runs and a controlled parent hears "" too,
 * and FormData reads the new value.
 */
function setNativeValue(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  if (setter) setter.call(input, value);
  else input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * A labelled text field: error and hint messages, password show/hide, clear button and a lock icon for
 * read-only fields (e.g. the locked email of sign-up and login). Controlled (`value` + `onChange`) or
 * uncontrolled (`defaultValue`, read with FormData through `name`).
 */
export function TextInput({
  label,
  hideLabel = false,
  error,
  hint,
  clearable = false,
  onClear,
  startAdornment,
  containerClassName,
  className,
  id,
  type = 'text',
  readOnly,
  disabled,
  required,
  value,
  defaultValue,
  onChange,
  'aria-describedby': describedBy,
  ...rest
}: TextInputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [passwordVisible, setPasswordVisible] = useState(false);
  const controlled = value !== undefined;
  const [uncontrolledFilled, setUncontrolledFilled] = useState(
    defaultValue !== undefined && String(defaultValue) !== '',
  );
  const filled = controlled ? String(value) !== '' : uncontrolledFilled;

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    if (!controlled) setUncontrolledFilled(event.target.value !== '');
    onChange?.(event);
  };

  const clear = () => {
    const input = inputRef.current;
    if (!input) return;
    setNativeValue(input, '');
    input.focus();
    onClear?.();
  };

  const isPassword = type === 'password';
  const hasError = error !== undefined && error !== null && error !== false && error !== '';
  const showClear = clearable && filled && !readOnly && !disabled;
  const ariaDescribedBy =
    [hint ? hintId : null, hasError ? errorId : null, describedBy].filter(Boolean).join(' ') || undefined;

  return (
    <div className={cx('vt-field', containerClassName)}>
      <label htmlFor={inputId} className={cx('vt-field__label', hideLabel && 'vt-visually-hidden')}>
        {label}
        {required ? (
          <span className="vt-field__required" aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      <div
        className={cx(
          'vt-input',
          hasError && 'vt-input--invalid',
          readOnly && 'vt-input--readonly',
          disabled && 'vt-input--disabled',
        )}
      >
        {startAdornment ? <span className="vt-input__prefix">{startAdornment}</span> : null}
        <input
          {...rest}
          ref={inputRef}
          id={inputId}
          type={isPassword && passwordVisible ? 'text' : type}
          className={cx('vt-input__control', className)}
          value={value}
          defaultValue={defaultValue}
          onChange={handleChange}
          readOnly={readOnly}
          disabled={disabled}
          required={required}
          aria-invalid={hasError || undefined}
          aria-describedby={ariaDescribedBy}
        />
        {readOnly ? (
          <span className="vt-input__adornment vt-input__lock" data-testid="input-lock" title="Locked">
            <LockIcon size={16} />
          </span>
        ) : null}
        {showClear ? (
          <button type="button" className="vt-input__button" aria-label="Clear" onClick={clear}>
            <CloseIcon size={16} />
          </button>
        ) : null}
        {isPassword && !readOnly ? (
          <button
            type="button"
            className="vt-input__button"
            aria-label={passwordVisible ? 'Hide password' : 'Show password'}
            aria-controls={inputId}
            disabled={disabled}
            onClick={() => setPasswordVisible((visible) => !visible)}
          >
            {passwordVisible ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
          </button>
        ) : null}
      </div>
      {hint ? (
        <p id={hintId} className="vt-field__hint">
          {hint}
        </p>
      ) : null}
      {hasError ? (
        <p id={errorId} className="vt-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
