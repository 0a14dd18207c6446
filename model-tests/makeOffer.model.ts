import { expect } from 'vitest';
import { connectMakeOffer, makeOfferMachine } from '../machines/makeOffer';
import { after, eventsOf, expectCalled, expectOutput, expectWorking, inputsOf } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof makeOfferMachine>;
const view = (o: O) => connectMakeOffer(o.snapshot, () => {});
const WALLET = '0x179b6b1cb6755e31';

export const makeOfferModel: MachineModel<typeof makeOfferMachine> = {
  machine: makeOfferMachine,
  fakes: ['readBalance', 'makeOffer', 'recordOffer'],
  scenarios: [{ name: 'a collector with a wallet', input: { nft: { id: '42' }, walletAddress: WALLET } }],
  events: (s) => [
    { type: 'offer.amount.change', value: '25' },
    // Below the $1 an offer names at least.
    { type: 'offer.amount.change', value: '0.50' },
    // A radio already picked raises no change.
    ...(s.context.expiryDays === 30 ? [] : [{ type: 'offer.expiry.change', days: 30 } as const]),
    { type: 'offer.review' },
    { type: 'offer.back' },
    { type: 'offer.confirm' },
    { type: 'offer.retry' },
    { type: 'offer.close' },
    // The balance answers once, while the form shows ($20: short of a $25 offer).
    ...(!s.context.balanceRead && s.matches('editing')
      ? [
          { type: 'xstate.done.actor.readBalance', output: 2000 },
          { type: 'xstate.error.actor.readBalance', error: { code: 'NETWORK_FAILURE' } },
        ]
      : []),
    { type: 'xstate.done.actor.makeOffer', output: { transactionId: 'tx-made' } },
    { type: 'xstate.error.actor.makeOffer', error: { code: 'WALLET_CANCELED' } },
    // Sent, not sealed in time: the next confirm waits for the same offer, on the terms sent.
    { type: 'xstate.error.actor.makeOffer', error: { code: 'SEAL_TIMEOUT' } },
    { type: 'xstate.done.actor.recordOffer', output: {} },
    { type: 'xstate.error.actor.recordOffer', error: { code: 'NETWORK_FAILURE' } },
  ],
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.amount,
      s.context.expiryDays,
      s.context.error?.code ?? null,
      s.context.error?.field ?? null,
      s.context.balanceCents,
      s.context.balanceRead,
    ]),
  expect: {
    // The amount is typed in dollars, $1 to $10,000, with an expiry of 1, 3, 7 or 30 days (7 unless
    // picked); anything else stays on the form with the field's error, and nothing is signed.
    editing: (o) => {
      expect(view(o)).toMatchObject({ panel: 'form', title: 'Make an offer', busy: false });
      expect(view(o).expiryOptions.map((e) => e.days)).toEqual([1, 3, 7, 30]);
      if (!o.history.some((e) => e.type === 'offer.expiry.change'))
        expect(o.snapshot.context.expiryDays).toBe(7);
      if (o.event.type === 'offer.review') {
        expect(o.snapshot.context.amount).not.toBe('25');
        expect(view(o).amountError).toBe('Enter an offer between $1 and $10,000.');
      }
      if (o.event.type === 'offer.amount.change')
        expect(view(o)).toMatchObject({ amountError: null, error: null });
      expect(view(o).getAmountInputProps().readOnly).toBe(false);
      // Signed only from the review, once per confirm.
      expect(inputsOf(o, 'makeOffer')).toHaveLength(eventsOf(o, 'offer.confirm').length);
    },
    // The balance, once read, is shown; one below the amount typed is said, never refused.
    '#busy': (o) => {
      expect(view(o).getDialogProps().showCloseButton).toBe(false);
      expect(view(o).getCloseButtonProps().disabled).toBe(true);
    },
    reviewing: (o) => {
      expect(view(o)).toMatchObject({ panel: 'review', title: 'Review your offer', busy: false });
      expect(view(o).review.amount).toBe('$25');
      expect(view(o).review.expiry).toBe(`${o.snapshot.context.expiryDays} days`);
      const balance = o.snapshot.context.balanceCents;
      expect(view(o).balance).toBe(balance === null ? null : '$20');
      expect(view(o).balanceNote === null).toBe(balance === null);
      if (balance !== null) expect(view(o).balanceNote).toContain('$5 short');
      // A wallet refusal can change the terms; a sent offer not sealed yet cannot (it is waited for).
      if (after(o, 'error', 'makeOffer')) expect(view(o).error).toBeTruthy();
      expect(view(o).getBackButtonProps().disabled).toBe(o.snapshot.context.error?.code === 'SEAL_TIMEOUT');
    },
    // Only a reviewed valid offer is signed, on its terms; a failed record never signs again.
    signing: (o) => {
      expect(o.event.type).toBe('offer.confirm');
      expectWorking(o, 'makeOffer', {
        address: WALLET,
        nftId: '42',
        amountCents: 2500,
        expiryDays: o.snapshot.context.expiryDays,
      });
      expect(view(o)).toMatchObject({
        busy: true,
        status: 'Approve the offer in your wallet, then wait for the blockchain…',
      });
      expect(view(o).getConfirmButtonProps()).toMatchObject({ 'aria-busy': true, 'data-state': 'busy' });
    },
    recording: (o) => {
      expect(['xstate.done.actor.makeOffer', 'offer.retry']).toContain(o.event.type);
      expectWorking(o, 'recordOffer', { transactionId: 'tx-made' });
      expect(view(o)).toMatchObject({ busy: true, status: 'Saving your offer…', error: null });
    },
    // On chain but not recorded: retry records it again, never signs again.
    recordFailed: (o) => {
      expect(view(o)).toMatchObject({ panel: 'recordFailed' });
      expect(view(o).error).toBeTruthy();
      expect(view(o).getRetryButtonProps().disabled).toBe(false);
      expect(inputsOf(o, 'makeOffer').length).toBe(
        o.history.filter((e) => e.type === 'offer.confirm').length,
      );
    },
    made: (o) => {
      expect(o.before.value).toBe('recording');
      expect(view(o)).toMatchObject({ panel: 'made', title: 'Offer made', error: null });
      expect(view(o).madeText).toContain('You offered $25');
    },
    done: (o) => {
      expect(o.before.value).toBe('made');
      expectCalled(o, 'recordOffer');
      expectOutput(o, { changed: true });
    },
    closed: (o) => {
      expect(o.event.type).toBe('offer.close');
      expect(o.before.value).not.toBe('made');
      expectOutput(o, { changed: false });
    },
  },
};
