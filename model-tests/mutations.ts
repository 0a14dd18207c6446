/**
 * Mutation proof of the model tests (docs/testing.md; not part of `npm test`): each mutation below
 * swaps a transition's target or an assigned value in a machine, the way a slip would; the machine's
 * model tests must then FAIL (the mutation is "killed"). The graph's expected snapshots come from the
 * mutated machine itself, so only the rule-written expectations of the model can kill it.
 *
 *   npx tsx model-tests/mutations.ts [machine-file-filter]
 *
 * Prints a table and exits 1 when a mutation survives. The file is restored after each run (in
 * `finally`) and must then show no change in git.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

interface Mutation {
  /** The machine's file, from the repository's root. */
  file: string;
  /** Text found exactly once in the file, and what replaces it. */
  find: string;
  replace: string;
  /** The model tests that must fail. */
  tests: string[];
  /** What the slip does, for the table. */
  what: string;
}

const logic = (machine: string) => [`model-tests/${machine}.test.ts`];

export const mutations: Mutation[] = [
  {
    what: 'removeListing: a confirmed removal skips the wallet and records at once',
    file: 'machines/removeListing.ts',
    find: "'listing.remove.confirm': { target: 'signing'",
    replace: "'listing.remove.confirm': { target: 'recording'",
    tests: logic('removeListing'),
  },
  {
    what: 'removeListing: a recorded cancellation ends as "record failed"',
    file: 'machines/removeListing.ts',
    find: "onDone: { target: 'removed', actions: 'announceRemoved' }",
    replace: "onDone: { target: 'recordFailed', actions: 'announceRemoved' }",
    tests: logic('removeListing'),
  },
  {
    what: 'listForSale: an owner without KYC goes to the price form',
    file: 'machines/listForSale.ts',
    find: "always: [{ guard: 'kycApproved', target: 'editing' }, { target: 'kycRequired' }]",
    replace: "always: [{ guard: 'kycApproved', target: 'editing' }, { target: 'editing' }]",
    tests: logic('listForSale'),
  },
  {
    what: 'listForSale: the price signed is 100 times too small',
    file: 'machines/listForSale.ts',
    find: 'assign({ priceCents: ({ context }) => parseDollars(context.price)!, error: null })',
    replace: 'assign({ priceCents: ({ context }) => parseDollars(context.price)! / 100, error: null })',
    tests: logic('listForSale'),
  },
  {
    what: 'listForSale: a failed record retries by signing again',
    file: 'machines/listForSale.ts',
    find: "'listing.retry': { target: 'recording', actions: assign({ error: null }) }",
    replace: "'listing.retry': { target: 'signing', actions: assign({ error: null }) }",
    tests: logic('listForSale'),
  },
  {
    what: 'makeOffer: an invalid amount goes to the review anyway',
    file: 'machines/makeOffer.ts',
    find: '{ actions: assign({ error: ({ context }) => draftError(context) }) }',
    replace: "{ target: 'reviewing', actions: assign({ error: ({ context }) => draftError(context) }) }",
    tests: logic('makeOffer'),
  },
  {
    what: 'makeOffer: the amount signed is 100 times too small',
    file: 'machines/makeOffer.ts',
    find: 'assign({ amountCents: ({ context }) => parseDollars(context.amount)!, error: null })',
    replace: 'assign({ amountCents: ({ context }) => parseDollars(context.amount)! / 100, error: null })',
    tests: logic('makeOffer'),
  },
  {
    what: 'makeOffer: a failed record retries by signing again',
    file: 'machines/makeOffer.ts',
    find: "'offer.retry': { target: 'recording', actions: assign({ error: null }) }",
    replace: "'offer.retry': { target: 'signing', actions: assign({ error: null }) }",
    tests: logic('makeOffer'),
  },
  {
    what: 'acceptOffer: an owner without KYC goes to the review',
    file: 'machines/acceptOffer.ts',
    find: "always: [{ guard: 'kycApproved', target: 'reviewing' }, { target: 'kycRequired' }]",
    replace: "always: [{ guard: 'kycApproved', target: 'reviewing' }, { target: 'reviewing' }]",
    tests: logic('acceptOffer'),
  },
  {
    what: 'acceptOffer: an expired offer goes back to the review, to accept again',
    file: 'machines/acceptOffer.ts',
    find: "guard: 'refusedForGood',\n            target: 'refused'",
    replace: "guard: 'refusedForGood',\n            target: 'reviewing'",
    tests: logic('acceptOffer'),
  },
  {
    what: 'cancelOffer: a confirmed cancel skips the wallet and records at once',
    file: 'machines/cancelOffer.ts',
    find: "'offer.cancel': { target: 'signing'",
    replace: "'offer.cancel': { target: 'recording'",
    tests: logic('cancelOffer'),
  },
  {
    what: 'publish: a blueprint back to a draft reads as published',
    file: 'machines/publish.ts',
    find: `          {
            target: 'failed',
            actions: assign({
              blueprint: ({ event }) => event.output,`,
    replace: `          {
            target: 'published',
            actions: assign({
              blueprint: ({ event }) => event.output,`,
    tests: logic('publish'),
  },
  {
    what: 'publish: a retry after the timeout does not start counting again',
    file: 'machines/publish.ts',
    find: "target: 'waiting',\n            actions: assign({ polls: 0, error: null }),",
    replace: "target: 'waiting',\n            actions: assign({ error: null }),",
    tests: logic('publish'),
  },
  {
    what: 'publish: each read of the blueprint counts twice',
    file: 'machines/publish.ts',
    find: 'entry: assign({ polls: ({ context }) => context.polls + 1 }),',
    replace: 'entry: assign({ polls: ({ context }) => context.polls + 2 }),',
    tests: logic('publish'),
  },
  {
    what: 'payout: a sent request does not load the list again',
    file: 'machines/payout.ts',
    find: "onDone: { target: 'loading', actions: 'announceRequested' }",
    replace: "onDone: { target: 'ready', actions: 'announceRequested' }",
    tests: logic('payout'),
  },
  {
    what: 'payout: the form opens with the funds in cents as dollars',
    file: 'machines/payout.ts',
    find: 'actions: assign({ amount: ({ context }) => centsToDecimal(context.available), error: null }),',
    replace: 'actions: assign({ amount: ({ context }) => String(context.available), error: null }),',
    tests: logic('payout'),
  },
  {
    what: 'payout: a confirmed cancellation skips the server',
    file: 'machines/payout.ts',
    find: "'payout.cancel.confirm': 'cancelling',",
    replace: "'payout.cancel.confirm': 'loading',",
    tests: logic('payout'),
  },
  {
    what: 'settingsForm: a kept draft opens read-only',
    file: 'machines/settingsForm.ts',
    find: "always: [{ guard: 'restored', target: 'editing' }, { target: 'viewing' }]",
    replace: "always: [{ guard: 'restored', target: 'viewing' }, { target: 'viewing' }]",
    tests: logic('settingsForm'),
  },
  {
    what: 'settingsForm: Cancel keeps what was typed',
    file: 'machines/settingsForm.ts',
    find: `          target: 'viewing',
          actions: [assign({ values: {}, errors: {}, error: null }), forgetDraft],`,
    replace: `          target: 'viewing',
          actions: [assign({ errors: {}, error: null }), forgetDraft],`,
    tests: logic('settingsForm'),
  },
  {
    what: 'settingsForm: a saved form stays in edit mode',
    file: 'machines/settingsForm.ts',
    find: `        onDone: {
          target: 'viewing',`,
    replace: `        onDone: {
          target: 'editing',`,
    tests: logic('settingsForm'),
  },
  {
    what: 'savedCards: a tokenized card is not saved on the server',
    file: 'machines/savedCards.ts',
    find: "onDone: { target: 'saving', actions: assign({ token: ({ event }) => event.output.token }) },",
    replace:
      "onDone: { target: '#savedCards.loading', actions: assign({ token: ({ event }) => event.output.token }) },",
    tests: logic('savedCards'),
  },
  {
    what: 'savedCards: the card asked about is not the one removed',
    file: 'machines/savedCards.ts',
    find: 'actions: assign({ removeId: ({ event }) => event.id, error: null }),',
    replace: 'actions: assign({ removeId: ({ context }) => context.cards.at(-1)!.id, error: null }),',
    tests: logic('savedCards'),
  },
  {
    what: 'savedCards: Add card keeps the previous form',
    file: 'machines/savedCards.ts',
    find: 'actions: assign({ values: emptyBillingForm, errors: {}, error: null, token: null }),',
    replace: 'actions: assign({ errors: {}, error: null, token: null }),',
    tests: logic('savedCards'),
  },
  {
    what: 'kyc: an account without collectibles goes to the name form',
    file: 'machines/kyc.ts',
    find: "{ guard: 'ownsNoNfts', target: 'blocked' },",
    replace: "{ guard: 'ownsNoNfts', target: 'naming' },",
    tests: logic('kyc'),
  },
  {
    what: 'kyc: a decision read counts no poll',
    file: 'machines/kyc.ts',
    find: 'actions: assign({ polls: ({ context }) => context.polls + 1 }),',
    replace: 'actions: assign({ polls: ({ context }) => context.polls }),',
    tests: logic('kyc'),
  },
  {
    what: 'kyc: a session the provider refused goes to the blocking modal',
    file: 'machines/kyc.ts',
    find: "{ target: 'naming', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },",
    replace: "{ target: 'blocked', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },",
    tests: logic('kyc'),
  },
  {
    what: 'cryptoTopup: a retry after a lost connection makes a new charge',
    file: 'machines/cryptoTopup.ts',
    find: "{ guard: 'retryingAttempt', target: 'creating' },",
    replace: "{ guard: 'retryingAttempt', target: 'creating', actions: 'newKey' },",
    tests: logic('cryptoTopup'),
  },
  {
    what: 'cryptoTopup: FUSD that failed to send reads as not paid',
    file: 'machines/cryptoTopup.ts',
    find: "                target: '#cryptoTopup.failed',",
    replace: "                target: '#cryptoTopup.ended',",
    tests: logic('cryptoTopup'),
  },
  {
    what: 'cryptoTopup: a read of the charge is not counted',
    file: 'machines/cryptoTopup.ts',
    find: 'countPoll: assign({ polls: ({ context }) => context.polls + 1 }),',
    replace: 'countPoll: assign({ polls: ({ context }) => context.polls }),',
    tests: logic('cryptoTopup'),
  },
  {
    what: 'session: a stored token that expired is taken as it is',
    file: 'machines/session.ts',
    find: "        { guard: 'hasToken', target: 'resuming' },",
    replace: "        { guard: 'hasToken', target: 'loggedIn' },",
    tests: logic('session'),
  },
  {
    what: 'session: a 401 forgets the path to come back to',
    file: 'machines/session.ts',
    find: 'loginRedirect: ({ event }) => event.path,',
    replace: 'loginRedirect: () => null,',
    tests: logic('session'),
  },
  {
    what: 'session: a failed renewal keeps the session',
    file: 'machines/session.ts',
    find: "onError: { target: '#session.loggedOut', actions: 'clearSession' },",
    replace: "onError: { target: 'waiting' },",
    tests: logic('session'),
  },
  {
    what: 'auth: a known email is sent to sign-up',
    file: 'machines/auth.ts',
    find: "{ guard: { type: 'accountExists', params: ({ event }) => event.output }, target: 'login' },",
    replace: "{ guard: { type: 'accountExists', params: ({ event }) => event.output }, target: 'signup' },",
    tests: logic('auth'),
  },
  {
    what: 'auth: the signup password is not kept for the registration',
    file: 'machines/auth.ts',
    find: 'actions: assign(({ event }) => ({ ...clearErrors, password: event.password })),',
    replace: 'actions: assign(() => ({ ...clearErrors, password: null })),',
    tests: logic('auth'),
  },
  {
    what: 'auth: a reset link without a token shows the reset form',
    file: 'machines/auth.ts',
    find: "always: { guard: ({ context }) => !context.resetToken, target: 'resetInvalid' },",
    replace: "always: { guard: ({ context }) => !context.resetToken, target: 'forgot' },",
    tests: logic('auth'),
  },
  {
    what: 'storefrontWizard: Back from the bio step goes to the landing page',
    file: 'machines/storefrontWizard.ts',
    find: "'wizard.back': goBack('name'),",
    replace: "'wizard.back': goBack('landing'),",
    tests: logic('storefrontWizard'),
  },
  {
    what: 'storefrontWizard: a refused logo upload returns to the banner step',
    file: 'machines/storefrontWizard.ts',
    find: "{ guard: 'failedOnLogo', target: 'logo' },",
    replace: "{ guard: 'failedOnLogo', target: 'banner' },",
    tests: logic('storefrontWizard'),
  },
  {
    what: 'storefrontWizard: the storefront is created with the bio as its name',
    file: 'machines/storefrontWizard.ts',
    find: '              name: context.name.trim(),',
    replace: '              name: context.description.trim(),',
    tests: logic('storefrontWizard'),
  },
  {
    what: 'blueprintForm: cancel with unsaved changes closes without asking',
    file: 'machines/blueprintForm.ts',
    find: "{ guard: 'dirty', target: 'confirmingCancel' },",
    replace: "{ guard: 'dirty', target: 'canceled' },",
    tests: logic('blueprintForm'),
  },
  {
    what: 'blueprintForm: "keep editing" discards the form',
    file: 'machines/blueprintForm.ts',
    find: "'form.cancel.dismiss': 'editing',",
    replace: "'form.cancel.dismiss': 'canceled',",
    tests: logic('blueprintForm'),
  },
  {
    what: "blueprintForm: the preview is saved with the asset's URL",
    file: 'machines/blueprintForm.ts',
    find: 'previewImageUrl: context.urls.previewImageUrl!,',
    replace: 'previewImageUrl: context.urls.assetUrl!,',
    tests: logic('blueprintForm'),
  },
  {
    what: 'dashboardAccount: "leave anyway" keeps the unsaved draft',
    file: 'machines/dashboardAccount.ts',
    find: "'account.leave.confirm': { target: 'idle', actions: ['discard', forgetDraft] },",
    replace: "'account.leave.confirm': { target: 'idle', actions: [forgetDraft] },",
    tests: logic('dashboardAccount'),
  },
  {
    what: 'dashboardAccount: Save skips the field checks',
    file: 'machines/dashboardAccount.ts',
    find: "'account.save': { guard: 'dirty', target: 'validating' },",
    replace: "'account.save': { guard: 'dirty', target: 'saving' },",
    tests: logic('dashboardAccount'),
  },
  {
    what: 'dashboardAccount: the toggle sends the status the storefront already has',
    file: 'machines/dashboardAccount.ts',
    find: 'input: ({ context }) => ({ id: context.storefront!.id, enabled: !context.storefront!.enabled }),',
    replace:
      'input: ({ context }) => ({ id: context.storefront!.id, enabled: context.storefront!.enabled }),',
    tests: logic('dashboardAccount'),
  },
  {
    what: 'ui: Escape leaves a menu open',
    file: 'machines/ui.ts',
    find: "open: { on: { [toggle]: 'closed', 'ui.menus.close': 'closed' } },",
    replace: "open: { on: { [toggle]: 'closed', 'ui.menus.close': 'open' } },",
    tests: logic('ui'),
  },
  {
    what: 'collectionCheck: a collection set up is taken as ready without checking it',
    file: 'machines/collectionCheck.ts',
    find: "onDone: 'checking',",
    replace: "onDone: 'ready',",
    tests: logic('collectionCheck'),
  },
  {
    what: 'collectionSelection: Cancel keeps the ticked collectibles',
    file: 'machines/collectionSelection.ts',
    find: "'selection.cancel': { target: 'browsing', actions: 'clear' },",
    replace: "'selection.cancel': { target: 'browsing' },",
    tests: logic('collectionSelection'),
  },
  {
    what: 'imageJob: a finished optimization is uploaded plainly again',
    file: 'machines/imageJob.ts',
    find: "                    target: '#imageJob.done',",
    replace: "                    target: '#imageJob.fallback',",
    tests: logic('imageJob'),
  },
  {
    what: 'purchaseComplete: out of ticks reads as a failed lookup',
    file: 'machines/purchaseComplete.ts',
    find: "actions: assign({ failure: 'timedOut' })",
    replace: "actions: assign({ failure: 'lookupFailed' })",
    tests: logic('purchaseComplete'),
  },
  {
    what: 'purchaseComplete: out of ticks with the payment on its way back reads as failed',
    file: 'machines/purchaseComplete.ts',
    find: "{ guard: 'refundUnderWay', target: '#purchaseComplete.refunded' }",
    replace: "{ guard: 'refundUnderWay', target: '#purchaseComplete.failed' }",
    tests: logic('purchaseComplete'),
  },
  {
    what: 'purchaseComplete: the lookup runs with the wrong purchase time',
    file: 'machines/purchaseComplete.ts',
    find: 'input: ({ context }) => ({ id: context.id, kind: context.kind, since: context.since! }),',
    replace: 'input: ({ context }) => ({ id: context.id, kind: context.kind, since: Date.now() }),',
    tests: logic('purchaseComplete'),
  },
  {
    what: 'cardPayment: Pay again after no answer charges with a new idempotency key',
    file: 'machines/cardPayment/setup.ts',
    find: 'attempt: ({ context }) => context.attempt ?? { key: crypto.randomUUID(), token: null },',
    replace: 'attempt: () => ({ key: crypto.randomUUID(), token: null }),',
    tests: logic('cardPayment'),
  },
  {
    what: 'cardPayment: a charge still processing on return is paid afresh',
    file: 'machines/cardPayment.ts',
    find: "{ target: 'restoreFailed', actions: 'showChargeProcessing' }",
    replace: "{ target: 'loading', actions: 'showChargeProcessing' }",
    tests: logic('cardPayment'),
  },
  {
    what: 'cardPayment: the charge expects a price 100 times too large',
    file: 'machines/cardPayment/charge.ts',
    find: 'expectedPrice: context.price,',
    replace: 'expectedPrice: context.price * 100,',
    tests: logic('cardPayment'),
  },
  {
    what: 'cryptoPayment: Pay again after no answer opens a charge with a new key',
    file: 'machines/cryptoPayment.ts',
    find: "{ guard: 'retryingAttempt', target: 'creating' },",
    replace: "{ guard: 'retryingAttempt', target: 'creating', actions: 'newKey' },",
    tests: logic('cryptoPayment'),
  },
  {
    what: 'cryptoPayment: unticking the terms keeps the attempt',
    file: 'machines/cryptoPayment.ts',
    find: "actions: ['acknowledge', 'dropAttempt'],",
    replace: "actions: ['acknowledge'],",
    tests: logic('cryptoPayment'),
  },
  {
    what: 'cryptoPayment: a charge without a hosted page ends the flow',
    file: 'machines/cryptoPayment.ts',
    find: "{ target: 'review', actions: ['showNoHostedPage', 'dropAttempt'] },",
    replace: "{ target: 'redirect', actions: ['showNoHostedPage', 'dropAttempt'] },",
    tests: logic('cryptoPayment'),
  },
  {
    what: 'balancePayment: Pay again after a wallet refusal reserves a second order',
    file: 'machines/balancePayment.ts',
    find: "onError: { target: 'review', actions: { type: 'showError', params: error } },",
    replace:
      "onError: { target: 'review', actions: [{ type: 'showError', params: error }, 'dropOrderKey'] },",
    tests: logic('balancePayment'),
  },
  {
    what: 'balancePayment: the order is reserved with a top-up’s open key',
    file: 'machines/balancePayment.ts',
    find: 'idempotencyKey: context.orderKey!,',
    replace: 'idempotencyKey: context.topupKey ?? context.orderKey!,',
    tests: logic('balancePayment'),
  },
  {
    what: 'balancePayment: an order found paid already is paid again in the wallet',
    file: 'machines/balancePayment.ts',
    find: `            guard: { type: 'alreadyPaid', params: ({ event }) => event.output },
            target: 'paid',
            actions: { type: 'endPaid', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'ended', params: ({ event }) => event.output },`,
    replace: `            guard: { type: 'alreadyPaid', params: ({ event }) => event.output },
            target: 'signing',
            actions: { type: 'keepOrder', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'ended', params: ({ event }) => event.output },`,
    tests: logic('balancePayment'),
  },
  {
    what: 'balancePayment: the top-up asks for the whole price, not the shortfall',
    file: 'machines/balancePayment.ts',
    find: 'amount: topupAmount(context.price, context.balance ?? 0),',
    replace: 'amount: topupAmount(context.price, 0),',
    tests: logic('balancePayment'),
  },
  {
    what: 'walletPayment: a refused charge keeps its key for the next attempt',
    file: 'machines/walletPayment.ts',
    find: "{ target: 'refused', actions: [{ type: 'showError', params: error }, 'dropKey'] },",
    replace: "{ target: 'refused', actions: { type: 'showError', params: error } },",
    tests: logic('walletPayment'),
  },
  {
    what: 'walletPayment: the Google Pay billing form opens empty',
    file: 'machines/walletPayment.ts',
    find: "actions: ['keepAuthorization', 'fillBilling'] },",
    replace: "actions: ['keepAuthorization'] },",
    tests: logic('walletPayment'),
  },
  {
    what: 'walletPayment: a closed sheet reads as a processing error',
    file: 'machines/walletPayment.ts',
    find: 'params: ErrorCode.APPLE_PAY_CANCELED',
    replace: 'params: ErrorCode.PROCESSING_ERROR',
    tests: logic('walletPayment'),
  },
  {
    what: 'onrampPayment: the widget closed after a payment started cancels the charge',
    file: 'machines/onrampPayment.ts',
    find: "{ guard: 'paying', target: 'following', actions: 'resetPolls' },",
    replace: "{ guard: 'paying', target: 'cancelling', actions: 'resetPolls' },",
    tests: logic('onrampPayment'),
  },
  {
    what: 'onrampPayment: Pay again after no answer opens a second charge',
    file: 'machines/onrampPayment.ts',
    find: `            guard: { type: 'networkFailure', params: error },
            target: 'review',
            actions: { type: 'showError', params: error },`,
    replace: `            guard: { type: 'networkFailure', params: error },
            target: 'review',
            actions: [{ type: 'showError', params: error }, 'dropAttempt'],`,
    tests: logic('onrampPayment'),
  },
  {
    what: 'onrampPayment: a transfer the widget names is reported as a payment started',
    file: 'machines/onrampPayment.ts',
    find: "? ('transferStarted' as const)",
    replace: "? ('paymentStarted' as const)",
    tests: logic('onrampPayment'),
  },
  {
    what: 'tokenCharge: Check again after a sent transfer sends it again',
    file: 'machines/tokenCharge/transfer.ts',
    find: "{ guard: 'sent', target: 'validating',",
    replace: "{ guard: 'sent', target: 'transferring',",
    tests: logic('tokenCharge'),
  },
  {
    what: 'tokenCharge: a transfer of the address still unmined is sent over',
    file: 'machines/tokenCharge/transfer.ts',
    find: "target: 'transferPending',",
    replace: "target: 'transferring',",
    tests: logic('tokenCharge'),
  },
  {
    what: 'tokenCharge: Pay again after no answer creates a second charge',
    file: 'machines/tokenCharge.ts',
    find: `            guard: { type: 'networkFailure', params: errorOf },
            target: 'review',
            actions: { type: 'showError', params: errorOf },`,
    replace: `            guard: { type: 'networkFailure', params: errorOf },
            target: 'review',
            actions: [{ type: 'showError', params: errorOf }, 'dropKey'],`,
    tests: logic('tokenCharge'),
  },
  {
    what: 'tokenCharge: a cancel refused for a seen transfer offers a second send when a read misses it',
    file: 'machines/tokenCharge/transfer.ts',
    find: "{ guard: 'transferSeen', target: 'transferPending' },",
    replace: "{ guard: 'transferSeen', target: 'awaitingTransfer' },",
    tests: logic('tokenCharge'),
  },
  {
    what: 'buyListing: closing after a failed record reads as going back',
    file: 'machines/buyListing.ts',
    find: 'if (context.transactionId) return listingPaid(context, context.signedFrom!);',
    replace: '',
    tests: logic('buyListing'),
  },
  {
    what: 'buyListing: retrying a failed record buys the listing again',
    file: 'machines/buyListing.ts',
    find: "'buy.retry': { target: 'recording', actions: assign({ error: null }) },",
    replace: "'buy.retry': { target: 'signing', actions: assign({ error: null }) },",
    tests: logic('buyListing'),
  },
  {
    what: 'buyListing: a top-up with no answer is opened again with a new key',
    file: 'machines/buyListing.ts',
    find: `            target: 'insufficientFunds',
            actions: { type: 'showError', params: error },`,
    replace: `            target: 'insufficientFunds',
            actions: [{ type: 'showError', params: error }, 'dropKey'],`,
    tests: logic('buyListing'),
  },
  {
    what: 'buyListing: the top-up asks for the whole price, not the shortfall',
    file: 'machines/buyListing.ts',
    find: 'amount: topupAmount(context.listing.price, context.balance ?? 0),',
    replace: 'amount: topupAmount(context.listing.price, 0),',
    tests: logic('buyListing'),
  },
  {
    what: 'checkout: a free item is claimed before the collection check',
    file: 'machines/checkout.ts',
    find: "{ guard: 'claimsFree', target: 'collection', actions: 'aimAtClaim' }",
    replace: "{ guard: 'claimsFree', target: 'claiming', actions: 'aimAtClaim' }",
    tests: logic('checkout'),
  },
  {
    what: 'checkout: resuming the open crypto charge leaves for no page',
    file: 'machines/checkout/setup.ts',
    find: "url: context.pendingCrypto?.hostedUrl ?? ''",
    replace: "url: ''",
    tests: logic('checkout'),
  },
  {
    what: 'checkout: a declined order returns to the payment methods',
    file: 'machines/checkout.ts',
    find: "{ guard: 'railFailed', target: 'failed', actions: 'endRail' }",
    replace: "{ guard: 'railFailed', target: 'selectPaymentMethod', actions: 'endRail' }",
    tests: logic('checkout'),
  },
];

