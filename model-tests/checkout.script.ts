import { createActor, fromPromise, waitFor } from 'xstate';
import type { CardChargeJson, FreeClaimJson } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import type { User } from '#domain/user';
import type { BuyListingInput, BuyListingOutput } from '../machines/buyListing';
import type { CardPaymentInput, CardPaymentOutput } from '../machines/cardPayment';
import { type CheckoutEvent, type CheckoutInput, checkoutMachine } from '../machines/checkout';
import { connectCheckout } from '../machines/checkoutView';
import type { OnrampPaymentInput, OnrampPaymentOutput } from '../machines/onrampPayment';
import { CANCELED, FREE_CLAIM } from './checkout.model';

export type Script = {
  pending?: () => Promise<CardChargeJson | null>;
  cancel?: () => Promise<CardChargeJson>;
  claim?: () => Promise<FreeClaimJson>;
  wallet?: () => Promise<{ user: User }>;
  collection?: (n: number) => Promise<{ ready: boolean }>;
  card?: (input: CardPaymentInput) => Promise<CardPaymentOutput>;
  buy?: (input: BuyListingInput) => Promise<BuyListingOutput>;
  onramp?: (input: OnrampPaymentInput) => Promise<OnrampPaymentOutput>;
  /** The collection's setup transaction (approved when not scripted). */
  setup?: () => Promise<void>;
};

/** The real machine with scripted actors; every call and every redirect is recorded. */
export function start(input: CheckoutInput, script: Script = {}) {
  const calls = {
    pending: 0,
    cancels: [] as string[],
    claims: [] as string[],
    links: 0,
    checks: [] as string[],
    setups: [] as string[],
    cards: [] as CardPaymentInput[],
    buys: [] as BuyListingInput[],
    onramps: [] as OnrampPaymentInput[],
    redirects: [] as string[],
    linked: [] as User[],
  };
  const never = () => new Promise<never>(() => {});
  const actor = createActor(
    checkoutMachine.provide({
      actors: {
        findPendingCrypto: fromPromise(async (): Promise<CoinbaseChargeJson | null> => null),
        findPendingCharge: fromPromise(async () => {
          calls.pending++;
          return (script.pending ?? (async () => null))();
        }),
        cancelCharge: fromPromise(async ({ input }) => {
          calls.cancels.push(input.id);
          return (script.cancel ?? (async () => CANCELED))();
        }),
        claimFree: fromPromise(async ({ input }) => {
          calls.claims.push(input.blueprintId);
          return (script.claim ?? (async () => FREE_CLAIM))();
        }),
        linkWallet: fromPromise(async () => {
          calls.links++;
          return (script.wallet ?? never)();
        }),
        checkCollection: fromPromise(async ({ input }) => {
          calls.checks.push(input.address);
          return (script.collection ?? (async () => ({ ready: true })))(calls.checks.length);
        }),
        setupCollection: fromPromise(async ({ input }) => {
          calls.setups.push(input.address);
          await script.setup?.();
        }),
        cardPayment: fromPromise<CardPaymentOutput, CardPaymentInput>(async ({ input }) => {
          calls.cards.push(input);
          return (script.card ?? never)(input);
        }) as never,
        buyListing: fromPromise<BuyListingOutput, BuyListingInput>(async ({ input }) => {
          calls.buys.push(input);
          return (script.buy ?? never)(input);
        }) as never,
        onrampPayment: fromPromise<OnrampPaymentOutput, OnrampPaymentInput>(async ({ input }) => {
          calls.onramps.push(input);
          return (script.onramp ?? never)(input);
        }) as never,
      },
      actions: {
        redirectTo: (_, { url }) => void calls.redirects.push(url),
        announceWalletLinked: (_, { user }) => void calls.linked.push(user),
      },
    }),
    { input },
  ).start();
  const send = (event: CheckoutEvent) => actor.send(event);
  const settled = () => waitFor(actor, (s) => !s.hasTag('busy'));
  const view = () => connectCheckout(actor.getSnapshot(), send);
  const done = () => waitFor(actor, (s) => s.status === 'done').then((s) => s.output);
  return { actor, calls, send, settled, view, done };
}
