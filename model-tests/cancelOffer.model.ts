import { expect } from 'vitest';
import { cancelOfferMachine, connectCancelOffer } from '../machines/cancelOffer';
import { after, expectCalled, expectNotCalled, expectOutput, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof cancelOfferMachine>;
const view = (o: O) => connectCancelOffer(o.snapshot, () => {});
const BUYER = '0x179b6b1cb6755e31';

export const cancelOfferModel: MachineModel<typeof cancelOfferMachine> = {
  machine: cancelOfferMachine,
  fakes: ['cancelOffer', 'recordOffer'],
  scenarios: [
    { name: "a buyer's offer", input: { offer: { chainOfferId: '17', amount: 2500 }, walletAddress: BUYER } },
  ],
  events: () => [
    { type: 'offer.cancel' },
    { type: 'offer.retry' },
    { type: 'offer.close' },
    { type: 'xstate.done.actor.cancelOffer', output: { transactionId: 'tx-canceled' } },
    { type: 'xstate.error.actor.cancelOffer', error: { code: 'WALLET_CANCELED' } },
    { type: 'xstate.done.actor.recordOffer', output: {} },
    { type: 'xstate.error.actor.recordOffer', error: { code: 'NETWORK_FAILURE' } },
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.error?.code ?? null]),
  expect: {
    // Asks first; a failed signature says why and asks again. Nothing is recorded before the chain.
    confirming: (o) => {
      expect(view(o)).toMatchObject({
        panel: 'confirming',
        title: 'Cancel offer',
        busy: false,
        closeLabel: 'Keep offer',
      });
      expect(view(o).text).toContain('$25');
      expectNotCalled(o, 'recordOffer');
      if (after(o, 'error', 'cancelOffer')) expect(view(o).error).toBeTruthy();
      else expect(view(o).error).toBeNull();
    },
    signing: (o) => {
      expectWorking(o, 'cancelOffer', { address: BUYER, chainOfferId: '17' });
      expect(view(o)).toMatchObject({ busy: true, closeLabel: 'Waiting for the wallet…' });
      expect(view(o).getDialogProps().showCloseButton).toBe(false);
      expect(view(o).getConfirmButtonProps()).toMatchObject({ 'aria-busy': true });
    },
    recording: (o) => {
      expectCalled(o, 'cancelOffer');
      expectWorking(o, 'recordOffer', { transactionId: 'tx-canceled' });
      expect(view(o)).toMatchObject({ busy: true, status: 'Saving…', error: null });
    },
    recordFailed: (o) => {
      expect(view(o)).toMatchObject({ panel: 'recordFailed', closeLabel: 'Close' });
      expect(view(o).error).toBeTruthy();
      expect(view(o).getRetryButtonProps().disabled).toBe(false);
      expect(o.calls.filter((c) => c.name === 'cancelOffer')).toHaveLength(1);
    },
    canceled: (o) => {
      expect(o.before.value).toBe('recording');
      expect(view(o)).toMatchObject({
        panel: 'canceled',
        title: 'Offer canceled',
        text: 'Your offer of $25 is canceled.',
      });
    },
    // Canceled on chain: the offers change, recorded or not.
    done: (o) => {
      expect(['canceled', 'recordFailed']).toContain(o.before.value);
      expectOutput(o, { changed: true });
    },
    closed: (o) => {
      expect(o.before.value).toBe('confirming');
      expectNotCalled(o, 'recordOffer');
      expectOutput(o, { changed: false });
    },
  },
};
