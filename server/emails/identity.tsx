import type { KycStatus } from '#domain/enums';
import type { Email } from '../outbox';
import { Layout, Paragraph } from './layout';
import { renderEmail } from './render';

/** The identity decisions that tell the person: approved, declined, resubmission requested. */
const decisions: Partial<
  Record<KycStatus, { subject: string; title: string; body: (reason: string) => string }>
> = {
  approved: {
    subject: 'Your identity is verified',
    title: 'Your identity is verified',
    body: () => 'Your identity verification is approved. You can now list your collectibles for sale.',
  },
  declined: {
    subject: 'We could not verify your identity',
    title: 'We could not verify your identity',
    body: (reason) =>
      `Your identity verification was declined${reason}. Write to support if you think this is a mistake.`,
  },
  resubmission_requested: {
    subject: 'Please retry your identity verification',
    title: 'Please retry your identity verification',
    body: (reason) =>
      `Your identity verification needs another try${reason}. Open your account settings and press "Retry KYC".`,
  },
};

export function IdentityDecision({
  firstName,
  title,
  body,
  link,
}: {
  firstName: string;
  title: string;
  body: string;
  link: string;
}) {
  return (
    <Layout preview={body} title={title} action={{ label: 'Open account settings', href: link }}>
      <Paragraph>Hello {firstName},</Paragraph>
      <Paragraph>{body}</Paragraph>
    </Layout>
  );
}

/** The email a decision sends, or null for a decision that tells nobody. */
export async function identityDecisionEmail(
  user: { email: string; firstName: string },
  decision: { status: KycStatus; reason: string | null },
  publicUrl: string,
): Promise<Email | null> {
  const texts = decisions[decision.status];
  if (!texts) return null;
  const link = `${publicUrl}/settings/account`;
  const body = texts.body(decision.reason ? ` (${decision.reason})` : '');
  return renderEmail(
    { to: user.email, subject: texts.subject, link },
    <IdentityDecision firstName={user.firstName} title={texts.title} body={body} link={link} />,
  );
}

/** An admin reopened the person's verification: they may verify again. */
export function IdentityReopened({ firstName, link }: { firstName: string; link: string }) {
  return (
    <Layout
      preview="You can verify your identity again."
      title="You can verify your identity again"
      action={{ label: 'Open account settings', href: link }}
    >
      <Paragraph>Hello {firstName},</Paragraph>
      <Paragraph>
        Our support team has reopened your identity verification. Open your account settings and press "Begin
        KYC" to verify your identity again.
      </Paragraph>
    </Layout>
  );
}

export function identityReopenedEmail(
  user: { email: string; firstName: string },
  publicUrl: string,
): Promise<Email> {
  const link = `${publicUrl}/settings/account`;
  return renderEmail(
    { to: user.email, subject: 'You can verify your identity again', link },
    <IdentityReopened firstName={user.firstName} link={link} />,
  );
}
