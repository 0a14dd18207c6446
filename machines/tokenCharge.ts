import { type ActorRefFrom, assertEvent, assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd } from '#domain/money';
import type { CheckoutItemKind } from '#domain/schemas/checkout';
import type { TokenChargeJson, TokenPriceConversionJson } from '#domain/schemas/token';

/**
 * Paying for a new edition in NFM, the utility token, from the buyer's browser wallet (the
 * "utility-token payment" panel of the checkout; SPEC §4 "Token charge").
 *
 * Without a browser wallet the panel says "MetaMask required" and offers only Back. Otherwise it
 * shows the estimate in NFM (GET token-price-conversions). Pay (purchase agreement and terms
 * acknowledged) connects the wallet (`connectWallet`: its address and network); a wallet on another
 * network is asked to switch (`switchNetwork`, which adds the network to a wallet that does not
 * know it; the "chainId" error until it is on it). Then:
 *
 * created (or lowFunds) → wallet signature → transfer → validation → completed
 *
 * - `createCharge` (POST token-charges, one idempotency key per attempt): `lowFunds` when the
 *   wallet holds less NFM than the price (the panel says so; Check again creates anew). When the
 *   address already has a charge waiting (ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS with its id), that
 *   charge is read (`loadCharge`) and the buyer resumes it (same item) or cancels it, then pays anew;
 * - `signCharge`, the wallet's EIP-712 signature, reported with `reportSignature`;
 * - `sendTransfer`: the wallet sends the NFM to the platform's address and answers the
 *   transaction hash as soon as it has one; the hash is kept (`saveCheckpoint`) before anything
 *   else, then reported, so a reload resumes with it;
 * - `reportTransfer` (PATCH transactionHash): the server reads the transfer from the chain. Not
 *   mined yet (TRANSACTION_PENDING): asked again every `pollInterval` (2 s), at most `maxPolls`
 *   (50) times, then the buyer can check again. Completed: "received payment" shows for
 *   `receivedPause` (1.5 s), then the flow ends paid with the charge.
 *   Under 95 % of the price: low_funds, for good.
 *
 * The machine never sends a second transfer. A send that failed, or whose outcome is unknown, is
 * followed by `findTransfer` (the server reads the charge and takes a transfer from its address
 * found on chain; the wallet says whether a transaction of the address is still unmined): a
 * transfer found is validated, an unmined one is waited for, and only with neither does the panel
 * offer Try again and Cancel. Try again (after a refusal, a reload or anything else) connects the
 * wallet again, checks its network and that it is the charge's address, then looks once more
 * before sending.
 *
 * A refusal in the wallet (code 4001 / ACTION_REJECTED), insufficient funds for the transfer or
 * its fee, and a wrong network each come back to the panel with their own message. Cancel (PATCH
 * status canceled) ends the charge until its transfer is sent; after that the charge is not
 * cancelable and the panel says so. A cancel that fails leaves the panel where it was.
 *
 * Reload: the checkout restores a checkpoint `{ chargeId, item, transactionHash? }` (`restore`) only
 * for the same item: the charge is read again (`loadCharge`) and the flow resumes at its step:
 * validation when a transfer was sent (or found by the server), the signature or the transfer
 * check otherwise, the outcome when it ended. A charge of another item is left alone.
 */
export interface TokenChargeInput {
  item: { kind: CheckoutItemKind; id: string; title: string };
  /** Cents. */
  price: number;
  /** A browser wallet (EIP-1193) is there. */
  walletAvailable: boolean;
  /** The network the token lives on. */
  chainId: number;
  /** The tab's checkpoint of a charge under way (after a reload). */
  restore?: TokenCheckpoint | null;
}
export interface TokenCheckpoint {
  chargeId: string;
  /** The item the charge pays for: only its checkout resumes it. */
  item?: { kind: CheckoutItemKind; id: string };
  /** The transfer's hash, once the wallet sent it. */
  transactionHash?: string | null;
}
export type TokenChargeOutput = { kind: 'paid'; charge: TokenChargeJson } | { kind: 'back' };

export interface WalletAccount {
  address: string;
  chainId: number;
}
export interface CreateTokenChargeRequest {
  item: TokenChargeInput['item'];
  price: number;
  ethAddress: string;
  idempotencyKey: string;
}
/** What the chain shows of a charge's transfer: the charge as the server read it, and whether a
 * transaction of its address is still waiting to be mined. */
export interface TransferCheck {
  charge: TokenChargeJson;
  pending: boolean;
}

