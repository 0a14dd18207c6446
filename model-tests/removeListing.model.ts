import { expect } from 'vitest';
import { connectRemoveListing, removeListingMachine } from '../machines/removeListing';
import { after, expectCalled, expectNotCalled, expectOutput, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof removeListingMachine>;
const view = (o: O) => connectRemoveListing(o.snapshot, () => {});
const listing = { address: '0x01cf0e2f2f715450', blockchainListingId: '99' };
const MARKETPLACE_ERROR = 'Unable to remove NFT from the marketplace';

export const removeListingModel: MachineModel<typeof removeListingMachine> = {
  machine: removeListingMachine,
  fakes: ['removeListing', 'cancelListing'],
  scenarios: [
    { name: 'a listed NFT', input: { blockchainListingId: '99', walletAddress: '0x01cf0e2f2f715450' } },
  ],
  events: () => [
    { type: 'listing.remove.confirm' },
    { type: 'listing.retry' },
    { type: 'listing.close' },
    { type: 'xstate.done.actor.removeListing', output: {} },
    { type: 'xstate.error.actor.removeListing', error: { code: 'TRANSACTION' } },
    { type: 'xstate.error.actor.removeListing', error: { code: 'WALLET_CANCELED' } },
    { type: 'xstate.done.actor.cancelListing', output: {} },
    { type: 'xstate.error.actor.cancelListing', error: { code: 'NETWORK_FAILURE' } },
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.error?.code ?? null]),
  expect: {
    // Asks first; a failed removal says why (a wallet refusal its own text, anything else the
    // marketplace's), and the cancellation is never recorded before the chain removed the listing.
    confirming: (o: O) => {
      expect(view(o)).toMatchObject({
        panel: 'confirming',
        title: 'Remove listing',
        busy: false,
      });
      expect(view(o).getConfirmButtonProps()).toMatchObject({ disabled: false, 'data-state': 'idle' });
      expectNotCalled(o, 'cancelListing');
      if (after(o, 'error', 'removeListing')) {
        const code = (o.event.error as { code: string }).code;
        if (code === 'WALLET_CANCELED') expect(view(o).error).not.toContain(MARKETPLACE_ERROR);
        else expect(view(o).error).toContain(MARKETPLACE_ERROR);
      }
      if (o.event.type === 'listing.remove.confirm') expect(view(o).error).toBeNull();
    },
    signing: (o: O) => {
      expectWorking(o, 'removeListing', listing);
      expect(view(o)).toMatchObject({
        busy: true,
        status: 'Approve the removal in your wallet…',
      });
      expect(view(o).getCloseButtonProps().disabled).toBe(true);
      expect(view(o).getDialogProps().showCloseButton).toBe(false);
      expect(view(o).getConfirmButtonProps()).toMatchObject({ 'aria-busy': true, 'data-state': 'busy' });
    },
    recording: (o: O) => {
      expectCalled(o, 'removeListing', listing);
      expectWorking(o, 'cancelListing', { blockchainListingId: '99' });
      expect(view(o)).toMatchObject({ busy: true, status: 'Saving…', error: null });
    },
    recordFailed: (o: O) => {
      expectCalled(o, 'cancelListing');
      expect(view(o)).toMatchObject({
        panel: 'recordFailed',
        closeLabel: 'Close',
      });
      expect(view(o).getRetryButtonProps().disabled).toBe(false);
      expect(view(o).getCloseButtonProps().disabled).toBe(false);
      expect(view(o).error).toContain(MARKETPLACE_ERROR);
    },
    removed: (o: O) => {
      expect(o.before.value).toBe('recording');
      expect(view(o)).toMatchObject({ panel: 'removed', title: 'Removed from the marketplace', error: null });
    },
    done: (o: O) => {
      expect(o.before.value).toBe('removed');
      expectOutput(o, { changed: true });
    },
    closed: (o: O) => {
      expect(o.event.type).toBe('listing.close');
      expect(o.before.value).not.toBe('removed');
      expectOutput(o, { changed: false });
    },
  },
};
