import { expect } from 'vitest';
import { connectWalletLink, walletLinkMachine } from '../machines/walletLink';
import { after, expectWorking } from './expect';
import { makeUser } from './fixtures';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof walletLinkMachine>;
const view = (o: O) => connectWalletLink(o.snapshot, () => {});

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
  expect: {
    // Relink is offered when nothing runs; a refusal says why until the next try.
    idle: (o) => {
      expect(view(o)).toMatchObject({ busy: false, canRelink: true });
      if (after(o, 'error', 'linkWallet')) expect(view(o).error).toBeTruthy();
      else expect(view(o).error).toBeNull();
    },
    linking: (o) => {
      expect(o.event.type).toBe('wallet.relink');
      expectWorking(o, 'linkWallet');
      expect(view(o)).toMatchObject({ busy: true, canRelink: false, error: null });
    },
  },
};