export interface TokenChargeContext extends TokenChargeInput {
  estimate: TokenPriceConversionJson | null;
  acknowledged: boolean;
  account: WalletAccount | null;
  key: string | null;
  charge: TokenChargeJson | null;
  /** Another charge of the address, waiting, that stops a new one. */
  blocker: TokenChargeJson | null;
  transactionHash: string | null;
  polls: number;
  error: ApiErrorBody | null;
  result: TokenChargeOutput | null;
}
export type TokenChargeEvent =
  | { type: 'token.acknowledge'; value: boolean }
  | { type: 'token.submit' }
  | { type: 'token.switch' }
  | { type: 'token.retry' }
  | { type: 'token.resume' }
  | { type: 'token.cancel' }
  | { type: 'token.back' };

export const TOKEN_MAX_POLLS = 50;

const failure = (code: ErrorCode, field?: string): ApiErrorBody => ({
  code,
  ...(field && { field }),
  message: errorMessage({ code, field }),
});
const error = ({ event }: { event: { error: unknown } }) => event.error;
const codeOf = (err: unknown) => toErrorBody(err).code;
/** The id of the charge that stops a new one (ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS answers it). */
export const blockingChargeId = (err: unknown): string | null => {
  // A thrown API error carries its body; the context keeps the body itself.
  const body = (err as { body?: unknown })?.body ?? err;
  const id = (body as { chargeId?: unknown } | null)?.chargeId;
  return typeof id === 'string' ? id : null;
};
const ACTIVE_STATUSES: string[] = ['created', 'signed'];
const sameItem = (item: TokenChargeInput['item'], ref: { kind: CheckoutItemKind; id: string }) =>
  item.kind === ref.kind && item.id === ref.id;
const chargeItem = (charge: TokenChargeJson) =>
  charge.blueprintPackId
    ? { kind: 'pack' as const, id: charge.blueprintPackId }
    : { kind: 'blueprint' as const, id: charge.blueprintId ?? '' };
const isCompleted = (charge: TokenChargeJson) =>
  ['completed', 'MINTING', 'MINTED'].includes(charge.status) ||
  ['authorized', 'captured', 'minting', 'minted'].includes(charge.order?.status ?? '');

