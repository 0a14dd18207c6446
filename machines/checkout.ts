import type { ActorRefFrom } from 'xstate';
import { collectionState } from './checkout/collection';
import {
  balanceInput,
  cardInput,
  cryptoInput,
  listingInput,
  onrampInput,
  tokenInput,
  walletInput,
} from './checkout/rails';
import { checkoutSetup, failure } from './checkout/setup';
import type { RailOutcome } from './railOutcome';

export type {
  CheckoutContext,
  CheckoutEvent,
  CheckoutInput,
  CheckoutItem,
  CheckoutOutput,
  CheckoutReopen,
  CheckoutTarget,
  CheckoutUser,
  EditionSort,
  OrderCompleteTarget,
  PaymentMethod,
  TokenRail,
} from './checkout/types';

/** Every rail's end (its RailOutcome) goes on in one place: the `railEnded` state. */
const railEnd = {
  target: 'railEnded',
  actions: { type: 'keepOutcome', params: ({ event }: { event: { output: RailOutcome } }) => event.output },
} as const;

/**
 * The checkout of a blueprint or pack (pressing Buy on its item page).
 *
 * Pressing buy: a visitor is asked to sign up. A signed-in buyer's open crypto charge comes first:
 * it is resumed on the provider's payment page or canceled. Then a card charge still waiting for
 * 3-D Secure: it is resumed (read again, never charged twice) or canceled. A charge the
 * tab remembers (its checkpoint) that is no longer waiting is read to show how it ended; one whose
 * creation was cut off is read before anything else. Then a free
 * item is claimed; a pack, or an item nobody resells, goes to the payment methods; otherwise the
 * buyer chooses between the new edition and the resale listings.
 *
 * Before paying or claiming, the buyer's wallet must hold a collection: without a wallet the buyer
 * connects one, without a collection the buyer sets it up in the wallet; then the flow goes on to
 * where it was going (the claim, the card rail or the listing). Once ready it is not checked again.
 *
 * Resale listings are bought with the stablecoin balance (the buyListing machine); a new edition by
 * card (the cardPayment machine) or a mobile wallet (Apple Pay, Google Pay: the walletPayment
 * machine, ending as the card rail does), with crypto on the provider's hosted page (the cryptoPayment
 * machine), with the FUSD balance on chain (the balancePayment machine, whose balance shows beside
 * its rail) or by card through the card-to-crypto on-ramp's widget (the onrampPayment machine); the
 * payment methods offered are the rails the server runs (`rails`). A card checkpoint (the charge the buyer left for 3-D Secure) goes
 * straight to the card rail, which reads that charge. A top-up opened from the resale purchase or
 * the balance rail returns to the item page, which opens the checkout again there (`reopen`): past
 * the collection check, straight to that listing (while it is still for sale) or to the balance
 * rail (while it is offered), which follow the top-up. The flow ends with its output: signUp,
 * purchased (where the purchase-complete page is), failed (the failed order), redirecting (to 3-D
 * Secure) or null (closed). Closing is possible on every panel where nothing runs.
 */

