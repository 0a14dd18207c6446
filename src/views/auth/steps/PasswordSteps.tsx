import { Button, TextInput } from '../../components';
import { FormError, Heading, NewPasswordFields, StepFooter, type StepProps } from '../parts';

/** An existing account's password. */
export function LoginStep({ view }: StepProps) {
  return (
    <form {...view.getFormProps()}>
      <Heading title="Welcome back">Enter your password to sign in.</Heading>
      <TextInput label="Email" name="email" type="email" value={view.email} readOnly />
      <TextInput
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        error={view.fieldErrors.password}
        autoFocus
      />
      <button className="vt-link-button" {...view.getForgotButtonProps()}>
        Forgot password?
      </button>
      <StepFooter view={view} submit="Sign in" />
    </form>
  );
}

/** The email to send a reset link to. */
export function ForgotStep({ view }: StepProps) {
  return (
    <form {...view.getFormProps()}>
      <Heading title="Forgot your password?">We'll email you a link to choose a new one.</Heading>
      <TextInput
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        defaultValue={view.email}
        maxLength={40}
        clearable
        error={view.fieldErrors.email}
        autoFocus
      />
      <StepFooter view={view} submit="Send reset link" />
    </form>
  );
}

/** The reset link is on its way (whether or not the email has an account). */
export function ForgotSentStep({ view }: StepProps) {
  return (
    <div>
      <Heading title="Check your email">
        If an account exists for {view.email}, we sent a link to reset its password. The link works for one
        hour.
      </Heading>
      <Button variant="primary" fullWidth {...view.getBackButtonProps()}>
        Back to sign in
      </Button>
    </div>
  );
}

/** The new password, from the reset link. */
export function ResetStep({ view }: StepProps) {
  return (
    <form {...view.getFormProps()}>
      <Heading title="Choose a new password">At least 8 characters.</Heading>
      <NewPasswordFields view={view} label="New password" />
      <FormError error={view.error} />
      <Button variant="primary" {...view.getSubmitButtonProps()} loading={view.busy} fullWidth>
        Change password
      </Button>
    </form>
  );
}

export function ResetDoneStep({ view }: StepProps) {
  return (
    <div>
      <Heading title="Password changed">You can now sign in with your new password.</Heading>
      <Button variant="primary" fullWidth {...view.getBackButtonProps()}>
        Sign in
      </Button>
    </div>
  );
}

/** A reset link without its token. */
export function ResetInvalidStep({ view }: StepProps) {
  return (
    <div>
      <Heading title="This link is incomplete">
        Open the link from your email again, or ask for a new one.
      </Heading>
      <Button variant="primary" fullWidth {...view.getForgotButtonProps()}>
        Request a new link
      </Button>
    </div>
  );
}
