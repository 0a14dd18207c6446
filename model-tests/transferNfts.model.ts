import { expect } from 'vitest';
import { connectTransferNfts, transferNftsMachine } from '../machines/transferNfts';
import { expectOutput, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof transferNftsMachine>;
const view = (o: O) => connectTransferNfts(o.snapshot, () => {});
const OWN = '0x01cf0e2f2f715450';

export const transferNftsModel: MachineModel<typeof transferNftsMachine> = {
  machine: transferNftsMachine,
  fakes: ['transferNfts'],
  scenarios: [
    { name: 'two collectibles', input: { ids: ['41', '42'], walletAddress: '0x01cf0e2f2f715450' } },
  ],
  events: () => [
    { type: 'transfer.recipient.change', value: '0x179B6B1CB6755E31' },
    { type: 'transfer.recipient.change', value: '0x01cf0e2f2f715450' },
    { type: 'transfer.recipient.change', value: 'alice' },
    { type: 'transfer.submit' },
    { type: 'transfer.close' },
    { type: 'xstate.done.actor.transferNfts', output: {} },
    { type: 'xstate.error.actor.transferNfts', error: { code: 'TRANSACTION' } },
  ],
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.recipient,
      s.context.error?.code ?? null,
      s.context.error?.field ?? null,
    ]),
  expect: {
    // The recipient: a Flow address that is not one's own.
    editing: (o) => {
      const v = view(o);
      expect(v).toMatchObject({
        panel: 'form',
        title: 'Transfer 2 collectibles',
        busy: false,
      });
      expect(v.getDialogProps().showCloseButton).toBe(true);
      expect(v.getSubmitButtonProps()).toMatchObject({ type: 'submit', disabled: false });
      if (o.event.type === 'transfer.recipient.change')
        expect(v).toMatchObject({ recipient: o.event.value, recipientError: null, error: null });
      if (o.event.type === 'transfer.submit') {
        expect(v.recipientError).toBeTruthy();
        const to = o.snapshot.context.recipient.toLowerCase();
        expect(to === OWN || !/^0x[0-9a-f]{16}$/.test(to)).toBe(true);
      }
      if (o.event.type === 'xstate.error.actor.transferNfts') expect(v.error).toBeTruthy();
    },
    signing: (o) => {
      expect(o.event.type).toBe('transfer.submit');
      expectWorking(o, 'transferNfts', { address: OWN, to: '0x179b6b1cb6755e31', ids: ['41', '42'] });
      expect(view(o)).toMatchObject({
        busy: true,
        status: 'Approve the transfer in your wallet…',
      });
      expect(view(o).getDialogProps().showCloseButton).toBe(false);
      expect(view(o).getCloseButtonProps().disabled).toBe(true);
      expect(view(o).getRecipientInputProps().readOnly).toBe(true);
    },
    transferred: (o) => {
      expect(o.event.type).toBe('xstate.done.actor.transferNfts');
      expect(view(o)).toMatchObject({
        panel: 'transferred',
        title: 'Transfer sent',
        sentTo: '0x179b6b1cb6755e31',
      });
    },
    done: (o) => {
      expect(o.before.value).toBe('transferred');
      expectOutput(o, { changed: true });
    },
    closed: (o) => {
      expect(o.before.value).toBe('editing');
      expectOutput(o, { changed: false });
    },
  },
};
