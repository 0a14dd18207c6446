import type { ReactNode } from 'react';
import { Avatar, Button, TextInput } from '../../components';
import { FormError, Heading, NewPasswordFields, StepFooter, type StepProps } from '../parts';

/** A new account's password. */
export function SignupStep({ view }: StepProps) {
  return (
    <form {...view.getFormProps()}>
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
    <form {...view.getFormProps()}>
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
    <form {...view.getFormProps()}>
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
        <Button variant="ghost" {...view.getSkipProfileButtonProps()}>
          Skip for now
        </Button>
        <Button variant="primary" {...view.getSubmitButtonProps()} loading={view.busy}>
          Save profile
        </Button>
      </div>
    </form>
  );
}