export const tokenChargeMachine = setup({
  types: {
    context: {} as TokenChargeContext,
    events: {} as TokenChargeEvent,
    input: {} as TokenChargeInput,
    output: {} as TokenChargeOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** GET token-price-conversions for the price. */
    estimate: fromPromise<TokenPriceConversionJson, { cents: number }>(async () => {
      throw new Error('estimate not provided');
    }),
    /** eth_requestAccounts and eth_chainId of the browser wallet. */
    connectWallet: fromPromise<WalletAccount, void>(async () => {
      throw new Error('connectWallet not provided');
    }),
    /**
     * wallet_switchEthereumChain; on 4902 (the wallet lacks the network) wallet_addEthereumChain
     * with the configured network (id, name, public RPC URL), then the switch.
     */
    switchNetwork: fromPromise<WalletAccount, { chainId: number }>(async () => {
      throw new Error('switchNetwork not provided');
    }),
    /** POST token-charges. */
    createCharge: fromPromise<TokenChargeJson, CreateTokenChargeRequest>(async () => {
      throw new Error('createCharge not provided');
    }),
    /** GET token-charges/{id} (the server takes a transfer of the charge it finds on chain). */
    loadCharge: fromPromise<TokenChargeJson, { id: string }>(async () => {
      throw new Error('loadCharge not provided');
    }),
    /** eth_signTypedData_v4 of the charge, then PATCH token-charges/{id} { signature }. */
    signCharge: fromPromise<TokenChargeJson, { charge: TokenChargeJson }>(async () => {
      throw new Error('signCharge not provided');
    }),
    /**
     * GET token-charges/{id} (a transfer found on chain is taken), and whether the wallet has a
     * transaction of the charge's address not mined yet.
     */
    findTransfer: fromPromise<TransferCheck, { charge: TokenChargeJson }>(async () => {
      throw new Error('findTransfer not provided');
    }),
    /** The NFM transfer, sent by the wallet: its hash as soon as the wallet answers it. */
    sendTransfer: fromPromise<{ hash: string }, { charge: TokenChargeJson }>(async () => {
      throw new Error('sendTransfer not provided');
    }),
    /** PATCH token-charges/{id} { transactionHash }. */
    reportTransfer: fromPromise<TokenChargeJson, { id: string; transactionHash: string }>(async () => {
      throw new Error('reportTransfer not provided');
    }),
    /** PATCH token-charges/{id} { status: canceled }. */
    cancelCharge: fromPromise<TokenChargeJson, { id: string }>(async () => {
      throw new Error('cancelCharge not provided');
    }),
  },
  delays: {
    pollInterval: 2000,
    /** How long "received payment" shows before the flow ends (the checkout then opens Purchase Complete). */
    receivedPause: 1500,
  },
  guards: {
    walletAvailable: ({ context }) => context.walletAvailable,
    /** A checkpoint of this item's charge (one without an item is checked on the charge itself). */
    restoring: ({ context }) =>
      !!context.restore && (!context.restore.item || sameItem(context.item, context.restore.item)),
    otherItem: ({ context }, charge: TokenChargeJson) => !sameItem(context.item, chargeItem(charge)),
    acknowledged: ({ context }) => context.acknowledged,
    acknowledgementChanges: ({ context, event }) => {
      assertEvent(event, 'token.acknowledge');
      return event.value !== context.acknowledged;
    },
    rightNetwork: ({ context }, account: WalletAccount) => account.chainId === context.chainId,
    hasCharge: ({ context }) => context.charge !== null,
    /** The wallet's account is not the one the charge is paid from. */
    otherAccount: ({ context }) =>
      context.account!.address.toLowerCase() !== context.charge!.ethAddress.toLowerCase(),
    chargeSigned: ({ context }) => context.charge?.status === 'signed',
    lowFunds: (_, charge: TokenChargeJson) => charge.status === 'lowFunds',
    completed: (_, charge: TokenChargeJson) => isCompleted(charge),
    ended: (_, charge: TokenChargeJson) => !isCompleted(charge) && !ACTIVE_STATUSES.includes(charge.status),
    signed: (_, charge: TokenChargeJson) => charge.status === 'signed',
    hasTransfer: ({ context }) => !!context.restore?.transactionHash,
    /** The server holds a transfer of the charge (reported, or found on chain). */
    transferKnown: (_, charge: TokenChargeJson) => charge.transactions.length > 0,
    transferPending: (_, check: TransferCheck) => check.pending,
    pending: (_, err: unknown) => codeOf(err) === ErrorCode.TRANSACTION_PENDING,
    pollsDone: ({ context }) => context.polls >= TOKEN_MAX_POLLS,
    networkFailure: (_, err: unknown) => codeOf(err) === ErrorCode.NETWORK_FAILURE,
    /** The charge could not be read for now (connection, node): keep the checkpoint. */
    unreachable: (_, err: unknown) =>
      codeOf(err) === ErrorCode.NETWORK_FAILURE || codeOf(err) === ErrorCode.TOKEN_NETWORK,
    activeCharge: (_, err: unknown) =>
      codeOf(err) === ErrorCode.ERROR_ACTIVE_TOKEN_CHARGE_ADDRESS && blockingChargeId(err) !== null,
    notCancellable: (_, err: unknown) => codeOf(err) === ErrorCode.CHARGE_NOT_CANCELLABLE,
    cancellable: ({ context }) => context.charge !== null && context.transactionHash === null,
    sent: ({ context }) => context.transactionHash !== null,
    blockerWaiting: ({ context }) => ACTIVE_STATUSES.includes(context.blocker?.status ?? ''),
    blockerResumable: ({ context }) =>
      !!context.blocker &&
      ACTIVE_STATUSES.includes(context.blocker.status) &&
      sameItem(context.item, chargeItem(context.blocker)),
  },
  actions: {
    acknowledge: assign({
      acknowledged: ({ event }) => {
        assertEvent(event, 'token.acknowledge');
        return event.value;
      },
    }),
    keepEstimate: assign({ estimate: (_, estimate: TokenPriceConversionJson) => estimate }),
    keepAccount: assign({ account: (_, account: WalletAccount) => account }),
    keepCharge: assign({ charge: (_, charge: TokenChargeJson) => charge }),
    keepHash: assign({ transactionHash: (_, hash: string) => hash }),
    keepRestoredHash: assign({ transactionHash: ({ context }) => context.restore?.transactionHash ?? null }),
    keepBlocker: assign({ blocker: (_, charge: TokenChargeJson) => charge }),
    /** The waiting charge becomes this payment's. */
    adoptBlocker: assign({ charge: ({ context }) => context.blocker, blocker: null }),
    dropBlocker: assign({ blocker: null }),
    ensureKey: assign({ key: ({ context }) => context.key ?? crypto.randomUUID() }),
    dropKey: assign({ key: null }),
    dropCharge: assign({ charge: null, transactionHash: null }),
    countPoll: assign({ polls: ({ context }) => context.polls + 1 }),
    resetPolls: assign({ polls: 0 }),
    showError: assign({ error: (_, err: unknown) => toErrorBody(err) }),
    showCode: assign({ error: (_, code: ErrorCode) => failure(code) }),
    /** The wallet is on another account than the charge's: the panel names the charge's. */
    showOtherAccount: assign({
      error: ({ context }) => {
        const address = context.charge!.ethAddress;
        const params = { address: `${address.slice(0, 6)}…${address.slice(-4)}` };
        const code = ErrorCode.ERROR_TOKEN_CHARGE_ETH_ADDRESS;
        return { code, message: errorMessage({ code, params }), params };
      },
    }),
    /** The charge expired or was canceled meanwhile. */
    showEnded: assign({ error: failure(ErrorCode.TRANSACTION, 'status') }),
    clearError: assign({ error: null }),
    endPaid: assign({ result: ({ context }) => ({ kind: 'paid' as const, charge: context.charge! }) }),
    endBack: assign({ result: { kind: 'back' as const } }),
    /** Keeps the charge (its item, and its transfer's hash) in the tab, for a reload. */
    saveCheckpoint: (_, _checkpoint: TokenCheckpoint) => {},
    /** The charge ended: nothing to resume. */
    clearCheckpoint: () => {},
    /** The checkpoint is not this checkout's to resume: start afresh. */
    forgetRestore: assign({ restore: null }),
  },
}).createMachine({
  id: 'tokenCharge',
  context: ({ input }) => ({
    ...input,
    estimate: null,
    acknowledged: false,
    account: null,
    key: null,
    charge: null,
    blocker: null,
    transactionHash: null,
    polls: 0,
    error: null,
    result: null,
  }),
  initial: 'starting',
  output: ({ context }) => context.result!,
  states: {
    starting: {
      always: [
        { guard: 'restoring', target: 'restoring' },
        { guard: 'walletAvailable', target: 'estimating' },
        { target: 'noWallet', actions: { type: 'showCode', params: ErrorCode.METAMASK_REQUIRED } },
      ],
    },
    /** "MetaMask required": no browser wallet to pay from. */
    noWallet: {
      on: { 'token.back': { target: 'back', actions: 'endBack' } },
    },
    estimating: {
      tags: ['busy'],
      invoke: {
        id: 'estimate',
        src: 'estimate',
        input: ({ context }) => ({ cents: context.price }),
        onDone: { target: 'review', actions: { type: 'keepEstimate', params: ({ event }) => event.output } },
        onError: { target: 'review', actions: { type: 'showError', params: error } },
      },
    },
    review: {
      on: {
        'token.acknowledge': { guard: 'acknowledgementChanges', actions: 'acknowledge' },
        'token.submit': { guard: 'acknowledged', target: 'connecting', actions: 'clearError' },
        'token.back': { target: 'back', actions: 'endBack' },
      },
    },
    /** The wallet's account and network, before a charge is created, signed or paid. */
    connecting: {
      tags: ['busy'],
      invoke: {
        id: 'connectWallet',
        src: 'connectWallet',
        onDone: [
          {
            guard: { type: 'rightNetwork', params: ({ event }) => event.output },
            target: 'proceeding',
            actions: { type: 'keepAccount', params: ({ event }) => event.output },
          },
          {
            target: 'wrongNetwork',
            actions: [
              { type: 'keepAccount', params: ({ event }) => event.output },
              { type: 'showCode', params: ErrorCode.CHAIN_ID },
            ],
          },
        ],
        onError: [
          { guard: 'hasCharge', target: 'awaiting', actions: { type: 'showError', params: error } },
          { target: 'review', actions: { type: 'showError', params: error } },
        ],
      },
    },
    /** The wallet is on another network: switch, then go on. */
    wrongNetwork: {
      on: {
        'token.switch': { target: 'switching', actions: 'clearError' },
        'token.back': { target: 'back', actions: 'endBack' },
      },
    },
    switching: {
      tags: ['busy'],
      invoke: {
        id: 'switchNetwork',
        src: 'switchNetwork',
        input: ({ context }) => ({ chainId: context.chainId }),
        onDone: [
          {
            guard: { type: 'rightNetwork', params: ({ event }) => event.output },
            target: 'proceeding',
            actions: { type: 'keepAccount', params: ({ event }) => event.output },
          },
          { target: 'wrongNetwork', actions: { type: 'showCode', params: ErrorCode.CHAIN_ID } },
        ],
        onError: { target: 'wrongNetwork', actions: { type: 'showError', params: error } },
      },
    },
    /** On the right network: create the charge, or take the one under way where it stands. */
    proceeding: {
      always: [
        { guard: 'hasCharge', target: 'resuming' },
        { target: 'creating', actions: 'ensureKey' },
      ],
    },
    resuming: {
      always: [
        { guard: 'otherAccount', target: 'awaiting', actions: 'showOtherAccount' },
        { guard: 'chargeSigned', target: 'verifying', actions: 'resetPolls' },
        { target: 'signing' },
      ],
    },
    creating: {
      tags: ['busy'],
      invoke: {
        id: 'createCharge',
        src: 'createCharge',
        input: ({ context }) => ({
          item: context.item,
          price: context.price,
          ethAddress: context.account!.address,
          idempotencyKey: context.key!,
        }),
        onDone: [
          {
            guard: { type: 'lowFunds', params: ({ event }) => event.output },
            target: 'lowFunds',
            actions: [{ type: 'keepCharge', params: ({ event }) => event.output }, 'dropKey'],
          },
          {
            target: 'signing',
            actions: [
              { type: 'keepCharge', params: ({ event }) => event.output },
              {
                type: 'saveCheckpoint',
                params: ({ context, event }) => ({
                  chargeId: event.output.id,
                  item: { kind: context.item.kind, id: context.item.id },
                }),
              },
            ],
          },
        ],
        onError: [
          {
            guard: { type: 'networkFailure', params: error },
            target: 'review',
            actions: { type: 'showError', params: error },
          },
          {
            guard: { type: 'activeCharge', params: error },
            target: 'findingBlocker',
            actions: [{ type: 'showError', params: error }, 'dropKey'],
          },
          { target: 'review', actions: [{ type: 'showError', params: error }, 'dropKey'] },
        ],
      },
    },
    /** The address has a charge waiting: read it, to resume or cancel it. */
    findingBlocker: {
      tags: ['busy'],
      invoke: {
        id: 'loadCharge',
        src: 'loadCharge',
        input: ({ context }) => ({ id: blockingChargeId(context.error)! }),
        onDone: { target: 'blocked', actions: { type: 'keepBlocker', params: ({ event }) => event.output } },
        onError: { target: 'review' },
      },
    },
    /** Another charge of the address waits: resume it (this item's), or cancel it and pay anew. */
    blocked: {
      on: {
        'token.resume': {
          guard: 'blockerResumable',
          target: 'resuming',
          actions: [
            'adoptBlocker',
            'clearError',
            {
              type: 'saveCheckpoint',
              params: ({ context }) => ({
                chargeId: context.charge!.id,
                item: { kind: context.item.kind, id: context.item.id },
              }),
            },
          ],
        },
        'token.cancel': { guard: 'blockerWaiting', target: 'cancelingBlocker', actions: 'clearError' },
        'token.back': { target: 'back', actions: 'endBack' },
      },
    },
    cancelingBlocker: {
      tags: ['busy'],
      invoke: {
        id: 'cancelCharge',
        src: 'cancelCharge',
        input: ({ context }) => ({ id: context.blocker!.id }),
        onDone: { target: 'creating', actions: ['dropBlocker', 'ensureKey'] },
        onError: { target: 'blocked', actions: { type: 'showError', params: error } },
      },
    },
    /** The wallet holds less NFM than the price: nothing is held; check again after adding NFM. */
    lowFunds: {
      on: {
        'token.retry': { target: 'connecting', actions: ['dropCharge', 'clearError'] },
        'token.back': { target: 'back', actions: 'endBack' },
      },
    },
    signing: {
      tags: ['busy'],
      invoke: {
        id: 'signCharge',
        src: 'signCharge',
        input: ({ context }) => ({ charge: context.charge! }),
        onDone: {
          target: 'transferring',
          actions: { type: 'keepCharge', params: ({ event }) => event.output },
        },
        onError: { target: 'awaitingSignature', actions: { type: 'showError', params: error } },
      },
    },
    /** Back to where the charge waits for the buyer: its signature, or its transfer. */
    awaiting: {
      always: [{ guard: 'chargeSigned', target: 'awaitingTransfer' }, { target: 'awaitingSignature' }],
    },
    /** The signature was refused or failed: sign again (through the wallet's checks), or cancel. */
    awaitingSignature: {
      on: {
        'token.retry': { target: 'connecting', actions: 'clearError' },
        'token.cancel': { guard: 'cancellable', target: 'canceling', actions: 'clearError' },
      },
    },
    /** Right before a send: a transfer the chain already holds is never sent again. */
    verifying: {
      tags: ['busy'],
      invoke: {
        id: 'findTransfer',
        src: 'findTransfer',
        input: ({ context }) => ({ charge: context.charge! }),
        onDone: [
          {
            guard: { type: 'completed', params: ({ event }) => event.output.charge },
            target: 'received',
            actions: [
              { type: 'keepCharge', params: ({ event }) => event.output.charge },
              'endPaid',
              'clearCheckpoint',
            ],
          },
          {
            guard: { type: 'transferKnown', params: ({ event }) => event.output.charge },
            target: 'validating',
            actions: [
              { type: 'keepCharge', params: ({ event }) => event.output.charge },
              { type: 'keepHash', params: ({ event }) => event.output.charge.transactions[0]!.hash },
              'resetPolls',
            ],
          },
          {
            guard: { type: 'transferPending', params: ({ event }) => event.output },
            target: 'transferPending',
          },
          {
            guard: { type: 'ended', params: ({ event }) => event.output.charge },
            target: 'rejected',
            actions: [
              { type: 'keepCharge', params: ({ event }) => event.output.charge },
              'showEnded',
              'clearCheckpoint',
            ],
          },
          {
            target: 'transferring',
            actions: { type: 'keepCharge', params: ({ event }) => event.output.charge },
          },
        ],
        onError: { target: 'awaiting', actions: { type: 'showError', params: error } },
      },
    },
    transferring: {
      tags: ['busy'],
      invoke: {
        id: 'sendTransfer',
        src: 'sendTransfer',
        input: ({ context }) => ({ charge: context.charge! }),
        onDone: {
          target: 'validating',
          actions: [
            { type: 'keepHash', params: ({ event }) => event.output.hash },
            {
              type: 'saveCheckpoint',
              params: ({ context, event }) => ({
                chargeId: context.charge!.id,
                item: { kind: context.item.kind, id: context.item.id },
                transactionHash: event.output.hash,
              }),
            },
            'resetPolls',
          ],
        },
        // Refused, or lost on the way: whether it was sent is read from the chain before anything else.
        onError: {
          target: 'checkingTransfer',
          actions: [{ type: 'showError', params: error }, 'resetPolls'],
        },
      },
    },
    /** After a failed or unknown send, or a reload: a transfer on chain is validated, never re-sent. */
    checkingTransfer: {
      tags: ['busy'],
      invoke: {
        id: 'findTransfer',
        src: 'findTransfer',
        input: ({ context }) => ({ charge: context.charge! }),
        onDone: [
          {
            guard: { type: 'completed', params: ({ event }) => event.output.charge },
            target: 'received',
            actions: [
              { type: 'keepCharge', params: ({ event }) => event.output.charge },
              'endPaid',
              'clearCheckpoint',
            ],
          },
          {
            guard: { type: 'transferKnown', params: ({ event }) => event.output.charge },
            target: 'validating',
            actions: [
              { type: 'keepCharge', params: ({ event }) => event.output.charge },
              { type: 'keepHash', params: ({ event }) => event.output.charge.transactions[0]!.hash },
              'clearError',
              'resetPolls',
            ],
          },
          {
            guard: { type: 'transferPending', params: ({ event }) => event.output },
            target: 'transferPending',
          },
          {
            guard: { type: 'ended', params: ({ event }) => event.output.charge },
            target: 'rejected',
            actions: [
              { type: 'keepCharge', params: ({ event }) => event.output.charge },
              'showEnded',
              'clearCheckpoint',
            ],
          },
          {
            target: 'awaitingTransfer',
            actions: { type: 'keepCharge', params: ({ event }) => event.output.charge },
          },
        ],
        // Not known now: Try again looks again before it sends; the server refuses a cancel once
        // the NFM is on chain.
        onError: { target: 'awaitingTransfer', actions: { type: 'showError', params: error } },
      },
    },
    /** The wallet has a transaction of the address not mined yet: wait for it, then look again. */
    transferPending: {
      tags: ['busy'],
      entry: 'countPoll',
      always: { guard: 'pollsDone', target: 'unconfirmed' },
      after: { pollInterval: { target: 'checkingTransfer' } },
    },
    /** Nothing sent (the chain shows no transfer): send it (through the wallet's checks), or cancel. */
    awaitingTransfer: {
      on: {
        'token.retry': { target: 'connecting', actions: 'clearError' },
        'token.cancel': { guard: 'cancellable', target: 'canceling', actions: 'clearError' },
      },
    },
    validating: {
      tags: ['busy'],
      entry: 'countPoll',
      invoke: {
        id: 'reportTransfer',
        src: 'reportTransfer',
        input: ({ context }) => ({ id: context.charge!.id, transactionHash: context.transactionHash! }),
        onDone: [
          {
            guard: { type: 'completed', params: ({ event }) => event.output },
            target: 'received',
            actions: [
              { type: 'keepCharge', params: ({ event }) => event.output },
              'endPaid',
              'clearCheckpoint',
            ],
          },
          { target: 'waiting', actions: { type: 'keepCharge', params: ({ event }) => event.output } },
        ],
        onError: [
          { guard: { type: 'pending', params: error }, target: 'waiting' },
          {
            guard: { type: 'unreachable', params: error },
            target: 'waiting',
            actions: { type: 'showError', params: error },
          },
          { target: 'rejected', actions: [{ type: 'showError', params: error }, 'clearCheckpoint'] },
        ],
      },
    },
    /** Sent; the chain has not shown it yet. */
    waiting: {
      tags: ['busy'],
      always: { guard: 'pollsDone', target: 'unconfirmed' },
      after: { pollInterval: { target: 'validating' } },
    },
    /** Still not seen after every poll: the buyer checks again (a transfer is never re-sent). */
    unconfirmed: {
      on: {
        'token.retry': [
          { guard: 'sent', target: 'validating', actions: ['resetPolls', 'clearError'] },
          { target: 'checkingTransfer', actions: ['resetPolls', 'clearError'] },
        ],
      },
    },
    /** The transfer does not pay the charge (too low, another address), or the charge ended. */
    rejected: {
      on: { 'token.back': { target: 'back', actions: 'endBack' } },
    },
    canceling: {
      tags: ['busy'],
      invoke: {
        id: 'cancelCharge',
        src: 'cancelCharge',
        input: ({ context }) => ({ id: context.charge!.id }),
        onDone: { target: 'back', actions: ['endBack', 'clearCheckpoint'] },
        onError: [
          // The NFM is on chain after all: the server took it; its outcome is read.
          {
            guard: { type: 'notCancellable', params: error },
            target: 'checkingTransfer',
            actions: [{ type: 'showError', params: error }, 'resetPolls'],
          },
          { target: 'awaiting', actions: { type: 'showError', params: error } },
        ],
      },
    },
    restoring: {
      tags: ['busy'],
      invoke: {
        id: 'loadCharge',
        src: 'loadCharge',
        input: ({ context }) => ({ id: context.restore!.chargeId }),
        onDone: [
          {
            guard: { type: 'otherItem', params: ({ event }) => event.output },
            target: 'starting',
            actions: 'forgetRestore',
          },
          {
            guard: { type: 'completed', params: ({ event }) => event.output },
            target: 'received',
            actions: [
              { type: 'keepCharge', params: ({ event }) => event.output },
              'endPaid',
              'clearCheckpoint',
            ],
          },
          {
            guard: { type: 'ended', params: ({ event }) => event.output },
            target: 'starting',
            actions: ['forgetRestore', 'clearCheckpoint'],
          },
          {
            guard: 'hasTransfer',
            target: 'validating',
            actions: [
              { type: 'keepCharge', params: ({ event }) => event.output },
              'keepRestoredHash',
              'resetPolls',
            ],
          },
          {
            guard: { type: 'transferKnown', params: ({ event }) => event.output },
            target: 'validating',
            actions: [
              { type: 'keepCharge', params: ({ event }) => event.output },
              { type: 'keepHash', params: ({ event }) => event.output.transactions[0]!.hash },
              'resetPolls',
            ],
          },
          {
            guard: { type: 'signed', params: ({ event }) => event.output },
            target: 'checkingTransfer',
            actions: [{ type: 'keepCharge', params: ({ event }) => event.output }, 'resetPolls'],
          },
          {
            target: 'awaitingSignature',
            actions: { type: 'keepCharge', params: ({ event }) => event.output },
          },
        ],
        onError: [
          {
            guard: { type: 'unreachable', params: error },
            target: 'restoreFailed',
            actions: { type: 'showError', params: error },
          },
          { target: 'starting', actions: ['forgetRestore', 'clearCheckpoint'] },
        ],
      },
    },
    /** The charge under way could not be read: check again (its checkpoint is kept), or leave. */
    restoreFailed: {
      on: {
        'token.retry': { target: 'restoring', actions: 'clearError' },
        'token.back': { target: 'back', actions: 'endBack' },
      },
    },
    /** "received payment": the chain showed the transfer; minting follows. */
    received: {
      after: { receivedPause: 'paid' },
    },
    paid: { type: 'final' },
    back: { type: 'final' },
  },
});

