import type { ReactNode } from 'react';
import type { AuthView } from '../../../machines/authView';
import { Button, TextInput } from '../components';

/** What every auth step receives: the view model of the auth machine. */
export interface StepProps {
  view: AuthView;
}

export function FormError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="vt-form-error" role="alert">
      {error}
    </p>
  );
}

/** A new password and its confirmation (sign-up and reset): "<label>" and "Confirm <label, lower case>". */
export function NewPasswordFields({ view, label }: StepProps & { label: string }) {
  return (
    <>
      <TextInput
        label={label}
        name="password"
        type="password"
        autoComplete="new-password"
        error={view.fieldErrors.password}
        autoFocus
      />
      <TextInput
        label={`Confirm ${label.toLowerCase()}`}
        name="confirm"
        type="password"
        autoComplete="new-password"
        error={view.fieldErrors.confirm}
      />
    </>
  );
}

/** The form error, then Back and the step's submit button. */
export function StepFooter({ view, submit }: StepProps & { submit: string }) {
  return (
    <>
      <FormError error={view.error} />
      <div className="vt-actions">
        <Button variant="ghost" {...view.getBackButtonProps()}>
          Back
        </Button>
        <Button variant="primary" {...view.getSubmitButtonProps()} loading={view.busy}>
          {submit}
        </Button>
      </div>
    </>
  );
}

export function Heading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="vt-auth__heading">
      <h1>{title}</h1>
      {children && <p className="vt-muted">{children}</p>}
    </header>
  );
}