function git(...args: string[]) {
  return execFileSync('git', args, { encoding: 'utf8' });
}

function run(m: Mutation): { killed: boolean; note: string } {
  const original = readFileSync(m.file, 'utf8');
  const count = original.split(m.find).length - 1;
  if (count !== 1) return { killed: false, note: `text found ${count} times, must be once` };
  const clean = spawnSync('git', ['diff', '--quiet', '--', m.file]).status === 0;
  if (!clean) return { killed: false, note: 'file has uncommitted changes: not mutated' };
  let outcome: { killed: boolean; note: string };
  try {
    writeFileSync(m.file, original.replace(m.find, m.replace));
    const result = spawnSync('npx', ['vitest', 'run', '--project', 'web', ...m.tests], {
      encoding: 'utf8',
      env: { ...process.env, CI: '1' },
    });
    const failed = /Tests\s+.*?(\d+) failed/.exec(stripVTControlCharacters(result.stdout));
    outcome =
      result.status !== 0
        ? { killed: true, note: failed ? `${failed[1]} tests failed` : `exit ${result.status}` }
        : { killed: false, note: 'all tests passed' };
  } finally {
    writeFileSync(m.file, original);
  }
  if (spawnSync('git', ['diff', '--quiet', '--', m.file]).status !== 0) {
    console.error(git('diff', '--', m.file));
    console.error(`${m.file} was not restored`);
    process.exit(2);
  }
  return outcome;
}

const filter = process.argv[2];
const chosen = mutations.filter((m) => !filter || m.file.includes(filter));
const rows: string[] = ['| # | Mutation | Tests | Result |', '| - | -------- | ----- | ------ |'];
let survived = 0;
for (const [i, m] of chosen.entries()) {
  const { killed, note } = run(m);
  if (!killed) survived++;
  rows.push(`| ${i + 1} | ${m.what} | ${m.tests.join(', ')} | ${killed ? 'killed' : 'SURVIVED'} (${note}) |`);
  console.log(rows.at(-1));
}
console.log(`\n${rows.join('\n')}\n\n${chosen.length - survived}/${chosen.length} mutations killed`);
if (survived > 0) process.exit(1);
