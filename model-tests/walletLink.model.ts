import { walletLinkMachine } from '../machines/walletLink';
import { makeUser } from './fixtures';
import type { MachineModel } from './harness';

export const walletLinkModel: MachineModel<typeof walletLinkMachine> = {
  machine: walletLinkMachine,
  fakes: ['linkWallet'],
  scenarios: [{ name: 'signed in', input: undefined }],
  events: () => [
    { type: 'wallet.relink' },
    { type: 'xstate.done.actor.linkWallet', output: { user: makeUser() } },
    {
      type: 'xstate.error.actor.linkWallet',
      error: { status: 400, body: { code: 'WALLET_EXISTS', field: 'walletAddress', message: 'taken' } },
    },
    {
      type: 'xstate.error.actor.linkWallet',
      error: { status: 400, body: { code: 'BLOCTO_AUTHENTICATION', message: 'x' } },
    },
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.error?.code ?? null]),
};
