import { useSelector } from '@xstate/react';
import { type FormEvent, type ReactNode, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import { errorMessage } from '#domain/errors';
import type { authMachine } from '../../../machines/auth';
import { Avatar, Button, TextInput } from '../components';
import { authPathFor, swipeIndex } from './paths';

type AuthActor = ActorRefFrom<typeof authMachine>;

/**
 * Renders the auth step the machine is in; every form sends its values and the machine validates.
 * `avatarEditor` takes the welcome step's avatar (the upload has its own machine); without it, the
 * avatar is shown as it is.
 */
export function AuthScreen({ actor, avatarEditor }: { actor: AuthActor; avatarEditor?: ReactNode }) {
  const step = useSelector(actor, (s) => s.value as string);
  const path = authPathFor(step);
  const previous = useRef(path);
  const direction =
    swipeIndex(path) >= 0 && swipeIndex(path) < swipeIndex(previous.current) ? 'back' : 'forward';
  previous.current = path;
  const swipes = swipeIndex(path) >= 0;

  return (
    <div className="vt-auth" data-step={step}>
      <div key={path} className={`vt-auth__card${swipes ? ` vt-swipe-${direction}` : ''}`}>
        <Step actor={actor} step={step} avatarEditor={avatarEditor} />
      </div>
    </div>
  );
}

function Step({ actor, step, avatarEditor }: { actor: AuthActor; step: string; avatarEditor: ReactNode }) {
  switch (authPathFor(step)) {
    case '/auth/signup':
      return <SignupStep actor={actor} />;
    case '/auth/name':
      return <NameStep actor={actor} />;
    case '/auth/welcome':
      return <WelcomeStep actor={actor} avatarEditor={avatarEditor} />;
    case '/auth/login':
      return <LoginStep actor={actor} />;
    case '/auth/forgot-password':
      return <ForgotStep actor={actor} />;
    case '/auth/reset-password':
      return <ResetStep actor={actor} />;
    default:
      if (step === 'walletEmail' || step === 'checkingWalletEmail') return <WalletEmailStep actor={actor} />;
      return step === 'finished' ? (
        <p className="vt-muted">Signing you in…</p>
      ) : (
        <ConnectStep actor={actor} />
      );
  }
}

/** Form values by name. */
function values(e: FormEvent<HTMLFormElement>) {
  e.preventDefault();
  const data = new FormData(e.currentTarget);
  return (name: string) => String(data.get(name) ?? '');
}

function useForm(actor: AuthActor) {
  return {
    errors: useSelector(actor, (s) => s.context.errors),
    error: useSelector(actor, (s) => s.context.error),
    email: useSelector(actor, (s) => s.context.email),
    busy: useSelector(actor, (s) => s.hasTag('busy')),
  };
}

const fieldError = (errors: Record<string, { message: string }>, name: string) => errors[name]?.message;

function FormError({ error }: { error: Parameters<typeof errorMessage>[0] }) {
  if (!error) return null;
  return (
    <p className="vt-form-error" role="alert">
      {errorMessage(error)}
    </p>
  );
}

/** A new password and its confirmation (sign-up and reset): "<label>" and "Confirm <label, lower case>". */
function NewPasswordFields({
  errors,
  label,
}: {
  errors: Record<string, { message: string }>;
  label: string;
}) {
  return (
    <>
      <TextInput
        label={label}
        name="password"
        type="password"
        autoComplete="new-password"
        error={fieldError(errors, 'password')}
        autoFocus
      />
      <TextInput
        label={`Confirm ${label.toLowerCase()}`}
        name="confirm"
        type="password"
        autoComplete="new-password"
        error={fieldError(errors, 'confirm')}
      />
    </>
  );
}

/** The form error, then Back and the step's submit button. */
function StepFooter({
  actor,
  error,
  busy = false,
  submit,
}: {
  actor: AuthActor;
  error: Parameters<typeof errorMessage>[0];
  busy?: boolean;
  submit: string;
}) {
  return (
    <>
      <FormError error={error} />
      <div className="vt-actions">
        <Button
          type="button"
          variant="ghost"
          onClick={() => actor.send({ type: 'auth.back' })}
          disabled={busy}
        >
          Back
        </Button>
        <Button type="submit" variant="primary" loading={busy}>
          {submit}
        </Button>
      </div>
    </>
  );
}

function Heading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="vt-auth__heading">
      <h1>{title}</h1>
      {children && <p className="vt-muted">{children}</p>}
    </header>
  );
}

