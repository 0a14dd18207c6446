import type * as v from 'valibot';
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { toDate } from '#domain/dates';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd } from '#domain/money';
import { seriesLabel } from '#domain/nft';
import type { SaleNoticeJson } from '#domain/responses/sales';
import type { User } from '#domain/user';
import { type ButtonProps, buttonProps, type CheckboxProps } from './props';

/**
 * The dashboard's notifications: the creator's "your item sold" notices (which item and edition,
 * the price and their net after royalty and platform fee), marking them read, and the switch for
 * the email that comes with each sale.
 */
/** A sale notice as GET notifications answers it (domain/responses/sales.ts). */
export type SaleNotice = v.InferOutput<typeof SaleNoticeJson>;
export interface SaleNoticesInput {
  saleEmails: boolean;
  /** Email me when an item I saved drops in price or goes on sale (on unless told). */
  favoriteEmails?: boolean;
}
/** The optional emails a switch turns on or off: sold notices, or saved items' notices. */
export type EmailList = 'sale' | 'favorite';
export interface SaleNoticesContext extends SaleNoticesInput {
  favoriteEmails: boolean;
  /** The switch being saved. */
  toggling: EmailList;
  notices: SaleNotice[];
  unread: number;
  error: ApiErrorBody | null;
}
export type SaleNoticesEvent =
  | { type: 'notices.read' }
  /** Without `list`, the sale emails' switch. */
  | { type: 'notices.emails.toggle'; list?: EmailList }
  | { type: 'notices.retry' };

