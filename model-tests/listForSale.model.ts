import { expect } from 'vitest';
import { connectListForSale, listForSaleMachine } from '../machines/listForSale';
import { after, expectCalled, expectNotCalled, expectOutput, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof listForSaleMachine>;
const view = (o: O) => connectListForSale(o.snapshot, () => {});

const input = (kycApproved: boolean) => ({
  nft: { id: '42', flowBlueprintId: '7', seriesNumber: 3 },
  walletAddress: '0x01cf0e2f2f715450',
  kycApproved,
  royaltyPercent: 10,
  platformFeePercent: 5,
});

export const listForSaleModel: MachineModel<typeof listForSaleMachine> = {
  machine: listForSaleMachine,
  fakes: ['createListing', 'recordListing'],
  scenarios: [
    { name: 'a verified owner', input: input(true) },
    { name: 'an owner without KYC', input: input(false) },
  ],
  events: () => [
    { type: 'listing.price.change', value: '12.50' },
    { type: 'listing.price.change', value: '0' },
    { type: 'listing.submit' },
    { type: 'listing.retry' },
    { type: 'listing.close' },
    { type: 'xstate.done.actor.createListing', output: { blockchainListingId: '99' } },
    { type: 'xstate.error.actor.createListing', error: { code: 'WALLET_CANCELED' } },
    // Sent, not sealed in time: the next submit waits for the same listing, at the price sent.
    { type: 'xstate.error.actor.createListing', error: { code: 'SEAL_TIMEOUT' } },
    { type: 'xstate.done.actor.recordListing', output: {} },
    { type: 'xstate.error.actor.recordListing', error: { code: 'NETWORK_FAILURE' } },
  ],
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.price, s.context.error?.code ?? null, s.context.error?.field ?? null]),
  expect: {
    // Only an owner whose KYC is approved may sell; the others are told so and can only close.
    kycRequired: (o) => {
      expect(o.snapshot.context.kycApproved).toBe(false);
      expect(view(o)).toMatchObject({ panel: 'kycRequired' });
      expect(view(o).getSubmitButtonProps().disabled).toBe(true);
      expect(view(o).error).toBeTruthy();
    },
    // The price is typed in dollars; $0.01 to $10,000, else the field says so and nothing is signed.
    editing: (o) => {
      expect(o.snapshot.context.kycApproved).toBe(true);
      expect(view(o)).toMatchObject({ panel: 'form', busy: false });
      if (o.event.type === 'listing.price.change' && o.before.context.error?.code !== 'SEAL_TIMEOUT')
        expect(view(o)).toMatchObject({ price: o.event.value, priceError: null, error: null });
      if (o.event.type === 'listing.submit') {
        expect(o.snapshot.context.price).not.toBe('12.50');
        expect(view(o).priceError).toBeTruthy();
      }
      // A listing sent but not sealed in time is waited for: its price cannot change.
      if (o.snapshot.context.error?.code === 'SEAL_TIMEOUT') expect(view(o).canChangePrice).toBe(false);
      if (after(o, 'error', 'createListing')) expect(view(o).error).toBeTruthy();
      if (o.snapshot.context.price === '12.50' && !o.snapshot.context.error)
        expect(view(o).summary).toEqual({ royalty: '10 %', platformFee: '5 %', net: expect.any(String) });
    },
    // Only a submitted valid price is signed: a failed record never signs again.
    signing: (o) => {
      expect(o.event.type).toBe('listing.submit');
      expectWorking(o, 'createListing', {
        address: '0x01cf0e2f2f715450',
        nftId: '42',
        priceCents: 1250,
        platformFeePercent: 5,
      });
      expect(view(o)).toMatchObject({
        busy: true,
        status: 'Approve the listing in your wallet…',
      });
      expect(view(o).getDialogProps().showCloseButton).toBe(false);
      expect(view(o).getSubmitButtonProps()).toMatchObject({ 'aria-busy': true, 'data-state': 'busy' });
    },
    recording: (o) => {
      expect(['xstate.done.actor.createListing', 'listing.retry']).toContain(o.event.type);
      expectCalled(o, 'createListing');
      expectWorking(o, 'recordListing', {
        blockchainListingId: '99',
        flowBlueprintId: '7',
        nftSeriesNumber: '3',
        walletAddress: '0x01cf0e2f2f715450',
      });
      expect(view(o)).toMatchObject({ busy: true, status: 'Saving your listing…', error: null });
    },
    // On chain but not recorded: retry records it again, never signs again.
    recordFailed: (o) => {
      expect(view(o)).toMatchObject({ panel: 'recordFailed' });
      expect(view(o).getRetryButtonProps().disabled).toBe(false);
      expect(view(o).getCloseButtonProps().disabled).toBe(false);
      expect(view(o).error).toBeTruthy();
      expect(o.calls.filter((c) => c.name === 'createListing')).toHaveLength(1);
    },
    listed: (o) => {
      expect(o.before.value).toBe('recording');
      expect(view(o)).toMatchObject({ panel: 'listed', title: 'Listed for sale', error: null });
      expect(view(o).listedText).toContain('$12.50');
    },
    done: (o) => {
      expect(o.before.value).toBe('listed');
      expectOutput(o, { changed: true });
    },
    closed: (o) => {
      expect(o.before.value).not.toBe('listed');
      if (!o.snapshot.context.kycApproved) expectNotCalled(o, 'createListing');
      expectOutput(o, { changed: false });
    },
  },
};