function ConnectStep({ actor }: { actor: AuthActor }) {
  const { errors, error, email, busy } = useForm(actor);
  const walletAvailable = useSelector(actor, (s) => s.context.walletAvailable);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        const get = values(e);
        actor.send({ type: 'auth.connect.submit', email: get('email') });
      }}
    >
      <Heading title="Sign in to Vitrine">Enter your email to sign in or create your account.</Heading>
      <TextInput
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        defaultValue={email}
        clearable
        error={fieldError(errors, 'email')}
        autoFocus
      />
      <FormError error={error} />
      <Button type="submit" variant="primary" loading={busy} fullWidth>
        Continue
      </Button>
      {walletAvailable && (
        <Button
          type="button"
          variant="secondary"
          fullWidth
          onClick={() => actor.send({ type: 'auth.wallet.connect' })}
        >
          Connect wallet
        </Button>
      )}
    </form>
  );
}

function WalletEmailStep({ actor }: { actor: AuthActor }) {
  const { errors, error, email, busy } = useForm(actor);
  const address = useSelector(actor, (s) => s.context.walletAddress);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        const get = values(e);
        actor.send({ type: 'auth.walletEmail.submit', email: get('email') });
      }}
    >
      <Heading title="Wallet connected">
        Your wallet {address} is ready. Which email should your new account use?
      </Heading>
      <TextInput
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        defaultValue={email}
        error={fieldError(errors, 'email')}
        autoFocus
      />
      <StepFooter actor={actor} error={error} busy={busy} submit="Continue" />
    </form>
  );
}

function SignupStep({ actor }: { actor: AuthActor }) {
  const { errors, error, email } = useForm(actor);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        const get = values(e);
        actor.send({ type: 'auth.signup.submit', password: get('password'), confirm: get('confirm') });
      }}
    >
      <Heading title="Create your account">Choose a password of at least 8 characters.</Heading>
      <TextInput label="Email" name="email" type="email" value={email} readOnly />
      <NewPasswordFields errors={errors} label="Password" />
      <StepFooter actor={actor} error={error} submit="Continue" />
    </form>
  );
}

function NameStep({ actor }: { actor: AuthActor }) {
  const { errors, error, busy } = useForm(actor);
  const name = useSelector(
    actor,
    (s) => ({ firstName: s.context.firstName, lastName: s.context.lastName }),
    (a, b) => a.firstName === b.firstName && a.lastName === b.lastName,
  );
  return (
    <form
      noValidate
      onSubmit={(e) => {
        const get = values(e);
        actor.send({ type: 'auth.name.submit', firstName: get('firstName'), lastName: get('lastName') });
      }}
    >
      <Heading title="What's your name?">This is how other collectors and creators will see you.</Heading>
      <TextInput
        label="First name"
        name="firstName"
        autoComplete="given-name"
        defaultValue={name.firstName}
        error={fieldError(errors, 'firstName')}
        autoFocus
      />
      <TextInput
        label="Last name (optional)"
        name="lastName"
        autoComplete="family-name"
        defaultValue={name.lastName}
        error={fieldError(errors, 'lastName')}
      />
      <StepFooter actor={actor} error={error} busy={busy} submit="Create account" />
    </form>
  );
}