export const checkoutMachine = checkoutSetup.createMachine({
  id: 'checkout',
  context: ({ input }) => ({
    item: input.item,
    listings: input.listings,
    user: input.user,
    walletAddress: input.user?.walletAddress ?? null,
    checkpoint: input.checkpoint ?? null,
    rails: input.rails,
    token: input.token ?? null,
    balance: null,
    pendingCrypto: null,
    sort: 'priceAsc',
    pendingCharge: null,
    resume: null,
    listing: null,
    reopen: input.reopen ?? null,
    target: null,
    collectionReady: false,
    setUpOnceLinked: false,
    error: null,
    outcome: null,
    result: null,
  }),
  initial: 'start',
  output: ({ context }) => context.result,
  states: {
    start: {
      always: [
        { guard: 'signedOut', target: 'signUp', actions: 'askToSignUp' },
        // Left while the charge was being created: only reading that charge can tell how it went.
        { guard: 'chargeInFlight', target: 'creditCard' },
        // Back from a top-up's page: the listing or the balance rail it was opened from, again.
        { guard: 'reopensListing', target: 'collection', actions: 'reopenListing' },
        { guard: 'reopensBalance', target: 'collection', actions: 'reopenBalance' },
        { target: 'findingPendingCrypto' },
      ],
    },
    findingPendingCrypto: {
      tags: ['busy'],
      invoke: {
        id: 'findPendingCrypto',
        src: 'findPendingCrypto',
        onDone: [
          {
            guard: { type: 'cryptoFound', params: ({ event }) => event.output },
            target: 'cryptoPending',
            actions: { type: 'rememberPendingCrypto', params: ({ event }) => event.output! },
          },
          { target: 'findingPending' },
        ],
        // Not known now: a second crypto charge would be refused (CHARGE_PENDING) with its reason.
        onError: { target: 'findingPending' },
      },
    },
    cryptoPending: {
      on: {
        'checkout.charge.resume': {
          target: 'redirecting',
          actions: [
            'resumeCrypto',
            {
              type: 'redirectTo',
              params: ({ context }) => ({ url: context.pendingCrypto?.hostedUrl ?? '' }),
            },
          ],
        },
        'checkout.charge.cancel': { target: 'cancellingCrypto', actions: 'clearError' },
        'checkout.close': 'closed',
      },
    },
    cancellingCrypto: {
      tags: ['busy'],
      invoke: {
        id: 'cancelCrypto',
        src: 'cancelCrypto',
        input: ({ context }) => ({ id: context.pendingCrypto!.id }),
        onDone: { target: 'findingPending', actions: 'forgetPendingCrypto' },
        // Paid meanwhile (CHARGE_NOT_CANCELLABLE) or not reached: the reason shows on the panel.
        onError: { target: 'cryptoPending', actions: failure },
      },
    },
    findingPending: {
      tags: ['busy'],
      invoke: {
        id: 'findPendingCharge',
        src: 'findPendingCharge',
        onDone: [
          {
            guard: { type: 'found', params: ({ event }) => event.output },
            target: 'cardPending',
            actions: { type: 'rememberPendingCharge', params: ({ event }) => event.output! },
          },
          // The charge the buyer left for 3-D Secure ended meanwhile: reading it shows how.
          { guard: 'hasCheckpoint', target: 'creditCard' },
          { target: 'choosing' },
        ],
        // Not known now: a second charge would be refused (CHARGE_PENDING) with its reason.
        onError: [{ guard: 'hasCheckpoint', target: 'creditCard' }, { target: 'choosing' }],
      },
    },
    choosing: {
      always: [
        { guard: 'claimsFree', target: 'collection', actions: 'aimAtClaim' },
        { guard: 'offersListings', target: 'selectEdition' },
        { target: 'selectPaymentMethod' },
      ],
    },
    cardPending: {
      on: {
        'checkout.charge.resume': { target: 'creditCard', actions: 'resumePendingCharge' },
        'checkout.charge.cancel': { target: 'cancellingCharge', actions: 'clearError' },
        'checkout.close': 'closed',
      },
    },
    cancellingCharge: {
      tags: ['busy'],
      invoke: {
        id: 'cancelCharge',
        src: 'cancelCharge',
        input: ({ context }) => ({ id: context.pendingCharge!.id }),
        onDone: { target: 'choosing', actions: 'forgetPendingCharge' },
        // Settled meanwhile (CHARGE_NOT_CANCELLABLE) or not reached: resuming reads how it ended.
        onError: { target: 'cardPending', actions: failure },
      },
    },
    selectEdition: {
      on: {
        'checkout.edition.sort': { actions: 'sortEditions' },
        'checkout.edition.select': [
          { guard: 'newEdition', target: 'selectPaymentMethod' },
          { guard: 'knownListing', target: 'collection', actions: 'chooseListing' },
        ],
        'checkout.close': 'closed',
      },
    },
    selectPaymentMethod: {
      // The balance shows beside its rail (with "Insufficient funds" when short); reading it never blocks.
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'balanceReadable', target: 'readingBalance' }, { target: 'shown' }] },
        readingBalance: {
          invoke: {
            id: 'readBalance',
            src: 'readBalance',
            input: ({ context }) => ({ address: context.walletAddress! }),
            onDone: {
              target: 'shown',
              actions: { type: 'keepBalance', params: ({ event }) => event.output },
            },
            onError: 'shown',
          },
        },
        shown: {},
      },
      on: {
        'checkout.method.select': { guard: 'offered', target: 'collection', actions: 'aimAtMethod' },
        'checkout.back': [{ guard: 'offersListings', target: 'selectEdition' }, { target: 'closed' }],
        'checkout.close': 'closed',
      },
    },
    collection: collectionState,
    claiming: {
      tags: ['busy'],
      invoke: {
        id: 'claimFree',
        src: 'claimFree',
        input: ({ context }) => ({ blueprintId: context.item.id }),
        onDone: {
          target: 'purchased',
          actions: { type: 'endClaimed', params: ({ event }) => event.output },
        },
        onError: { target: 'claimFailed', actions: failure },
      },
    },
    /** Try again only after a failure a retry may get past: a refused claim stays refused. */
    claimFailed: {
      on: {
        'checkout.retry': { guard: 'retryable', target: 'claiming', actions: 'clearError' },
        'checkout.close': 'closed',
      },
    },
    buyingListing: {
      exit: 'forgetReopen',
      invoke: {
        id: 'buyListing',
        src: 'buyListing',
        input: ({ context }) => listingInput(context),
        onDone: railEnd,
      },
    },
    creditCard: {
      invoke: {
        id: 'cardPayment',
        src: 'cardPayment',
        input: ({ context }) => cardInput(context),
        onDone: railEnd,
      },
    },
    crypto: {
      invoke: {
        id: 'cryptoPayment',
        src: 'cryptoPayment',
        input: ({ context }) => cryptoInput(context),
        onDone: railEnd,
      },
    },
    balance: {
      exit: 'forgetReopen',
      invoke: {
        id: 'balancePayment',
        src: 'balancePayment',
        input: ({ context }) => balanceInput(context),
        onDone: railEnd,
      },
    },
    /** Apple Pay or Google Pay: a card payment from the wallet's sheet; it ends as the card rail does. */
    wallet: {
      invoke: {
        id: 'walletPayment',
        src: 'walletPayment',
        input: ({ context }) => walletInput(context),
        onDone: railEnd,
      },
    },
    onramp: {
      invoke: {
        id: 'onrampPayment',
        src: 'onrampPayment',
        input: ({ context }) => onrampInput(context),
        onDone: railEnd,
      },
    },
    /** The utility token (NFM) from the browser wallet. */
    token: {
      invoke: {
        id: 'tokenCharge',
        src: 'tokenCharge',
        input: ({ context }) => tokenInput(context),
        onDone: railEnd,
      },
    },
    /**
     * How a rail ended, whichever rail it was: paid ends on the purchase-complete page, redirect
     * leaves for the rail's page (3-D Secure, the crypto provider's, a top-up's), failed ends on the
     * failed order. Back returns to the editions from a resale listing, to where pressing buy leads
     * from a charge resumed or restored, else to the payment methods.
     */
    railEnded: {
      always: [
        { guard: 'railPaid', target: 'purchased', actions: 'endRail' },
        {
          guard: 'railRedirect',
          target: 'redirecting',
          actions: [
            'endRail',
            {
              type: 'redirectTo',
              params: ({ context }) => ({
                url: context.outcome?.type === 'redirect' ? context.outcome.url : '',
              }),
            },
          ],
        },
        { guard: 'railFailed', target: 'failed', actions: 'endRail' },
        { guard: 'goingToListing', target: 'selectEdition' },
        { guard: 'resumingCharge', target: 'choosing', actions: 'forgetCharge' },
        { target: 'selectPaymentMethod' },
      ],
    },
    signUp: { type: 'final' },
    purchased: { type: 'final' },
    /** On the way to the card provider's 3-D Secure page. */
    redirecting: { type: 'final', tags: ['busy'] },
    failed: { type: 'final' },
    closed: { type: 'final' },
  },
});

export type CheckoutActor = ActorRefFrom<typeof checkoutMachine>;