export type TokenChargeActor = ActorRefFrom<typeof tokenChargeMachine>;

/** "250.00 NFM": an amount in the token's smallest unit (18 decimals), with 2 decimals. */
export function formatNfm(value: string): string {
  const units = BigInt(value);
  const hundredths = (units + 5n * 10n ** 15n) / 10n ** 16n;
  const whole = hundredths / 100n;
  const cents = (hundredths % 100n).toString().padStart(2, '0');
  return `${new Intl.NumberFormat('en-US').format(whole)}.${cents} NFM`;
}

export interface TokenChargeView {
  panel: 'noWallet' | 'review' | 'network' | 'lowFunds' | 'blocked' | 'paying' | 'rejected' | 'done';
  title: string;
  busy: boolean;
  itemTitle: string;
  price: string;
  /** "≈ 250.00 NFM". */
  estimate: string | null;
  acknowledged: boolean;
  payLabel: string;
  /** "pending payment", "received payment", or what runs now. */
  status: string | null;
  error: string | null;
  /** Shown once the transfer was sent: it can no longer be canceled. */
  nonCancelable: string | null;
  /** The other payment of the address that waits (blocked panel): its amount and item. */
  blocker: string | null;
  canPay: boolean;
  canSwitch: boolean;
  canRetry: boolean;
  retryLabel: string;
  canResume: boolean;
  canCancel: boolean;
  cancelLabel: string;
  canBack: boolean;
  acknowledge: (value: boolean) => void;
  pay: () => void;
  switchNetwork: () => void;
  retry: () => void;
  resume: () => void;
  cancel: () => void;
  back: () => void;
}