function WelcomeStep({ actor, avatarEditor }: { actor: AuthActor; avatarEditor: ReactNode }) {
  const { errors, error, busy } = useForm(actor);
  const user = useSelector(actor, (s) => s.context.user);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        const get = values(e);
        actor.send({
          type: 'auth.profile.submit',
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
        error={fieldError(errors, 'username')}
      />
      <TextInput
        label="First name"
        name="firstName"
        defaultValue={user?.firstName}
        error={fieldError(errors, 'firstName')}
      />
      <TextInput
        label="Last name"
        name="lastName"
        defaultValue={user?.lastName}
        error={fieldError(errors, 'lastName')}
      />
      <FormError error={error} />
      <div className="vt-actions">
        <Button
          type="button"
          variant="ghost"
          onClick={() => actor.send({ type: 'auth.profile.skip' })}
          disabled={busy}
        >
          Skip for now
        </Button>
        <Button type="submit" variant="primary" loading={busy}>
          Save profile
        </Button>
      </div>
    </form>
  );
}

function LoginStep({ actor }: { actor: AuthActor }) {
  const { errors, error, email, busy } = useForm(actor);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        const get = values(e);
        actor.send({ type: 'auth.login.submit', password: get('password') });
      }}
    >
      <Heading title="Welcome back">Enter your password to sign in.</Heading>
      <TextInput label="Email" name="email" type="email" value={email} readOnly />
      <TextInput
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        error={fieldError(errors, 'password')}
        autoFocus
      />
      <button type="button" className="vt-link-button" onClick={() => actor.send({ type: 'auth.forgot' })}>
        Forgot password?
      </button>
      <StepFooter actor={actor} error={error} busy={busy} submit="Sign in" />
    </form>
  );
}

function ForgotStep({ actor }: { actor: AuthActor }) {
  const { errors, error, email, busy } = useForm(actor);
  const sent = useSelector(actor, (s) => s.matches('forgotSent'));
  if (sent) {
    return (
      <div>
        <Heading title="Check your email">
          If an account exists for {email}, we sent a link to reset its password. The link works for one hour.
        </Heading>
        <Button variant="primary" fullWidth onClick={() => actor.send({ type: 'auth.back' })}>
          Back to sign in
        </Button>
      </div>
    );
  }
  return (
    <form
      noValidate
      onSubmit={(e) => {
        const get = values(e);
        actor.send({ type: 'auth.forgot.submit', email: get('email') });
      }}
    >
      <Heading title="Forgot your password?">We'll email you a link to choose a new one.</Heading>
      <TextInput
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        defaultValue={email}
        maxLength={40}
        clearable
        error={fieldError(errors, 'email')}
        autoFocus
      />
      <StepFooter actor={actor} error={error} busy={busy} submit="Send reset link" />
    </form>
  );
}

function ResetStep({ actor }: { actor: AuthActor }) {
  const { errors, error, busy } = useForm(actor);
  const step = useSelector(actor, (s) => s.value as string);
  if (step === 'resetInvalid') {
    return (
      <div>
        <Heading title="This link is incomplete">
          Open the link from your email again, or ask for a new one.
        </Heading>
        <Button variant="primary" fullWidth onClick={() => actor.send({ type: 'auth.forgot' })}>
          Request a new link
        </Button>
      </div>
    );
  }
  if (step === 'resetDone') {
    return (
      <div>
        <Heading title="Password changed">You can now sign in with your new password.</Heading>
        <Button variant="primary" fullWidth onClick={() => actor.send({ type: 'auth.back' })}>
          Sign in
        </Button>
      </div>
    );
  }
  return (
    <form
      noValidate
      onSubmit={(e) => {
        const get = values(e);
        actor.send({ type: 'auth.reset.submit', password: get('password'), confirm: get('confirm') });
      }}
    >
      <Heading title="Choose a new password">At least 8 characters.</Heading>
      <NewPasswordFields errors={errors} label="New password" />
      <FormError error={error} />
      <Button type="submit" variant="primary" loading={busy} fullWidth>
        Change password
      </Button>
    </form>
  );
}
