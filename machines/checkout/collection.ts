import { checkoutSetup, failure } from './setup';

/**
 * Before paying or claiming, the buyer's wallet must hold a collection (and an FUSD vault): without
 * a wallet the buyer connects one, without a collection the buyer sets it up with one wallet
 * transaction; then the checkout goes on to where it was going. Once ready it is not checked again.
 * A wallet connected here without a collection goes straight on to its setup (the wallet asks for
 * the approval next); refused there, the buyer gets the "Set up collection" button.
 */
export const collectionState = checkoutSetup.createStateConfig({
  initial: 'deciding',
  states: {
    deciding: {
      always: [
        { guard: 'collectionReady', target: 'ready' },
        { guard: 'noWallet', target: 'walletRequired' },
        { target: 'checking' },
      ],
    },
    walletRequired: {
      on: {
        'checkout.wallet.connect': { target: 'linkingWallet', actions: 'clearError' },
        'checkout.close': '#checkout.closed',
      },
    },
    linkingWallet: {
      tags: ['busy'],
      invoke: {
        id: 'linkWallet',
        src: 'linkWallet',
        onDone: {
          target: 'deciding',
          actions: [
            { type: 'keepWallet', params: ({ event }) => event.output.user },
            { type: 'announceWalletLinked', params: ({ event }) => ({ user: event.output.user }) },
            'setUpOnceLinked',
          ],
        },
        onError: { target: 'walletRequired', actions: failure },
      },
    },
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'checkCollection',
        src: 'checkCollection',
        input: ({ context }) => ({ address: context.walletAddress! }),
        onDone: [
          {
            guard: { type: 'collectionSetUp', params: ({ event }) => event.output },
            target: 'ready',
            actions: 'markCollectionReady',
          },
          { guard: 'setUpOnceLinked', target: 'settingUp', actions: 'setUpStarted' },
          { target: 'required' },
        ],
        onError: { target: 'checkFailed', actions: failure },
      },
    },
    checkFailed: {
      on: {
        'checkout.retry': { target: 'checking', actions: 'clearError' },
        'checkout.close': '#checkout.closed',
      },
    },
    required: {
      on: {
        'checkout.collection.setup': { target: 'settingUp', actions: 'clearError' },
        'checkout.close': '#checkout.closed',
      },
    },
    settingUp: {
      tags: ['busy'],
      invoke: {
        id: 'setupCollection',
        src: 'setupCollection',
        input: ({ context }) => ({ address: context.walletAddress! }),
        onDone: 'checking',
        onError: { target: 'required', actions: failure },
      },
    },
    ready: {
      always: [
        { guard: 'goingToClaim', target: '#checkout.claiming' },
        { guard: 'goingToListing', target: '#checkout.buyingListing' },
        { guard: 'goingToCrypto', target: '#checkout.crypto' },
        { guard: 'goingToBalance', target: '#checkout.balance' },
        { guard: 'goingToOnramp', target: '#checkout.onramp' },
        { guard: 'goingToToken', target: '#checkout.token' },
        { guard: 'goingToWallet', target: '#checkout.wallet' },
        { target: '#checkout.creditCard' },
      ],
    },
  },
});
