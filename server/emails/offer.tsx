import type { Email } from '../outbox';
import { EmailLink, Layout, Paragraph } from './layout';
import { renderEmail } from './render';

export interface OfferNoticeProps {
  firstName: string;
  /** What happened, e.g. "New offer: Night Drive #3". */
  subject: string;
  /** The sentence that tells it, e.g. "You have an offer of $40 for Night Drive #3." */
  text: string;
  /** The item's page. */
  link: string;
  /** Turns sale emails off (server/mail/unsubscribe.ts); offer emails go with them. */
  unsubscribe: string;
}

/** An offer made on the reader's NFT, or the reader's offer accepted or expired; optional like sale emails. */
export function OfferNotice({ firstName, subject, text, link, unsubscribe }: OfferNoticeProps) {
  return (
    <Layout
      preview={text}
      title={subject}
      action={{ label: 'See the item', href: link }}
      footer={
        <>
          You get this email because sale emails are on for your Vitrine account.{' '}
          <EmailLink href={unsubscribe}>Turn off sale emails</EmailLink>
        </>
      }
    >
      <Paragraph>Hello {firstName},</Paragraph>
      <Paragraph>{text}</Paragraph>
    </Layout>
  );
}

export function offerNoticeEmail(to: string, props: OfferNoticeProps): Promise<Email> {
  return renderEmail(
    {
      to,
      subject: props.subject,
      link: props.link,
      headers: { 'List-Unsubscribe': `<${props.unsubscribe}>` },
    },
    <OfferNotice {...props} />,
  );
}
