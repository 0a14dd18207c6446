import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import type { TokenChargeJson, TokenPriceConversionJson } from '#domain/schemas/token';
import { railBack } from '../railOutcome';
import {
  blockingChargeId,
  type CreateTokenChargeRequest,
  chargeItem,
  isCompleted,
  isWaiting,
  sameItem,
  TOKEN_MAX_POLLS,
  type TokenChargeContext,
  type TokenChargeEvent,
  type TokenChargeInput,
  type TokenChargeOutput,
  type TokenCheckpoint,
  type TransferCheck,
  tokenPaid,
  type WalletAccount,
} from './charge';

/** The token-charge machine's outside work (actors), delays, guards and actions; its states are in ../tokenCharge.ts. */
const failure = (code: ErrorCode, field?: string): ApiErrorBody => ({
  code,
  ...(field && { field }),
  message: errorMessage({ code, field }),
});
/** The error of a failed invoke, as an action's or guard's params. */
export const errorOf = ({ event }: { event: { error: unknown } }) => event.error;
const codeOf = (err: unknown) => toErrorBody(err).code;

export const tokenChargeSetup = setup({
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
    ended: (_, charge: TokenChargeJson) => !isCompleted(charge) && !isWaiting(charge),
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
    cancellable: ({ context }) =>
      context.charge !== null && context.transactionHash === null && !context.transferSeen,
    sent: ({ context }) => context.transactionHash !== null,
    /** The buyer asked to send: with no transfer found on chain, it is sent. */
    sendWhenNone: ({ context }) => context.sendWhenNone,
    /** The server refused a cancel for the charge's transfer: a read without it is waited past. */
    transferSeen: ({ context }) => context.transferSeen,
    blockerWaiting: ({ context }) => isWaiting(context.blocker),
    blockerResumable: ({ context }) =>
      isWaiting(context.blocker) && sameItem(context.item, chargeItem(context.blocker!)),
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
    /** The check of the chain that follows goes on to the send when it finds no transfer. */
    aimToSend: assign({ sendWhenNone: true }),
    /** The server said the charge's transfer is there (it refused the cancel): it is never sent again. */
    seeTransfer: assign({ transferSeen: true }),
    dropSendIntent: assign({ sendWhenNone: false }),
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
    endPaid: assign({ result: ({ context }) => tokenPaid(context.charge!, context.item) }),
    endBack: assign({ result: railBack }),
    /** Keeps the charge (its item, and its transfer's hash) in the tab, for a reload. */
    saveCheckpoint: (_, _checkpoint: TokenCheckpoint) => {},
    /** The charge ended: nothing to resume. */
    clearCheckpoint: () => {},
    /** The checkpoint is not this checkout's to resume: start afresh. */
    forgetRestore: assign({ restore: null }),
  },
});
