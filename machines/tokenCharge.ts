import type { ActorRefFrom } from 'xstate';
import { ErrorCode } from '#domain/errors';
import { blockingChargeId } from './tokenCharge/charge';
import { errorOf, tokenChargeSetup } from './tokenCharge/setup';
import { transferStates } from './tokenCharge/transfer';

export type {
  CreateTokenChargeRequest,
  TokenChargeContext,
  TokenChargeEvent,
  TokenChargeInput,
  TokenChargeOutput,
  TokenCheckpoint,
  TransferCheck,
  WalletAccount,
} from './tokenCharge/charge';
export { blockingChargeId, formatNfm, TOKEN_MAX_POLLS } from './tokenCharge/charge';

/**
 * Paying for a new edition in NFM, the utility token, from the buyer's browser wallet (the
 * "utility-token payment" panel of the checkout).
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
 * cancelable and the panel says so. A cancel the server refuses (CHARGE_NOT_CANCELLABLE: it has
 * seen the transfer) is no failure: the flow follows that transfer to the paid path (or to the
 * refusal of a transfer too low), waiting while a read does not show it yet, and never offers
 * Cancel nor sends again. A cancel that fails otherwise leaves the panel where it was.
 *
 * Reload: the checkout restores a checkpoint `{ chargeId, item, transactionHash? }` (`restore`) only
 * for the same item: the charge is read again (`loadCharge`) and the flow resumes at its step:
 * validation when a transfer was sent (or found by the server), the signature or the transfer
 * check otherwise, the outcome when it ended. A charge of another item is left alone.
 */
export const tokenChargeMachine = tokenChargeSetup.createMachine({
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
    transferSeen: false,
    sendWhenNone: false,
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
        onError: { target: 'review', actions: { type: 'showError', params: errorOf } },
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
          { guard: 'hasCharge', target: 'awaiting', actions: { type: 'showError', params: errorOf } },
          { target: 'review', actions: { type: 'showError', params: errorOf } },
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
        onError: { target: 'wrongNetwork', actions: { type: 'showError', params: errorOf } },
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
        // The server has seen the transfer: it is looked for, never signed or sent again.
        { guard: 'transferSeen', target: 'checkingTransfer', actions: 'resetPolls' },
        { guard: 'chargeSigned', target: 'checkingTransfer', actions: ['resetPolls', 'aimToSend'] },
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
            guard: { type: 'networkFailure', params: errorOf },
            target: 'review',
            actions: { type: 'showError', params: errorOf },
          },
          {
            guard: { type: 'activeCharge', params: errorOf },
            target: 'findingBlocker',
            actions: [{ type: 'showError', params: errorOf }, 'dropKey'],
          },
          { target: 'review', actions: [{ type: 'showError', params: errorOf }, 'dropKey'] },
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
        onError: { target: 'blocked', actions: { type: 'showError', params: errorOf } },
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
        onError: { target: 'awaitingSignature', actions: { type: 'showError', params: errorOf } },
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
    ...transferStates,
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
          // The NFM is on chain after all: the server took it; its outcome is read, not an error.
          {
            guard: { type: 'notCancellable', params: errorOf },
            target: 'checkingTransfer',
            actions: ['seeTransfer', 'clearError', 'resetPolls'],
          },
          { target: 'awaiting', actions: { type: 'showError', params: errorOf } },
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
            guard: { type: 'unreachable', params: errorOf },
            target: 'restoreFailed',
            actions: { type: 'showError', params: errorOf },
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
