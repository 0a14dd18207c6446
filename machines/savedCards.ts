import { assertEvent, assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import {
  type BillingFormValues,
  type BillingFormView,
  billingDetails,
  billingFormView,
  cardDetails,
  cardExpiry,
  changeBillingForm,
  emptyBillingForm,
  errorsAfterChange,
  maskedCard,
  validateBillingForm,
} from '#domain/billing';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import type { BillingInfoJson, CreateBillingInfoBody } from '#domain/schemas/checkout';
import type { CardFieldErrors, CardToken, TokenizeInput } from './cardPayment';

/**
 * Settings → Payment: the buyer's saved cards, masked to their last four digits. "Add card" opens
 * the billing form; its details are checked with the billing rules (domain/billing.ts) when
 * saved, each field's error cleared once that field changes; the card is tokenized at the card
 * provider and saved (POST billing-info), then the list loads again. "Remove" asks to confirm, then
 * removes the card (DELETE billing-info/{id}) and loads the list again. A refusal shows its message
 * (CARD_DUPLICATE: a card with the same last four digits is already saved).
 */
export interface SavedCardsContext {
  cards: BillingInfoJson[];
  values: BillingFormValues;
  errors: CardFieldErrors;
  /** The card being removed. */
  removeId: string | null;
  /** The token of the card being saved. */
  token: string | null;
  error: ApiErrorBody | null;
}
export type SavedCardsEvent =
  | { type: 'cards.add' }
  | { type: 'cards.change'; values: Partial<BillingFormValues> }
  | { type: 'cards.submit' }
  | { type: 'cards.close' }
  | { type: 'cards.remove'; id: string }
  | { type: 'cards.remove.confirm' }
  | { type: 'cards.retry' };

export const savedCardsMachine = setup({
  types: {
    context: {} as SavedCardsContext,
    events: {} as SavedCardsEvent,
    tags: {} as 'busy',
  },
  actors: {
    /** GET billing-info. */
    listBillingInfo: fromPromise<BillingInfoJson[]>(async () => {
      throw new Error('listBillingInfo not provided');
    }),
    /** POST {apiUrl}/tokens at the card provider with its public key. */
    tokenizeCard: fromPromise<CardToken, TokenizeInput>(async () => {
      throw new Error('tokenizeCard not provided');
    }),
    /** POST billing-info. */
    saveBillingInfo: fromPromise<BillingInfoJson, CreateBillingInfoBody>(async () => {
      throw new Error('saveBillingInfo not provided');
    }),
    /** DELETE billing-info/{id}. */
    deleteBillingInfo: fromPromise<void, { id: string }>(async () => {
      throw new Error('deleteBillingInfo not provided');
    }),
  },
  guards: {
    formValid: ({ context }) => Object.keys(validateBillingForm(context.values)).length === 0,
    knownCard: ({ context, event }) => {
      assertEvent(event, 'cards.remove');
      return context.cards.some((c) => c.id === event.id);
    },
  },
  actions: {
    /** Tells the page a card was saved (toast). */
    announceAdded: (_, _params: BillingInfoJson) => {},
    /** Tells the page a card was removed (toast). */
    announceRemoved: () => {},
  },
}).createMachine({
  id: 'savedCards',
  context: { cards: [], values: emptyBillingForm, errors: {}, removeId: null, token: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'listBillingInfo',
        src: 'listBillingInfo',
        onDone: { target: 'ready', actions: assign({ cards: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'loadFailed',
          actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
        },
      },
    },
    loadFailed: {
      on: { 'cards.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    ready: {
      on: {
        'cards.add': {
          target: 'adding',
          actions: assign({ values: emptyBillingForm, errors: {}, error: null, token: null }),
        },
        'cards.remove': {
          guard: 'knownCard',
          target: 'confirmingRemove',
          actions: assign({ removeId: ({ event }) => event.id, error: null }),
        },
      },
    },
    adding: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'cards.change': {
              actions: assign(({ context, event }) => ({
                values: changeBillingForm(context.values, event.values),
                errors: errorsAfterChange(context.errors, context.values, event.values),
                error: null,
              })),
            },
            'cards.submit': [
              { guard: 'formValid', target: 'tokenizing', actions: assign({ errors: {}, error: null }) },
              { actions: assign({ errors: ({ context }) => validateBillingForm(context.values) }) },
            ],
            'cards.close': { target: '#savedCards.ready', actions: assign({ errors: {}, error: null }) },
          },
        },
        tokenizing: {
          tags: ['busy'],
          invoke: {
            id: 'tokenizeCard',
            src: 'tokenizeCard',
            input: ({ context }) => ({
              card: cardDetails(context.values),
              billing: billingDetails(context.values),
            }),
            onDone: { target: 'saving', actions: assign({ token: ({ event }) => event.output.token }) },
            onError: {
              target: 'editing',
              actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
            },
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'saveBillingInfo',
            src: 'saveBillingInfo',
            input: ({ context }) => ({ cardToken: context.token!, ...billingDetails(context.values) }),
            onDone: {
              target: '#savedCards.loading',
              actions: [
                assign({ values: emptyBillingForm, token: null }),
                { type: 'announceAdded', params: ({ event }) => event.output },
              ],
            },
            // A token is used once: saving again makes a new one.
            onError: {
              target: 'editing',
              actions: assign({ token: null, error: ({ event }) => toErrorBody(event.error) }),
            },
          },
        },
      },
    },
    confirmingRemove: {
      on: {
        'cards.remove.confirm': 'removing',
        'cards.close': { target: 'ready', actions: assign({ removeId: null }) },
      },
    },
    removing: {
      tags: ['busy'],
      invoke: {
        id: 'deleteBillingInfo',
        src: 'deleteBillingInfo',
        input: ({ context }) => ({ id: context.removeId! }),
        onDone: { target: 'loading', actions: [assign({ removeId: null }), 'announceRemoved'] },
        onError: {
          target: 'ready',
          actions: assign({ removeId: null, error: ({ event }) => toErrorBody(event.error) }),
        },
      },
    },
  },
});

