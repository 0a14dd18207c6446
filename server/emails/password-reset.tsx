import { RESET_TTL_MS } from '../auth/resets';
import type { Email } from '../outbox';
import { Layout, Paragraph } from './layout';
import { renderEmail } from './render';

/** The single-use link that sets a new password (PATCH auth/logins/passwords), valid RESET_TTL_MS. */
export function PasswordReset({ firstName, link }: { firstName: string; link: string }) {
  return (
    <Layout
      preview="Choose a new password for your Vitrine account."
      title="Reset your password"
      action={{ label: 'Choose a new password', href: link }}
      footer="If you did not ask for this, ignore this email: your password stays the same."
    >
      <Paragraph>Hello {firstName},</Paragraph>
      <Paragraph>
        Someone asked to reset the password of your Vitrine account. Open this link within{' '}
        {RESET_TTL_MS / 60_000} minutes to choose a new password.
      </Paragraph>
    </Layout>
  );
}

export function passwordResetEmail(user: { email: string; firstName: string }, link: string): Promise<Email> {
  return renderEmail(
    { to: user.email, subject: 'Reset your Vitrine password', link },
    <PasswordReset firstName={user.firstName} link={link} />,
  );
}
