import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import {
  type AdminAction,
  type AdminRow,
  adminActions,
  adminCell,
  adminColumns,
  adminTitles,
  readable,
} from '#domain/admin';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import { type AdminList, type AdminListQuery, adminStatuses } from '#domain/schemas/admin';
import { type ButtonProps, buttonProps } from './props';

/**
 * One list of the back office: it loads a page (newest first), narrows it by search text and
 * status, turns pages, and performs a row's action (approve a payout, resolve a report, block a
 * user…), then loads the page again so the row shows what the server now holds. One action at a
 * time; a failed action leaves the list as it was with the server's message.
 */
export interface AdminListInput {
  list: AdminList;
}
export interface AdminListContext extends AdminListInput {
  query: AdminListQuery;
  results: AdminRow[];
  total: number;
  /** The action being performed, then the one that failed. */
  action: { rowId: string; label: string } | null;
  error: ApiErrorBody | null;
}
export type AdminListEvent =
  | { type: 'admin.search'; text: string }
  | { type: 'admin.status'; status: string }
  | { type: 'admin.page'; page: number }
  | { type: 'admin.act'; rowId: string; action: AdminAction }
  | { type: 'admin.retry' };

export interface AdminPage {
  results: AdminRow[];
  total: number;
}

export const adminListMachine = setup({
  types: {
    context: {} as AdminListContext,
    events: {} as AdminListEvent,
    input: {} as AdminListInput,
    tags: {} as 'busy',
  },
  actors: {
    /** GET admin/{list} with the query. */
    fetchList: fromPromise<AdminPage, { list: AdminList; query: AdminListQuery }>(async () => {
      throw new Error('fetchList not provided');
    }),
    /** PATCH {action.route} for {action.id} with {action.body}. */
    performAction: fromPromise<unknown, AdminAction>(async () => {
      throw new Error('performAction not provided');
    }),
  },
  guards: {
    pageExists: ({ context, event }) =>
      event.type === 'admin.page' &&
      event.page >= 1 &&
      event.page <= Math.max(1, Math.ceil(context.total / context.query.pageSize)),
    rowOffersAction: ({ context, event }) => {
      if (event.type !== 'admin.act') return false;
      const row = context.results.find((r) => r.id === event.rowId);
      return !!row && adminActions(context.list, row).some((a) => a.label === event.action.label);
    },
  },
}).createMachine({
  id: 'adminList',
  context: ({ input }) => ({
    ...input,
    query: { page: 1, pageSize: 50 },
    results: [],
    total: 0,
    action: null,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchList',
        src: 'fetchList',
        input: ({ context }) => ({ list: context.list, query: context.query }),
        onDone: {
          target: 'ready',
          actions: assign({
            results: ({ event }) => event.output.results,
            total: ({ event }) => event.output.total,
          }),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    ready: {
      on: {
        'admin.search': {
          target: 'loading',
          actions: assign({
            query: ({ context, event }) => ({
              ...context.query,
              page: 1,
              searchText: event.text.trim() || undefined,
            }),
            action: null,
            error: null,
          }),
        },
        'admin.status': {
          target: 'loading',
          actions: assign({
            query: ({ context, event }) => ({ ...context.query, page: 1, status: event.status || undefined }),
            action: null,
            error: null,
          }),
        },
        'admin.page': {
          guard: 'pageExists',
          target: 'loading',
          actions: assign({
            query: ({ context, event }) => ({ ...context.query, page: event.page }),
            action: null,
            error: null,
          }),
        },
        'admin.act': {
          guard: 'rowOffersAction',
          target: 'acting',
          actions: assign({
            action: ({ event }) => ({ rowId: event.rowId, label: event.action.label }),
            error: null,
          }),
        },
      },
    },
    acting: {
      tags: ['busy'],
      invoke: {
        id: 'performAction',
        src: 'performAction',
        input: ({ context }) => {
          // The action as the row offers it now, not as the event described it.
          const row = context.results.find((r) => r.id === context.action!.rowId)!;
          return adminActions(context.list, row).find((a) => a.label === context.action!.label)!;
        },
        onDone: { target: 'loading', actions: assign({ action: null }) },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    failed: {
      on: { 'admin.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
  },
});

/** What a list view shows. */
export interface AdminListView {
  title: string;
  columns: { key: string; label: string }[];
  rows: { id: string; cells: string[]; actions: AdminAction[]; acting: string | null }[];
  searchText: string;
  status: string;
  /** The statuses to narrow to, each with its text ('' is all); none: the list has no status. */
  statuses: readonly { value: string; label: string }[];
  total: number;
  page: number;
  pages: number;
  canPrevious: boolean;
  canNext: boolean;
  busy: boolean;
  canAct: boolean;
  /** The list could not be loaded. */
  failed: boolean;
  canRetry: boolean;
  error: string | null;
  search: (text: string) => void;
  setStatus: (status: string) => void;
  previousPage: () => void;
  nextPage: () => void;
  /** A row's action (busy while it runs on that row). */
  getActionButtonProps: (rowId: string, action: AdminAction) => ButtonProps;
  getRetryButtonProps: () => ButtonProps;
}

export function connectAdminList(
  snapshot: SnapshotFrom<typeof adminListMachine>,
  send: (event: AdminListEvent) => void,
): AdminListView {
  const { list, query, results, total, action, error } = snapshot.context;
  const columns = adminColumns[list];
  const pages = Math.max(1, Math.ceil(total / query.pageSize));
  return {
    title: adminTitles[list],
    columns: columns.map(({ key, label }) => ({ key, label })),
    rows: results.map((row) => ({
      id: row.id,
      cells: columns.map((column) => adminCell(row, column)),
      actions: adminActions(list, row),
      acting: snapshot.hasTag('busy') && action?.rowId === row.id ? action.label : null,
    })),
    searchText: query.searchText ?? '',
    status: query.status ?? '',
    statuses: adminStatuses[list].map((value) => ({ value, label: readable(value) })),
    total,
    page: query.page,
    pages,
    canPrevious: snapshot.can({ type: 'admin.page', page: query.page - 1 }),
    canNext: snapshot.can({ type: 'admin.page', page: query.page + 1 }),
    busy: snapshot.hasTag('busy'),
    canAct: snapshot.matches('ready'),
    failed: snapshot.matches('failed'),
    canRetry: snapshot.can({ type: 'admin.retry' }),
    error: error ? errorMessage(error) : null,
    search: (text) => send({ type: 'admin.search', text }),
    setStatus: (status) => send({ type: 'admin.status', status }),
    previousPage: () => send({ type: 'admin.page', page: query.page - 1 }),
    nextPage: () => send({ type: 'admin.page', page: query.page + 1 }),
    getActionButtonProps: (rowId, act) =>
      buttonProps({
        onClick: () => send({ type: 'admin.act', rowId, action: act }),
        disabled: !snapshot.matches('ready'),
        busy: snapshot.hasTag('busy') && action?.rowId === rowId && action.label === act.label,
      }),
    getRetryButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'admin.retry' }),
        disabled: !snapshot.can({ type: 'admin.retry' }),
      }),
  };
}
