import { Button, TextInput } from '../../components';
import { FormError, formValues, Heading, NewPasswordFields, StepFooter, type StepProps } from '../parts';

/** An existing account's password. */
export function LoginStep({ view }: StepProps) {
  return (
    <form noValidate onSubmit={(e) => view.login(formValues(e)('password'))}>
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
      <button type="button" className="vt-link-button" onClick={view.forgot} disabled={!view.can.forgot}>
        Forgot password?
      </button>
      <StepFooter view={view} submit="Sign in" />
    </form>
  );
}

/** The email to send a reset link to. */
export function ForgotStep({ view }: StepProps) {
  return (
    <form noValidate onSubmit={(e) => view.requestReset(formValues(e)('email'))}>
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
      <Button variant="primary" fullWidth onClick={view.back}>
        Back to sign in
      </Button>
    </div>
  );
}

/** The new password, from the reset link. */
export function ResetStep({ view }: StepProps) {
  return (
    <form
      noValidate
      onSubmit={(e) => {
        const get = formValues(e);
        view.reset(get('password'), get('confirm'));
      }}
    >
      <Heading title="Choose a new password">At least 8 characters.</Heading>
      <NewPasswordFields view={view} label="New password" />
      <FormError error={view.error} />
      <Button type="submit" variant="primary" loading={view.busy} fullWidth>
        Change password
      </Button>
    </form>
  );
}

export function ResetDoneStep({ view }: StepProps) {
  return (
    <div>
      <Heading title="Password changed">You can now sign in with your new password.</Heading>
      <Button variant="primary" fullWidth onClick={view.back}>
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
      <Button variant="primary" fullWidth onClick={view.forgot}>
        Request a new link
      </Button>
    </div>
  );
}
