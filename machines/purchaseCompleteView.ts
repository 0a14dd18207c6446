import type { SnapshotFrom } from 'xstate';
import { type FollowedCharge, WAITING_FOR_NETWORK } from '#domain/chargeProgress';
import { SUPPORT_EMAIL } from '#domain/constants';
import { toDate } from '#domain/dates';
import { formatUsd } from '#domain/money';
import { seriesLabel } from '#domain/nft';
import { type PurchaseJson, purchasedItem } from '#domain/purchase';
import type { OrderJson } from '#domain/schemas/checkout';
import { orderTimeline, type TimelineEntry } from './checkoutFailed';
import type { PurchaseCompleteContext, purchaseCompleteMachine } from './purchaseComplete';

/**
 * The purchase-complete page's view model (zag's `connect`): from a snapshot of the
 * purchaseComplete machine to what the page renders — its panel, texts, the purchase's details, and
 * the functions that send events.
 */

/** A card a pack minted, as the receipt lists it. */
export interface PurchasedCard {
  title: string;
  /** "#03" (seriesLabel). */
  edition: string;
  /** The minted NFT (its page is /nft/{nftId}). */
  nftId: string;
  previewImageUrl: string | null;
}
/** What the purchase-complete page shows of a completed purchase. */
export interface PurchaseCompleteDetails {
  /** What the title names: "Pack" for a pack, else "Item". */
  itemLabel: 'Item' | 'Pack';
  /** The item's title, or the pack's. */
  title: string;
  previewImageUrl: string | null;
  /**
   * "#03" (seriesLabel); null for a pack (each card has its own), or when neither the purchase nor
   * the link knows it.
   */
  edition: string | null;
  /** Every card a pack minted, with its edition (chain id order); empty for one edition. */
  cards: PurchasedCard[];
  /** The storefront that sold it. */
  partner: string | null;
  /** What the whole purchase cost (a pack's price, not a card's share): "$40", "$12.50" or "Free". */
  total: string;
  /** Date and time of the purchase, in the browser's time zone. */
  purchasedOn: string;
  email: string | null;
  /** The wallet the NFT went to. */
  walletAddress: string;
}
export interface PurchaseCompleteView {
  panel: 'pending' | 'success' | 'error' | 'refund';
  title: string;
  text: string;
  busy: boolean;
  /** The text is a problem the buyer must know of (an alert), not news. */
  alert: boolean;
  details?: PurchaseCompleteDetails;
  /** What to do when a purchase failed, and whom to write to. */
  help?: { text: string; supportEmail: string };
  /** The order's events, oldest first, when it was not served and the payment goes back. */
  timeline?: TimelineEntry[];
  /** The item page, to try again. */
  itemId?: string | null;
}

const purchaseDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' });

/** A price in cents as the page shows it: "Free" for nothing. */
export const formatTotal = (cents: number) => (cents === 0 ? 'Free' : formatUsd(cents));

function details(purchase: PurchaseJson, context: PurchaseCompleteContext): PurchaseCompleteDetails {
  const { blueprint } = purchase.nft;
  // The link's edition (query `serial`) is text: only digits name one.
  const serial =
    purchase.nft.seriesNumber ?? (/^\d+$/.test(context.serial ?? '') ? Number(context.serial) : null);
  const common = {
    partner: blueprint?.storefront.name ?? null,
    purchasedOn: purchaseDate.format(toDate(purchase.purchasedOn)),
    email: context.email,
    walletAddress: purchase.walletAddress,
  };
  // A pack is one purchase of several cards: its receipt is the pack, its price and every card.
  const order = purchase.order;
  if (order?.item.kind === 'pack') {
    const cards = order.editions.map((e) => ({
      title: e.title,
      edition: seriesLabel(e.seriesNumber),
      nftId: e.nftId,
      previewImageUrl: e.previewImageUrl,
    }));
    return {
      ...common,
      itemLabel: 'Pack',
      title: order.item.title,
      previewImageUrl: order.item.coverImageUrl ?? cards[0]?.previewImageUrl ?? null,
      edition: null,
      cards,
      total: formatTotal(order.amount),
    };
  }
  return {
    ...common,
    itemLabel: 'Item',
    ...purchasedItem(purchase),
    edition: serial === null ? null : seriesLabel(serial),
    cards: [],
    total: formatTotal(order?.amount ?? purchase.amount),
  };
}