export interface SavedCardRow {
  id: string;
  /** "Visa •••• 4242". */
  label: string;
  /** "Expires 04/2030". */
  expiry: string | null;
}
export interface SavedCardsView {
  panel: 'loading' | 'loadFailed' | 'list';
  busy: boolean;
  cards: SavedCardRow[];
  /** The add-card form, while it is open. */
  form: BillingFormView | null;
  saving: boolean;
  /** The card the confirmation asks about. */
  confirmRemove: SavedCardRow | null;
  removing: boolean;
  canAdd: boolean;
  /** The refusal of the last action, or why the list did not load. */
  error: string | null;
  add: () => void;
  change: (values: Partial<BillingFormValues>) => void;
  submit: () => void;
  close: () => void;
  remove: (id: string) => void;
  confirm: () => void;
  retry: () => void;
}

export function connectSavedCards(
  snapshot: SnapshotFrom<typeof savedCardsMachine>,
  send: (event: SavedCardsEvent) => void,
): SavedCardsView {
  const { context } = snapshot;
  const rows = context.cards.map((c) => ({
    id: c.id,
    label: maskedCard(c.scheme, c.lastFourDigits),
    expiry: cardExpiry(c.expiryMonth, c.expiryYear),
  }));
  const adding = snapshot.matches('adding');
  const confirming = snapshot.matches('confirmingRemove') || snapshot.matches('removing');
  const firstLoad = snapshot.matches('loading') && context.cards.length === 0;
  return {
    panel: snapshot.matches('loadFailed') ? 'loadFailed' : firstLoad ? 'loading' : 'list',
    busy: snapshot.hasTag('busy'),
    cards: rows,
    form: adding ? billingFormView(context.values, context.errors) : null,
    saving: adding && snapshot.hasTag('busy'),
    confirmRemove: confirming ? (rows.find((r) => r.id === context.removeId) ?? null) : null,
    removing: snapshot.matches('removing'),
    canAdd: snapshot.can({ type: 'cards.add' }),
    error: context.error ? errorMessage(context.error) : null,
    add: () => send({ type: 'cards.add' }),
    change: (values) => send({ type: 'cards.change', values }),
    submit: () => send({ type: 'cards.submit' }),
    close: () => send({ type: 'cards.close' }),
    remove: (id) => send({ type: 'cards.remove', id }),
    confirm: () => send({ type: 'cards.remove.confirm' }),
    retry: () => send({ type: 'cards.retry' }),
  };
}
