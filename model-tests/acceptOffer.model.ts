import { expect } from 'vitest';
import { acceptOfferMachine, connectAcceptOffer } from '../machines/acceptOffer';
import { after, expectCalled, expectNotCalled, expectOutput, expectWorking, inputsOf } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof acceptOfferMachine>;
const view = (o: O) => connectAcceptOffer(o.snapshot, () => {});
const OWNER = '0xf3fcd2c1a78f5eee';
const BUYER = '0x179b6b1cb6755e31';

const input = (kycApproved: boolean) => ({
  offer: { chainOfferId: '17', amount: 2500, buyerAddress: BUYER },
  walletAddress: OWNER,
  kycApproved,
  royaltyPercent: 10,
  platformFeePercent: 5,
});

export const acceptOfferModel: MachineModel<typeof acceptOfferMachine> = {
  machine: acceptOfferMachine,
  fakes: ['acceptOffer', 'recordOffer'],
  scenarios: [
    { name: 'a verified owner', input: input(true) },
    { name: 'an owner without KYC', input: input(false) },
  ],
  events: () => [
    { type: 'offer.accept' },
    { type: 'offer.retry' },
    { type: 'offer.close' },
    { type: 'xstate.done.actor.acceptOffer', output: { transactionId: 'tx-accepted' } },
    { type: 'xstate.error.actor.acceptOffer', error: { code: 'WALLET_CANCELED' } },
    { type: 'xstate.error.actor.acceptOffer', error: { code: 'OFFER_EXPIRED' } },
    { type: 'xstate.error.actor.acceptOffer', error: { code: 'OFFER_UNFUNDED' } },
    { type: 'xstate.done.actor.recordOffer', output: {} },
    { type: 'xstate.error.actor.recordOffer', error: { code: 'NETWORK_FAILURE' } },
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.error?.code ?? null]),
  expect: {
    // Only an owner whose KYC is approved may accept (as to list); the others are told so.
    kycRequired: (o) => {
      expect(o.snapshot.context.kycApproved).toBe(false);
      expect(view(o)).toMatchObject({ panel: 'kycRequired' });
      expect(view(o).error).toContain('identity verification');
      expect(view(o).getAcceptButtonProps().disabled).toBe(true);
    },
    // The review: the amount, the royalty and fee shares, and the seller's net ($25 − 15 % = $21.25).
    reviewing: (o) => {
      expect(o.snapshot.context.kycApproved).toBe(true);
      expect(view(o)).toMatchObject({
        panel: 'review',
        busy: false,
        summary: { amount: '$25', royalty: '10 %', platformFee: '5 %', net: '$21.25' },
      });
      expect(view(o).getAcceptButtonProps().disabled).toBe(false);
      // Back to the review only after a failure another try may get past (not an expired or unfunded offer).
      if (after(o, 'error', 'acceptOffer')) {
        expect(view(o).error).toBeTruthy();
        expect(['OFFER_EXPIRED', 'OFFER_UNFUNDED']).not.toContain((o.event.error as { code: string }).code);
      }
      expectNotCalled(o, 'recordOffer');
    },
    signing: (o) => {
      expect(o.event.type).toBe('offer.accept');
      expectWorking(o, 'acceptOffer', { address: OWNER, buyer: BUYER, chainOfferId: '17' });
      expect(view(o)).toMatchObject({
        busy: true,
        status: 'Approve the sale in your wallet, then wait for the blockchain…',
      });
      expect(view(o).getDialogProps().showCloseButton).toBe(false);
    },
    recording: (o) => {
      expectCalled(o, 'acceptOffer');
      expectWorking(o, 'recordOffer', { transactionId: 'tx-accepted' });
      expect(view(o)).toMatchObject({ busy: true, status: 'Saving the sale…', error: null });
    },
    // Expired or no longer funded: said plainly, no retry, nothing recorded.
    refused: (o) => {
      const code = (o.event.error as { code: string }).code;
      expect(['OFFER_EXPIRED', 'OFFER_UNFUNDED']).toContain(code);
      expect(view(o)).toMatchObject({ panel: 'refused' });
      expect(view(o).error).toMatch(code === 'OFFER_EXPIRED' ? /expired/ : /no longer funded/);
      expect(view(o).getAcceptButtonProps().disabled).toBe(true);
      expect(view(o).getRetryButtonProps().disabled).toBe(true);
      expectNotCalled(o, 'recordOffer');
    },
    // Sold on chain but not recorded: retry records it again, never signs again.
    recordFailed: (o) => {
      expect(view(o)).toMatchObject({ panel: 'recordFailed' });
      expect(view(o).error).toBeTruthy();
      expect(view(o).getRetryButtonProps().disabled).toBe(false);
      expect(inputsOf(o, 'acceptOffer')).toHaveLength(
        o.history.filter((e) => e.type === 'offer.accept').length,
      );
    },
    accepted: (o) => {
      expect(o.before.value).toBe('recording');
      expect(view(o)).toMatchObject({
        panel: 'accepted',
        title: 'Offer accepted',
        closeLabel: 'Done',
        error: null,
      });
    },
    // The NFT changed hands once the chain sold it, recorded or not.
    done: (o) => {
      expect(['accepted', 'recordFailed']).toContain(o.before.value);
      expectCalled(o, 'recordOffer');
      expectOutput(o, { changed: true });
    },
    closed: (o) => {
      expect(['kycRequired', 'reviewing', 'refused']).toContain(o.before.value);
      if (!o.snapshot.context.kycApproved) expectNotCalled(o, 'acceptOffer');
      expectNotCalled(o, 'recordOffer');
      expectOutput(o, { changed: false });
    },
  },
};
