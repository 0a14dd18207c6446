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

/** A dialog's props: Escape and its close button close it only when the machine takes the close. */
export interface DialogProps {
  onClose: () => void;
  showCloseButton: boolean;
}
export function dialogProps(canClose: boolean, close: () => void): DialogProps {
  return {
    onClose: () => {
      if (canClose) close();
    },
    showCloseButton: canClose,
  };
}

/** A form's props: its submit (Enter or a submit button) sends the event once, when the machine takes it. */
export function formProps(canSubmit: boolean, submit: () => void): FormProps {
  return {
    noValidate: true,
    onSubmit: (event) => {
      event.preventDefault();
      if (canSubmit) submit();
    },
  };
}

/** A text field's props: its value, its error under it, and each change sent as an event. */
export interface TextInputProps {
  value: string;
  readOnly: boolean;
  error?: string;
  onChange: (event: { target: { value: string } }) => void;
}
export function textInputProps(options: {
  value: string;
  readOnly: boolean;
  error: string | null;
  change: (value: string) => void;
}): TextInputProps {
  const { value, readOnly, error, change } = options;
  return {
    value,
    readOnly,
    ...(error ? { error } : {}),
    onChange: (event) => change(event.target.value),
  };
}

/** A form whose fields the browser keeps (uncontrolled inputs): its submit reads them by name. */
export interface FieldsFormProps {
  noValidate: true;
  onSubmit: (event: { preventDefault(): void; currentTarget: HTMLFormElement }) => void;
}
export function fieldsFormProps(
  names: readonly string[],
  submit: (values: Record<string, string>) => void,
): FieldsFormProps {
  return {
    noValidate: true,
    onSubmit: (event) => {
      event.preventDefault();
      const data = new FormData(event.currentTarget);
      submit(Object.fromEntries(names.map((name) => [name, String(data.get(name) ?? '')])));
    },
  };
}
