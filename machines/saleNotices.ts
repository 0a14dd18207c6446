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
}
export interface SaleNoticesContext extends SaleNoticesInput {
  notices: SaleNotice[];
  unread: number;
  error: ApiErrorBody | null;
}
export type SaleNoticesEvent =
  | { type: 'notices.read' }
  | { type: 'notices.emails.toggle' }
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
    /** PATCH users/me { saleEmails } → the account. */
    saveSaleEmails: fromPromise<{ user: User }, { saleEmails: boolean }>(async () => {
      throw new Error('saveSaleEmails not provided');
    }),
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
  context: ({ input }) => ({ ...input, notices: [], unread: 0, error: null }),
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
        'notices.emails.toggle': { target: 'savingEmails', actions: assign({ error: null }) },
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
        input: ({ context }) => ({ saleEmails: !context.saleEmails }),
        onDone: {
          target: 'ready',
          actions: [
            assign({ saleEmails: ({ event }) => event.output.user.saleEmails ?? false }),
            { type: 'announceUser', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
  },
});

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** What the notifications panel shows. */
export interface SaleNoticesView {
  rows: { id: string; text: string; amount: string; net: string; when: string; unread: boolean }[];
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
  getRetryButtonProps: () => ButtonProps;
}

export function connectSaleNotices(
  snapshot: SnapshotFrom<typeof saleNoticesMachine>,
  send: (event: SaleNoticesEvent) => void,
): SaleNoticesView {
  const { notices, unread, saleEmails, error } = snapshot.context;
  const canToggleEmails = snapshot.can({ type: 'notices.emails.toggle' });
  return {
    rows: notices.map((n) => ({
      id: n.id,
      text: `Sold: ${n.title}${n.serialNumber === null ? '' : ` ${seriesLabel(n.serialNumber)}`}`,
      amount: formatUsd(n.amount),
      net: formatUsd(n.net),
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
    getRetryButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'notices.retry' }),
        disabled: !snapshot.can({ type: 'notices.retry' }),
      }),
  };
}