/** The receipt of an order followed until its editions were minted. */
function orderDetails(order: OrderJson, context: PurchaseCompleteContext): PurchaseCompleteDetails {
  const cards = order.editions.map((e) => ({
    title: e.title,
    edition: seriesLabel(e.serialNumber ?? 0),
    nftId: e.nftId ?? '',
    previewImageUrl: e.previewImageUrl,
  }));
  const first = order.editions[0];
  const common = {
    partner: first?.storefront.name ?? null,
    purchasedOn: purchaseDate.format(toDate(order.createdAt)),
    email: context.email,
    walletAddress: order.walletAddress,
    total: formatTotal(order.amount),
  };
  // A pack is one order of several cards: its receipt is the pack, its price and every card.
  if (order.item.kind === 'pack')
    return {
      ...common,
      itemLabel: 'Pack',
      title: order.item.title,
      previewImageUrl: cards[0]?.previewImageUrl ?? null,
      edition: null,
      cards,
    };
  return {
    ...common,
    itemLabel: 'Item',
    title: first?.title ?? order.item.title,
    previewImageUrl: first?.previewImageUrl ?? null,
    edition: first?.serialNumber == null ? null : seriesLabel(first.serialNumber),
    cards: [],
  };
}

/** What was bought: the order followed, else the purchase the lookup found; null before either. */
function receipt(context: PurchaseCompleteContext): PurchaseCompleteDetails | null {
  if (context.purchase) return details(context.purchase, context);
  if (context.followed?.stage === 'minted' && context.followed.order)
    return orderDetails(context.followed.order, context);
  return null;
}

/** Why an order was not served, as its timeline tells it. */
function notServedReason(order: OrderJson | null): string {
  const events = order?.events.map((e) => e.type) ?? [];
  if (events.includes('paid_late'))
    return 'Your payment arrived after the order ended, when this edition was no longer held for you, so nothing was minted.';
  if (events.includes('mint_failed')) return 'The edition could not be minted.';
  return 'This purchase could not be completed, so nothing was minted.';
}

/** The refund of an order that was not served, in words. */
function refundView(followed: FollowedCharge): PurchaseCompleteView {
  const { order, refund } = followed;
  const amount = formatUsd(refund?.cents ?? order?.amount ?? 0);
  const to = refund?.to === 'card' ? 'to your card' : 'as FUSD to your wallet';
  const reason = notServedReason(order);
  const base = {
    panel: 'refund' as const,
    busy: false,
    timeline: orderTimeline(order?.events ?? []),
    itemId: order?.item.id ?? null,
  };
  if (followed.stage === 'refunded')
    return {
      ...base,
      title: 'Payment Refunded',
      text: `${reason} ${amount} was refunded ${to}.`,
      alert: false,
    };
  if (followed.stage === 'refundFailed')
    return {
      ...base,
      title: 'Refund Delayed',
      text: `${reason} We could not send the ${amount} you paid back ${to} yet.`,
      alert: true,
      help: {
        text: 'Our team has been told and will send it. Contact support if it has not arrived within a day.',
        supportEmail: SUPPORT_EMAIL,
      },
    };
  return {
    ...base,
    title: 'Refund on Its Way',
    text: `${reason} The ${amount} you paid is being sent back ${to}.`,
    alert: false,
    help: {
      text: 'It usually arrives within minutes. Contact support if it has not arrived within an hour.',
      supportEmail: SUPPORT_EMAIL,
    },
  };
}

export function connectPurchaseComplete(
  snapshot: SnapshotFrom<typeof purchaseCompleteMachine>,
): PurchaseCompleteView {
  const { context } = snapshot;
  const bought = snapshot.status === 'done' ? receipt(context) : null;
  if (bought) {
    return {
      panel: 'success',
      title: 'Purchase Complete',
      text:
        bought.cards.length > 1
          ? `Thank you! The ${bought.cards.length} collectibles are yours.`
          : 'Thank you! The collectible is yours.',
      busy: false,
      alert: false,
      details: bought,
    };
  }
  if (snapshot.matches('refunded') && context.followed) return refundView(context.followed);
  if (snapshot.status === 'done' && context.failure === 'paymentFailed') {
    const card = context.charge?.rail === 'card';
    return {
      panel: 'error',
      title: 'Purchase Failed',
      text: context.error?.message || (card ? 'Your card was not charged.' : 'You were not charged.'),
      busy: false,
      alert: true,
      help: {
        text: card
          ? 'Nothing was minted. You can try again with another card.'
          : 'Nothing was minted. You can try again from the item page.',
        supportEmail: SUPPORT_EMAIL,
      },
    };
  }
  if (snapshot.status === 'done') {
    return {
      panel: 'error',
      title: 'Uh Oh',
      text: "Something went wrong. We're looking into it!",
      busy: false,
      alert: true,
      help: {
        text: 'Please check your collection, and contact support if you were charged and nothing arrives within an hour.',
        supportEmail: SUPPORT_EMAIL,
      },
    };
  }
  return {
    panel: 'pending',
    title: 'Almost there',
    text:
      context.followed?.stage === 'confirming'
        ? `${WAITING_FOR_NETWORK} Your collectible is minted as soon as it is.`
        : "We're confirming your purchase. It may take a couple of minutes.",
    busy: snapshot.hasTag('busy'),
    alert: false,
  };
}
