import type { ReactNode } from 'react';
import { Avatar, Button, TextInput } from '../../components';
import { FormError, formValues, Heading, NewPasswordFields, StepFooter, type StepProps } from '../parts';

/** A new account's password. */
export function SignupStep({ view }: StepProps) {
  return (
    <form
      noValidate
      onSubmit={(e) => {
        const get = formValues(e);
        view.signup(get('password'), get('confirm'));
      }}
    >
      <Heading title="Create your account">Choose a password of at least 8 characters.</Heading>
      <TextInput label="Email" name="email" type="email" value={view.email} readOnly />
      <NewPasswordFields view={view} label="Password" />
      <StepFooter view={view} submit="Continue" />
    </form>
  );
}

/** A new account's name; submitting it creates the account. */
export function NameStep({ view }: StepProps) {
  return (
    <form
      noValidate
      onSubmit={(e) => {
        const get = formValues(e);
        view.submitName(get('firstName'), get('lastName'));
      }}
    >
      <Heading title="What's your name?">This is how other collectors and creators will see you.</Heading>
      <TextInput
        label="First name"
        name="firstName"
        autoComplete="given-name"
        defaultValue={view.name.firstName}
        error={view.fieldErrors.firstName}
        autoFocus
      />
      <TextInput
        label="Last name (optional)"
        name="lastName"
        autoComplete="family-name"
        defaultValue={view.name.lastName}
        error={view.fieldErrors.lastName}
      />
      <StepFooter view={view} submit="Create account" />
    </form>
  );
}

/**
 * The new account's profile, to check or skip. `avatarEditor` takes the avatar (the upload has its
 * own machine); without it, the avatar is shown as it is.
 */
export function WelcomeStep({ view, avatarEditor }: StepProps & { avatarEditor?: ReactNode }) {
  const { user } = view;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        const get = formValues(e);
        view.saveProfile({
          username: get('username'),
          firstName: get('firstName'),
          lastName: get('lastName'),
        });
      }}
    >
      <Heading title="Welcome to Vitrine!">Your account is ready. Check how your profile looks.</Heading>
      <div className="vt-auth__avatar">
        {avatarEditor ?? (
          <Avatar
            src={user?.avatarUrl ?? undefined}
            seed={user?.walletAddress ?? user?.id ?? 'vitrine'}
            alt="Your avatar"
            size={96}
          />
        )}
      </div>
      <TextInput
        label="Username"
        name="username"
        defaultValue={user?.username}
        error={view.fieldErrors.username}
      />
      <TextInput
        label="First name"
        name="firstName"
        defaultValue={user?.firstName}
        error={view.fieldErrors.firstName}
      />
      <TextInput
        label="Last name"
        name="lastName"
        defaultValue={user?.lastName}
        error={view.fieldErrors.lastName}
      />
      <FormError error={view.error} />
      <div className="vt-actions">
        <Button type="button" variant="ghost" onClick={view.skipProfile} disabled={!view.can.skipProfile}>
          Skip for now
        </Button>
        <Button type="submit" variant="primary" loading={view.busy}>
          Save profile
        </Button>
      </div>
    </form>
  );
}
