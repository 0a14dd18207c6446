/**
 * The props a view model hands a control (zag's `connect` style): a view spreads them on the
 * element (`<button {...view.getPayButtonProps()}>`) instead of wiring handlers, `disabled` and
 * aria attributes by hand. `data-state` names the control's state for styles and tests.
 */
export interface ButtonProps {
  type: 'button' | 'submit';
  /** Absent on a submit button: the form's `onSubmit` sends the event once. */
  onClick?: () => void;
  disabled: boolean;
  'aria-busy'?: true;
  'data-state': 'idle' | 'busy' | 'disabled';
}
export interface CheckboxProps {
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
  'data-state': 'checked' | 'unchecked';
}
export interface FormProps {
  noValidate: true;
  onSubmit: (event: { preventDefault(): void }) => void;
}

/** A button's props: enabled unless `disabled`, busy while its work runs. */
export function buttonProps(options: {
  type?: 'button' | 'submit';
  onClick?: () => void;
  disabled: boolean;
  busy?: boolean;
}): ButtonProps {
  const { type = 'button', onClick, disabled, busy = false } = options;
  return {
    type,
    ...(onClick ? { onClick } : {}),
    disabled: disabled || busy,
    ...(busy ? { 'aria-busy': true as const } : {}),
    'data-state': busy ? 'busy' : disabled ? 'disabled' : 'idle',
  };
}
