import { eq } from 'drizzle-orm';
import { formatUsd } from '#domain/money';
import { seriesLabel } from '#domain/nft';
import type { Config } from '../config';
import type { Executor } from '../db';
import { notifications, users } from '../db/schema';
import { offerNoticeEmail } from '../emails/offer';
import { emailsOffUrl } from '../mail/unsubscribe';
import { queueEmail } from '../outbox';
import { type OfferItem, offerItem } from './queries';

/**
 * Offer notices, in the app and, unless the reader turned sale emails off, by email:
 * - offerMade, to the NFT's owner (a user holding the owner's wallet) when an offer is recorded;
 * - offerAccepted and offerExpired, to the buyer.
 * Each is written in the transaction that records what it tells, keyed (user, kind, offer id), so
 * an event recorded twice notifies nobody twice.
 */
export type OfferNoticeKind = 'offerMade' | 'offerAccepted' | 'offerExpired';

export interface NoticeOffer {
  id: string;
  nftId: string;
  amount: number;
  buyerAddress: string;
  ownerAddress: string;
}

const itemName = (item: OfferItem) => `${item.title} ${seriesLabel(item.serialNumber)}`;

function texts(kind: OfferNoticeKind, item: OfferItem, amount: number) {
  const name = itemName(item);
  const price = formatUsd(amount);
  if (kind === 'offerMade')
    return { subject: `New offer: ${name}`, text: `You have an offer of ${price} for ${name}.` };
  if (kind === 'offerAccepted')
    return {
      subject: `Offer accepted: ${name}`,
      text: `Your offer of ${price} for ${name} was accepted: it is yours.`,
    };
  return {
    subject: `Offer expired: ${name}`,
    text: `Your offer of ${price} for ${name} expired unaccepted.`,
  };
}

export async function noticeOffer(
  tx: Executor,
  kind: OfferNoticeKind,
  offer: NoticeOffer,
  at: Date,
  site: Pick<Config, 'publicUrl' | 'jwtSecret'>,
): Promise<void> {
  const address = kind === 'offerMade' ? offer.ownerAddress : offer.buyerAddress;
  const [reader] = await tx
    .select({ id: users.id, email: users.email, firstName: users.firstName, emails: users.saleEmails })
    .from(users)
    .where(eq(users.walletAddress, address))
    .limit(1);
  if (!reader) return;
  const item = await offerItem(tx, offer.nftId);
  const added = await tx
    .insert(notifications)
    .values({
      userId: reader.id,
      kind,
      subject: offer.id,
      title: item.title,
      serialNumber: item.serialNumber,
      amount: offer.amount,
      createdAt: at,
    })
    .onConflictDoNothing()
    .returning({ id: notifications.id });
  if (added.length === 0 || !reader.emails) return;
  const { subject, text } = texts(kind, item, offer.amount);
  const email = await offerNoticeEmail(reader.email, {
    firstName: reader.firstName,
    subject,
    text,
    link: `${site.publicUrl}/nft/${item.blueprintId ?? ''}`,
    unsubscribe: emailsOffUrl(site, reader.id, 'sale'),
  });
  await queueEmail(tx, email, at);
}
