import { transferNftsMachine } from '../machines/transferNfts';
import type { MachineModel } from './harness';

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
};
