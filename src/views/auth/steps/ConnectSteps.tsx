import { Button, TextInput } from '../../components';
import { FormError, Heading, StepFooter, type StepProps } from '../parts';

/** The first step: an email to sign in or sign up with, or a browser wallet. */
export function ConnectStep({ view }: StepProps) {
  return (
    <form {...view.getFormProps()}>
      <Heading title="Sign in to Vitrine">Enter your email to sign in or create your account.</Heading>
      <TextInput
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        defaultValue={view.email}
        clearable
        error={view.fieldErrors.email}
        autoFocus
      />
      <FormError error={view.error} />
      <Button variant="primary" {...view.getSubmitButtonProps()} loading={view.busy} fullWidth>
        Continue
      </Button>
      {view.walletOffered && (
        <Button variant="secondary" fullWidth {...view.getConnectWalletButtonProps()}>
          Connect wallet
        </Button>
      )}
    </form>
  );
}

/** A wallet that shares no email: the email of the new account. */
export function WalletEmailStep({ view }: StepProps) {
  return (
    <form {...view.getFormProps()}>
      <Heading title="Wallet connected">
        Your wallet {view.walletAddress} is ready. Which email should your new account use?
      </Heading>
      <TextInput
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        defaultValue={view.email}
        error={view.fieldErrors.email}
        autoFocus
      />
      <StepFooter view={view} submit="Continue" />
    </form>
  );
}
