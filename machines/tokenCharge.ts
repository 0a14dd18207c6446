import { type ActorRefFrom, assertEvent, assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '../src/domain/errors';
import { formatUsd } from '../src/domain/money';
import type { CheckoutItemKind } from '../src/domain/schemas/checkout';
import type { TokenChargeJson, TokenPriceConversionJson } from '../src/domain/schemas/token';

/**
 * Paying for a new edition in NFM, the utility token, from the buyer's browser wallet (the
 * "utility-token payment" panel of the checkout; SPEC §4 "Token charge").
 *
 * Without a browser wallet the panel says "MetaMask required" and offers only Back. Otherwise it
 * shows the estimate in NFM (GET token-price-conversions). Pay (purchase agreement and terms
 * acknowledged) connects the wallet (`connectWallet`: its address and network); a wallet on another
 * network is asked to switch (`switchNetwork`, the "chainId" error until it does). Then:
 *
 * created (or lowFunds) → wallet signature → transfer → validation → completed
 *
 * - `createCharge` (POST token-charges, one idempotency key per attempt): `lowFunds` when the
 *   wallet holds less NFM than the price (the panel says so; Check again creates anew);
 * - `signCharge`, the wallet's EIP-712 signature, reported with `reportSignature`;
 * - `sendTransfer`: the wallet sends the NFM to the platform's address and answers the
 *   transaction hash, which is kept (`saveCheckpoint`) before anything else, so a reload resumes
 *   with it and never sends a second transfer;
 * - `reportTransfer` (PATCH transactionHash): the server reads the transfer from the chain. Not
 *   mined yet (TRANSACTION_PENDING): asked again every `pollInterval` (2 s), at most `maxPolls`
 *   (50) times, then the buyer can check again. Completed: "received payment" shows for
 *   `receivedPause` (1.5 s), then the flow ends paid with the charge.
 *   Under 95 % of the price: low_funds, for good.
 *
 * A refusal in the wallet (code 4001 / ACTION_REJECTED), insufficient funds for the transfer or
 * its fee, and a wrong network each come back to the panel with their own message. Cancel (PATCH
 * status canceled) ends the charge until its transfer is sent; after that the charge is not
 * cancelable and the panel says so.
 *
 * Reload: the checkout restores a checkpoint `{ chargeId, transactionHash? }` (`restore`): the charge
 * is read again (`loadCharge`) and the flow resumes at its step: validation when a transfer was
 * sent, the signature or transfer otherwise, the outcome when it ended.
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

export interface TokenChargeContext extends TokenChargeInput {
  estimate: TokenPriceConversionJson | null;
  acknowledged: boolean;
  account: WalletAccount | null;
  key: string | null;
  charge: TokenChargeJson | null;
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
  | { type: 'token.cancel' }
  | { type: 'token.back' };

export const TOKEN_MAX_POLLS = 50;

const failure = (code: ErrorCode): ApiErrorBody => ({ code, message: errorMessage({ code }) });
const error = ({ event }: { event: { error: unknown } }) => event.error;
const codeOf = (err: unknown) => toErrorBody(err).code;

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
    /** wallet_switchEthereumChain (adding the network when the wallet lacks it). */
    switchNetwork: fromPromise<WalletAccount, { chainId: number }>(async () => {
      throw new Error('switchNetwork not provided');
    }),
    /** POST token-charges. */
    createCharge: fromPromise<TokenChargeJson, CreateTokenChargeRequest>(async () => {
      throw new Error('createCharge not provided');
    }),
    /** GET token-charges/{id}. */
    loadCharge: fromPromise<TokenChargeJson, { id: string }>(async () => {
      throw new Error('loadCharge not provided');
    }),
    /** eth_signTypedData_v4 of the charge, then PATCH token-charges/{id} { signature }. */
    signCharge: fromPromise<TokenChargeJson, { charge: TokenChargeJson }>(async () => {
      throw new Error('signCharge not provided');
    }),
    /** The NFM transfer, sent by the wallet: its hash (not waited for). */
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
    restoring: ({ context }) => !!context.restore,
    acknowledged: ({ context }) => context.acknowledged,
    acknowledgementChanges: ({ context, event }) => {
      assertEvent(event, 'token.acknowledge');
      return event.value !== context.acknowledged;
    },
    rightNetwork: ({ context }, account: WalletAccount) => account.chainId === context.chainId,
    lowFunds: (_, charge: TokenChargeJson) => charge.status === 'lowFunds',
    completed: (_, charge: TokenChargeJson) =>
      ['completed', 'MINTING', 'MINTED'].includes(charge.status) ||
      ['authorized', 'captured', 'minting', 'minted'].includes(charge.order?.status ?? ''),
    ended: (_, charge: TokenChargeJson) => ['canceled', 'expired'].includes(charge.status),
    signed: (_, charge: TokenChargeJson) => charge.status === 'signed',
    hasTransfer: ({ context }) => !!context.restore?.transactionHash,
    pending: (_, err: unknown) => codeOf(err) === ErrorCode.TRANSACTION_PENDING,
    pollsDone: ({ context }) => context.polls >= TOKEN_MAX_POLLS,
    networkFailure: (_, err: unknown) => codeOf(err) === ErrorCode.NETWORK_FAILURE,
    cancellable: ({ context }) => context.charge !== null && context.transactionHash === null,
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
    keepHash: assign({ transactionHash: (_, sent: { hash: string }) => sent.hash }),
    keepRestoredHash: assign({ transactionHash: ({ context }) => context.restore?.transactionHash ?? null }),
    ensureKey: assign({ key: ({ context }) => context.key ?? crypto.randomUUID() }),
    dropKey: assign({ key: null }),
    dropCharge: assign({ charge: null, transactionHash: null }),
    countPoll: assign({ polls: ({ context }) => context.polls + 1 }),
    resetPolls: assign({ polls: 0 }),
    showError: assign({ error: (_, err: unknown) => toErrorBody(err) }),
    showCode: assign({ error: (_, code: ErrorCode) => failure(code) }),
    clearError: assign({ error: null }),
    endPaid: assign({ result: ({ context }) => ({ kind: 'paid' as const, charge: context.charge! }) }),
    endBack: assign({ result: { kind: 'back' as const } }),
    /** Keeps the charge (and its transfer's hash) in the tab, for a reload. */
    saveCheckpoint: (_, _checkpoint: TokenCheckpoint) => {},
    /** The charge ended: nothing to resume. */
    clearCheckpoint: () => {},
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
    connecting: {
      tags: ['busy'],
      invoke: {
        id: 'connectWallet',
        src: 'connectWallet',
        onDone: [
          {
            guard: { type: 'rightNetwork', params: ({ event }) => event.output },
            target: 'creating',
            actions: [{ type: 'keepAccount', params: ({ event }) => event.output }, 'ensureKey'],
          },
          {
            target: 'wrongNetwork',
            actions: [
              { type: 'keepAccount', params: ({ event }) => event.output },
              { type: 'showCode', params: ErrorCode.CHAIN_ID },
            ],
          },
        ],
        onError: { target: 'review', actions: { type: 'showError', params: error } },
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
            target: 'creating',
            actions: [{ type: 'keepAccount', params: ({ event }) => event.output }, 'ensureKey'],
          },
          { target: 'wrongNetwork', actions: { type: 'showCode', params: ErrorCode.CHAIN_ID } },
        ],
        onError: { target: 'wrongNetwork', actions: { type: 'showError', params: error } },
      },
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
              { type: 'saveCheckpoint', params: ({ event }) => ({ chargeId: event.output.id }) },
            ],
          },
        ],
        onError: [
          {
            guard: { type: 'networkFailure', params: error },
            target: 'review',
            actions: { type: 'showError', params: error },
          },
          { target: 'review', actions: [{ type: 'showError', params: error }, 'dropKey'] },
        ],
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
    /** The signature was refused or failed: sign again, or cancel the charge. */
    awaitingSignature: {
      on: {
        'token.retry': { target: 'signing', actions: 'clearError' },
        'token.cancel': { guard: 'cancellable', target: 'canceling', actions: 'clearError' },
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
            { type: 'keepHash', params: ({ event }) => event.output },
            {
              type: 'saveCheckpoint',
              params: ({ context, event }) => ({
                chargeId: context.charge!.id,
                transactionHash: event.output.hash,
              }),
            },
            'resetPolls',
          ],
        },
        onError: { target: 'awaitingTransfer', actions: { type: 'showError', params: error } },
      },
    },
    /** The transfer was refused or failed before it was sent: send it again, or cancel. */
    awaitingTransfer: {
      on: {
        'token.retry': { target: 'transferring', actions: 'clearError' },
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
            guard: { type: 'networkFailure', params: error },
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
    /** Still not seen after every poll: the buyer checks again (the transfer is never re-sent). */
    unconfirmed: {
      on: { 'token.retry': { target: 'validating', actions: ['resetPolls', 'clearError'] } },
    },
    /** The transfer does not pay the charge (too low, another address): the panel says why. */
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
        onError: { target: 'awaitingTransfer', actions: { type: 'showError', params: error } },
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
            target: 'estimating',
            actions: 'clearCheckpoint',
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
            guard: { type: 'signed', params: ({ event }) => event.output },
            target: 'awaitingTransfer',
            actions: { type: 'keepCharge', params: ({ event }) => event.output },
          },
          {
            target: 'awaitingSignature',
            actions: { type: 'keepCharge', params: ({ event }) => event.output },
          },
        ],
        onError: { target: 'estimating', actions: 'clearCheckpoint' },
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
  panel: 'noWallet' | 'review' | 'network' | 'lowFunds' | 'paying' | 'rejected' | 'done';
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
  canPay: boolean;
  canSwitch: boolean;
  canRetry: boolean;
  retryLabel: string;
  canCancel: boolean;
  canBack: boolean;
  acknowledge: (value: boolean) => void;
  pay: () => void;
  switchNetwork: () => void;
  retry: () => void;
  cancel: () => void;
  back: () => void;
}

