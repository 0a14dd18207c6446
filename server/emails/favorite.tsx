import type { Email } from '../outbox';
import { EmailLink, Layout, Paragraph } from './layout';
import { renderEmail } from './render';

export interface FavoriteNoticeProps {
  firstName: string;
  /** The saved item's title. */
  item: string;
  /** What happened, as its subject says it, e.g. "Price drop: Night Drive". */
  subject: string;
  /** The sentence that tells it, e.g. "Night Drive is now $20 (was $25)." */
  text: string;
  /** The item's page. */
  link: string;
  /** Turns favorite emails off (server/mail/unsubscribe.ts). */
  unsubscribe: string;
}

/** A saved item dropped in price or went on sale; optional, so it carries an unsubscribe link. */
export function FavoriteNotice({ firstName, subject, text, link, unsubscribe }: FavoriteNoticeProps) {
  return (
    <Layout
      preview={text}
      title={subject}
      action={{ label: 'See the item', href: link }}
      footer={
        <>
          You get this email because you saved this item and favorite emails are on for your Vitrine account.{' '}
          <EmailLink href={unsubscribe}>Turn off favorite emails</EmailLink>
        </>
      }
    >
      <Paragraph>Hello {firstName},</Paragraph>
      <Paragraph>{text}</Paragraph>
    </Layout>
  );
}

export function favoriteNoticeEmail(to: string, props: FavoriteNoticeProps): Promise<Email> {
  return renderEmail(
    {
      to,
      subject: props.subject,
      link: props.link,
      headers: { 'List-Unsubscribe': `<${props.unsubscribe}>` },
    },
    <FavoriteNotice {...props} />,
  );
}