const STATUS: Partial<Record<string, string>> = {
  estimating: 'Converting the price to NFM…',
  connecting: 'Connect your wallet…',
  switching: 'Switch the network in your wallet…',
  creating: 'Preparing the payment…',
  findingBlocker: 'Looking up your other payment…',
  cancelingBlocker: 'Canceling your other payment…',
  restoring: 'Checking your payment…',
  signing: 'Sign the payment in your wallet…',
  verifying: 'Checking the chain for your transfer…',
  checkingTransfer: 'Checking the chain for your transfer…',
  transferPending: 'A transaction from your wallet is waiting to be confirmed…',
  transferring: 'Confirm the NFM transfer in your wallet…',
  validating: 'pending payment',
  waiting: 'pending payment',
  unconfirmed: 'The transfer is not confirmed on chain yet.',
  canceling: 'Canceling the payment…',
  received: 'received payment',
  paid: 'received payment',
};
const CHECK_AGAIN = ['unconfirmed', 'lowFunds', 'restoreFailed'];

export function connectTokenCharge(
  snapshot: SnapshotFrom<typeof tokenChargeMachine>,
  send: (event: TokenChargeEvent) => void,
): TokenChargeView {
  const { context } = snapshot;
  const state = typeof snapshot.value === 'string' ? snapshot.value : '';
  const price = formatUsd(context.price);
  const amount = context.charge?.tokenAmount ?? context.estimate?.value ?? null;
  const blocked = ['findingBlocker', 'blocked', 'cancelingBlocker'].includes(state);
  const panel: TokenChargeView['panel'] =
    snapshot.status === 'done'
      ? 'done'
      : snapshot.matches('noWallet')
        ? 'noWallet'
        : snapshot.matches('wrongNetwork') || snapshot.matches('switching')
          ? 'network'
          : snapshot.matches('lowFunds')
            ? 'lowFunds'
            : blocked
              ? 'blocked'
              : snapshot.matches('rejected')
                ? 'rejected'
                : context.charge || snapshot.matches('restoring') || snapshot.matches('restoreFailed')
                  ? 'paying'
                  : 'review';
  const other = context.blocker;
  const otherItem = other?.order?.item.title;
  const forThisItem = other !== null && sameItem(context.item, chargeItem(other));
  return {
    panel,
    title: 'Pay with NFM',
    busy: snapshot.hasTag('busy'),
    itemTitle: context.item.title,
    price,
    estimate: amount ? `≈ ${formatNfm(amount)}` : null,
    acknowledged: context.acknowledged,
    payLabel: `Pay ${price} in NFM`,
    status: STATUS[state] ?? null,
    error:
      panel === 'lowFunds'
        ? errorMessage({ code: ErrorCode.ETH_INSUFFICIENT_FUNDS })
        : context.error
          ? errorMessage(context.error)
          : null,
    nonCancelable: context.transactionHash
      ? 'The NFM transfer was sent: this payment can no longer be canceled.'
      : null,
    blocker: other
      ? `Your payment of ${formatNfm(other.tokenAmount)} for ${
          forThisItem ? 'this item' : otherItem ? `“${otherItem}”` : 'another item'
        } is waiting.`
      : null,
    canPay: snapshot.can({ type: 'token.submit' }),
    canSwitch: snapshot.can({ type: 'token.switch' }),
    canRetry: snapshot.can({ type: 'token.retry' }),
    retryLabel: CHECK_AGAIN.includes(state) ? 'Check again' : 'Try again',
    canResume: snapshot.can({ type: 'token.resume' }),
    canCancel: snapshot.can({ type: 'token.cancel' }),
    cancelLabel: blocked ? 'Cancel that payment' : 'Cancel payment',
    canBack: snapshot.can({ type: 'token.back' }),
    acknowledge: (value) => send({ type: 'token.acknowledge', value }),
    pay: () => send({ type: 'token.submit' }),
    switchNetwork: () => send({ type: 'token.switch' }),
    retry: () => send({ type: 'token.retry' }),
    resume: () => send({ type: 'token.resume' }),
    cancel: () => send({ type: 'token.cancel' }),
    back: () => send({ type: 'token.back' }),
  };
}
