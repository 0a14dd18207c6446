import type { Email } from '../outbox';
import { EmailLink, Layout, Paragraph } from './layout';
import { renderEmail } from './render';

export interface SaleNoticeProps {
  firstName: string;
  /** The item and its edition, e.g. "Night Drive #03". */
  item: string;
  price: string;
  net: string;
  /** The dashboard's notifications. */
  link: string;
  /** Turns sale emails off (server/mail/unsubscribe.ts). */
  unsubscribe: string;
}

/** "Your item sold": the price and the creator's net; optional, so it carries an unsubscribe link. */
export function SaleNotice({ firstName, item, price, net, link, unsubscribe }: SaleNoticeProps) {
  return (
    <Layout
      preview={`${item} sold for ${price}.`}
      title={`Sold: ${item}`}
      action={{ label: 'See your sales', href: link }}
      footer={
        <>
          You get this email because sale emails are on for your Vitrine account.{' '}
          <EmailLink href={unsubscribe}>Turn off sale emails</EmailLink>
        </>
      }
    >
      <Paragraph>Hello {firstName},</Paragraph>
      <Paragraph>
        {item} sold for {price}. After the platform fee, {net} is yours.
      </Paragraph>
    </Layout>
  );
}

export function saleNoticeEmail(to: string, props: SaleNoticeProps): Promise<Email> {
  return renderEmail(
    {
      to,
      subject: `Sold: ${props.item}`,
      link: props.link,
      headers: { 'List-Unsubscribe': `<${props.unsubscribe}>` },
    },
    <SaleNotice {...props} />,
  );
}
