import type { Email } from '../outbox';
import { EMAIL_CHANGE_TTL_MS } from '../users/email-changes';
import { EmailLink, Layout, Paragraph } from './layout';
import { renderEmail } from './render';

/** To the new address: the single-use link that makes it the account's email, valid EMAIL_CHANGE_TTL_MS. */
export function ConfirmNewEmail({
  firstName,
  newEmail,
  link,
}: {
  firstName: string;
  newEmail: string;
  link: string;
}) {
  return (
    <Layout
      preview={`Confirm ${newEmail} as the email of your Vitrine account.`}
      title="Confirm your new email"
      action={{ label: 'Confirm this email', href: link }}
      footer="If you did not ask for this, ignore this email: nothing changes."
    >
      <Paragraph>Hello {firstName},</Paragraph>
      <Paragraph>
        Open this link within {EMAIL_CHANGE_TTL_MS / 3_600_000} hours to make {newEmail} the email of your
        Vitrine account.
      </Paragraph>
    </Layout>
  );
}

/** To the old address: someone signed in asked to change it (it changes only once the new one confirms). */
export function EmailChangeNotice({
  firstName,
  newEmail,
  resetLink,
}: {
  firstName: string;
  newEmail: string;
  resetLink: string;
}) {
  return (
    <Layout
      preview={`A change of your Vitrine email to ${newEmail} was asked for.`}
      title="Your email is being changed"
    >
      <Paragraph>Hello {firstName},</Paragraph>
      <Paragraph>
        Someone signed in to your Vitrine account asked to change its email to {newEmail}. It changes only
        when that address confirms.
      </Paragraph>
      <Paragraph>
        If this was not you, <EmailLink href={resetLink}>reset your password</EmailLink> now and contact
        support.
      </Paragraph>
    </Layout>
  );
}

export function confirmNewEmail(user: { firstName: string }, newEmail: string, link: string): Promise<Email> {
  return renderEmail(
    { to: newEmail, subject: 'Confirm your new Vitrine email', link },
    <ConfirmNewEmail firstName={user.firstName} newEmail={newEmail} link={link} />,
  );
}

export function emailChangeNotice(
  user: { email: string; firstName: string },
  newEmail: string,
  publicUrl: string,
): Promise<Email> {
  const resetLink = `${publicUrl}/auth/forgot-password?email=${encodeURIComponent(user.email)}`;
  return renderEmail(
    { to: user.email, subject: 'Your Vitrine email is being changed', link: resetLink },
    <EmailChangeNotice firstName={user.firstName} newEmail={newEmail} resetLink={resetLink} />,
  );
}
