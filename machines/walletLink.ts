import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import type { User } from '#domain/user';

/**
 * Settings → Wallet "Relink": connect a wallet, prove it (the account proof is checked on chain)
 * and link the proven address to the signed-in account, in place of the one linked before.
 */
export interface WalletLinkContext {
  error: ApiErrorBody | null;
}
export type WalletLinkEvent = { type: 'wallet.relink' };

export const walletLinkMachine = setup({
  types: {
    context: {} as WalletLinkContext,
    events: {} as WalletLinkEvent,
    tags: {} as 'busy',
  },
  actors: {
    /** Connects and proves a wallet, then links it; answers the updated user. */
    linkWallet: fromPromise<{ user: User }, void>(async () => {
      throw new Error('linkWallet not provided');
    }),
  },
  actions: {
    /** Hands the updated user to the session and confirms. */
    announceLinked: (_, _params: { user: User }) => {},
  },
}).createMachine({
  id: 'walletLink',
  context: { error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'wallet.relink': { target: 'linking', actions: assign({ error: null }) } },
    },
    linking: {
      tags: ['busy'],
      invoke: {
        id: 'linkWallet',
        src: 'linkWallet',
        onDone: {
          target: 'idle',
          actions: { type: 'announceLinked', params: ({ event }) => ({ user: event.output.user }) },
        },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
  },
});

/** What the Wallet card shows: the relink button's state and the last refusal. */
export interface WalletLinkView {
  busy: boolean;
  canRelink: boolean;
  error: string | null;
  relink: () => void;
}

export function connectWalletLink(
  snapshot: SnapshotFrom<typeof walletLinkMachine>,
  send: (event: WalletLinkEvent) => void,
): WalletLinkView {
  const { error } = snapshot.context;
  return {
    busy: snapshot.hasTag('busy'),
    canRelink: snapshot.can({ type: 'wallet.relink' }),
    error: error ? errorMessage(error) : null,
    relink: () => send({ type: 'wallet.relink' }),
  };
}
