import { errorOf, tokenChargeSetup } from './setup';

/**
 * The token charge's transfer, once the charge is signed: sent once by the wallet (its hash kept in
 * the tab before anything else), looked for on chain when its send failed or its outcome is
 * unknown, then reported until the server confirms it. A transfer is never sent twice.
 */
export const transferStates = {
  transferring: tokenChargeSetup.createStateConfig({
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
        actions: [{ type: 'showError', params: errorOf }, 'resetPolls'],
      },
    },
  }),
  /**
   * What the chain holds of the charge's transfer, right before a send, after a failed or unknown
   * send, or after a reload: a transfer found is validated, never sent again, and an unmined one of
   * the address is waited for. With neither, a send the buyer asked for goes ahead; otherwise the
   * buyer is offered Try again or Cancel.
   */
  checkingTransfer: tokenChargeSetup.createStateConfig({
    tags: ['busy'],
    exit: 'dropSendIntent',
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
            'clearError',
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
        // The server has seen the transfer (it refused the cancel): look again after a while.
        { guard: 'transferSeen', target: 'transferPending' },
        {
          guard: 'sendWhenNone',
          target: 'transferring',
          actions: { type: 'keepCharge', params: ({ event }) => event.output.charge },
        },
        {
          target: 'awaitingTransfer',
          actions: { type: 'keepCharge', params: ({ event }) => event.output.charge },
        },
      ],
      // Not known now: Try again looks again before it sends; the server refuses a cancel once
      // the NFM is on chain.
      onError: { target: 'awaitingTransfer', actions: { type: 'showError', params: errorOf } },
    },
  }),
  /**
   * The wallet has a transaction of the address not mined yet, or the server has seen a transfer
   * the read does not show yet: wait for it, then look again.
   */
  transferPending: tokenChargeSetup.createStateConfig({
    tags: ['busy'],
    entry: 'countPoll',
    always: { guard: 'pollsDone', target: 'unconfirmed' },
    after: { pollInterval: { target: 'checkingTransfer' } },
  }),
  /** Nothing sent (the chain shows no transfer): send it (through the wallet's checks), or cancel. */
  awaitingTransfer: tokenChargeSetup.createStateConfig({
    on: {
      'token.retry': { target: 'connecting', actions: 'clearError' },
      'token.cancel': { guard: 'cancellable', target: 'canceling', actions: 'clearError' },
    },
  }),
  validating: tokenChargeSetup.createStateConfig({
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
            'clearError',
            'clearCheckpoint',
          ],
        },
        { target: 'waiting', actions: { type: 'keepCharge', params: ({ event }) => event.output } },
      ],
      onError: [
        { guard: { type: 'pending', params: errorOf }, target: 'waiting' },
        {
          guard: { type: 'unreachable', params: errorOf },
          target: 'waiting',
          actions: { type: 'showError', params: errorOf },
        },
        { target: 'rejected', actions: [{ type: 'showError', params: errorOf }, 'clearCheckpoint'] },
      ],
    },
  }),
  /** Sent; the chain has not shown it yet. */
  waiting: tokenChargeSetup.createStateConfig({
    tags: ['busy'],
    always: { guard: 'pollsDone', target: 'unconfirmed' },
    after: { pollInterval: { target: 'validating' } },
  }),
  /** Still not seen after every poll: the buyer checks again (a transfer is never re-sent). */
  unconfirmed: tokenChargeSetup.createStateConfig({
    on: {
      'token.retry': [
        { guard: 'sent', target: 'validating', actions: ['resetPolls', 'clearError'] },
        { target: 'checkingTransfer', actions: ['resetPolls', 'clearError'] },
      ],
    },
  }),
};