export const saleNoticesMachine = setup({
  types: {
    context: {} as SaleNoticesContext,
    events: {} as SaleNoticesEvent,
    input: {} as SaleNoticesInput,
    tags: {} as 'busy',
  },
  actors: {
    /** GET notifications. */
    fetchNotices: fromPromise<{ results: SaleNotice[]; unread: number }>(async () => {
      throw new Error('fetchNotices not provided');
    }),
    /** POST notifications/actions/read. */
    markRead: fromPromise<unknown>(async () => {
      throw new Error('markRead not provided');
    }),
    /** PATCH users/me { saleEmails } or { favoriteEmails } → the account. */
    saveSaleEmails: fromPromise<{ user: User }, { saleEmails: boolean } | { favoriteEmails: boolean }>(
      async () => {
        throw new Error('saveSaleEmails not provided');
      },
    ),
  },
  guards: {
    hasUnread: ({ context }) => context.unread > 0,
  },
  actions: {
    /** Tells the session the account changed. */
    announceUser: (_, _params: { user: User }) => {},
  },
}).createMachine({
  id: 'saleNotices',
  context: ({ input }) => ({
    ...input,
    favoriteEmails: input.favoriteEmails ?? true,
    toggling: 'sale',
    notices: [],
    unread: 0,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchNotices',
        src: 'fetchNotices',
        onDone: {
          target: 'ready',
          actions: assign({
            notices: ({ event }) => event.output.results,
            unread: ({ event }) => event.output.unread,
          }),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    failed: {
      on: { 'notices.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    ready: {
      on: {
        'notices.read': { guard: 'hasUnread', target: 'marking', actions: assign({ error: null }) },
        'notices.emails.toggle': {
          target: 'savingEmails',
          actions: assign({ error: null, toggling: ({ event }) => event.list ?? 'sale' }),
        },
      },
    },
    marking: {
      tags: ['busy'],
      invoke: {
        id: 'markRead',
        src: 'markRead',
        onDone: {
          target: 'ready',
          actions: assign({
            notices: ({ context }) => context.notices.map((n) => ({ ...n, read: true })),
            unread: 0,
          }),
        },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    savingEmails: {
      tags: ['busy'],
      invoke: {
        id: 'saveSaleEmails',
        src: 'saveSaleEmails',
        input: ({ context }) =>
          context.toggling === 'favorite'
            ? { favoriteEmails: !context.favoriteEmails }
            : { saleEmails: !context.saleEmails },
        onDone: {
          target: 'ready',
          actions: [
            assign({
              saleEmails: ({ event }) => event.output.user.saleEmails ?? false,
              favoriteEmails: ({ event, context }) =>
                event.output.user.favoriteEmails ?? context.favoriteEmails,
            }),
            { type: 'announceUser', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
  },
});

/**
 * A notice's heading and detail by its kind: sale (an item of the caller sold), priceDrop (a saved
 * item's new lowest price and the one before), saleOpen (a saved item went on sale), offerMade (an
 * offer on the caller's NFT), offerAccepted and offerExpired (the caller's offer).
 */
function noticeTexts(n: SaleNotice): { text: string; detail: string } {
  const edition = n.serialNumber === null ? '' : ` ${seriesLabel(n.serialNumber)}`;
  if (n.kind === 'priceDrop')
    return {
      text: `Price drop: ${n.title}`,
      detail: `Now ${formatUsd(n.amount)}${n.net === null ? '' : ` · was ${formatUsd(n.net)}`}`,
    };
  if (n.kind === 'saleOpen') return { text: `On sale now: ${n.title}`, detail: `${formatUsd(n.amount)}` };
  const offer = { offerMade: 'New offer', offerAccepted: 'Offer accepted', offerExpired: 'Offer expired' }[
    n.kind
  ];
  if (offer) return { text: `${offer}: ${n.title}${edition}`, detail: `${formatUsd(n.amount)} offered` };
  return {
    text: `Sold: ${n.title}${edition}`,
    detail: `${formatUsd(n.amount)} paid · ${formatUsd(n.net ?? 0)} yours after fees`,
  };
}

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** What the notifications panel shows. */
export interface SaleNoticesView {
  /** `detail`: a sale's price and the owner's net, a saved item's new price (and the one before). */
  rows: { id: string; text: string; detail: string; when: string; unread: boolean }[];
  unread: number;
  emailsOn: boolean;
  canToggleEmails: boolean;
  canMarkRead: boolean;
  busy: boolean;
  loading: boolean;
  failed: boolean;
  canRetry: boolean;
  error: string | null;
  getMarkReadButtonProps: () => ButtonProps;
  /** "Email me when one of my items sells". */
  getEmailsToggleProps: () => CheckboxProps;
  /** "Email me when an item I saved drops in price or goes on sale". */
  getFavoriteEmailsToggleProps: () => CheckboxProps;
  getRetryButtonProps: () => ButtonProps;
}

export function connectSaleNotices(
  snapshot: SnapshotFrom<typeof saleNoticesMachine>,
  send: (event: SaleNoticesEvent) => void,
): SaleNoticesView {
  const { notices, unread, saleEmails, favoriteEmails, error } = snapshot.context;
  const canToggleEmails = snapshot.can({ type: 'notices.emails.toggle' });
  return {
    rows: notices.map((n) => ({
      id: n.id,
      ...noticeTexts(n),
      when: when.format(toDate(n.createdAt)),
      unread: !n.read,
    })),
    unread,
    emailsOn: saleEmails,
    canToggleEmails,
    canMarkRead: snapshot.can({ type: 'notices.read' }),
    busy: snapshot.hasTag('busy'),
    loading: snapshot.matches('loading'),
    failed: snapshot.matches('failed'),
    canRetry: snapshot.can({ type: 'notices.retry' }),
    error: error ? errorMessage(error) : null,
    getMarkReadButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'notices.read' }),
        disabled: !snapshot.can({ type: 'notices.read' }),
      }),
    getEmailsToggleProps: () => ({
      checked: saleEmails,
      disabled: !canToggleEmails,
      onChange: () => send({ type: 'notices.emails.toggle' }),
      'data-state': saleEmails ? 'checked' : 'unchecked',
    }),
    getFavoriteEmailsToggleProps: () => ({
      checked: favoriteEmails,
      disabled: !canToggleEmails,
      onChange: () => send({ type: 'notices.emails.toggle', list: 'favorite' }),
      'data-state': favoriteEmails ? 'checked' : 'unchecked',
    }),
    getRetryButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'notices.retry' }),
        disabled: !snapshot.can({ type: 'notices.retry' }),
      }),
  };
}