const STATUS: Partial<Record<string, string>> = {
  estimating: 'Converting the price to NFM…',
  connecting: 'Connect your wallet…',
  switching: 'Switch the network in your wallet…',
  creating: 'Preparing the payment…',
  restoring: 'Checking your payment…',
  signing: 'Sign the payment in your wallet…',
  transferring: 'Confirm the NFM transfer in your wallet…',
  validating: 'pending payment',
  waiting: 'pending payment',
  unconfirmed: 'The transfer is not confirmed on chain yet.',
  canceling: 'Canceling the payment…',
  received: 'received payment',
  paid: 'received payment',
};

export function connectTokenCharge(
  snapshot: SnapshotFrom<typeof tokenChargeMachine>,
  send: (event: TokenChargeEvent) => void,
): TokenChargeView {
  const { context } = snapshot;
  const state = typeof snapshot.value === 'string' ? snapshot.value : '';
  const price = formatUsd(context.price);
  const amount = context.charge?.tokenAmount ?? context.estimate?.value ?? null;
  const panel: TokenChargeView['panel'] =
    snapshot.status === 'done'
      ? 'done'
      : snapshot.matches('noWallet')
        ? 'noWallet'
        : snapshot.matches('wrongNetwork') || snapshot.matches('switching')
          ? 'network'
          : snapshot.matches('lowFunds')
            ? 'lowFunds'
            : snapshot.matches('rejected')
              ? 'rejected'
              : context.charge
                ? 'paying'
                : 'review';
  const retry = snapshot.can({ type: 'token.retry' });
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
    canPay: snapshot.can({ type: 'token.submit' }),
    canSwitch: snapshot.can({ type: 'token.switch' }),
    canRetry: retry,
    retryLabel: snapshot.matches('unconfirmed') || snapshot.matches('lowFunds') ? 'Check again' : 'Try again',
    canCancel: snapshot.can({ type: 'token.cancel' }),
    canBack: snapshot.can({ type: 'token.back' }),
    acknowledge: (value) => send({ type: 'token.acknowledge', value }),
    pay: () => send({ type: 'token.submit' }),
    switchNetwork: () => send({ type: 'token.switch' }),
    retry: () => send({ type: 'token.retry' }),
    cancel: () => send({ type: 'token.cancel' }),
    back: () => send({ type: 'token.back' }),
  };
}
