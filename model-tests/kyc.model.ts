import { kycMachine } from '../machines/kyc';
import { makeUser } from './fixtures';
import type { MachineModel } from './harness';

/** Status reads before giving up in the model (the live machine allows 30). */
export const MODEL_MAX_POLLS = 2;
const withKyc = (status: 'created' | 'approved') =>
  makeUser({
    kyc: { ...makeUser().kyc, status, url: status === 'created' ? 'http://127.0.0.1:8793/v/x.y.z' : null },
  });

export const KYC_URL = 'http://127.0.0.1:8793/v/eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl';
const account = { firstName: 'Grace', lastName: 'Hopper' };

export const kycModel: MachineModel<typeof kycMachine> = {
  machine: kycMachine,
  fakes: ['createSession', 'readStatus'],
  provide: { guards: { morePolls: ({ context }) => context.polls < MODEL_MAX_POLLS } },
  scenarios: [
    {
      name: 'never started, owns an NFT',
      input: { status: 'unknown', url: null, ownsNfts: true, ...account },
    },
    {
      name: 'never started, owns nothing',
      input: { status: 'unknown', url: null, ownsNfts: false, ...account },
    },
    {
      name: 'a session open at the provider',
      input: { status: 'created', url: KYC_URL, ownsNfts: true, ...account },
    },
    { name: 'verified', input: { status: 'approved', url: null, ownsNfts: true, ...account } },
    {
      name: 'back from the provider, undecided',
      input: { status: 'created', url: KYC_URL, ownsNfts: true, returned: true, ...account },
    },
  ],
  events: () => [
    { type: 'kyc.start' },
    { type: 'kyc.close' },
    { type: 'kyc.firstName.change', value: 'Grace' },
    { type: 'kyc.firstName.change', value: 'Al' },
    { type: 'kyc.lastName.change', value: 'Hopper' },
    { type: 'kyc.lastName.change', value: '' },
    { type: 'kyc.submit' },
    { type: 'kyc.update', status: 'review', url: null, ownsNfts: true },
    { type: 'xstate.done.actor.createSession', output: { url: KYC_URL } },
    { type: 'xstate.after.decisionPoll.kyc.awaitingDecision.waiting' },
    { type: 'xstate.done.actor.readStatus', output: { user: withKyc('created') } },
    { type: 'xstate.done.actor.readStatus', output: { user: withKyc('approved') } },
    {
      type: 'xstate.error.actor.readStatus',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
    },
    {
      type: 'xstate.error.actor.createSession',
      error: { status: 502, body: { code: 'CREATE_KYC', message: '' } },
    },
    {
      type: 'xstate.error.actor.createSession',
      error: { status: 502, body: { code: 'VERIFF_UNREACHABLE', message: '' } },
    },
    {
      type: 'xstate.error.actor.createSession',
      error: { status: 403, body: { code: 'KYC_NO_NFTS', message: '' } },
    },
  ],
  serializeState: (s) =>
    JSON.stringify(
      s.status === 'done'
        ? [s.value]
        : [
            s.value,
            s.context.status,
            s.context.ownsNfts,
            s.context.polls,
            s.context.firstName,
            s.context.lastName,
            s.context.fieldErrors.firstName?.code ?? null,
            s.context.fieldErrors.lastName?.code ?? null,
            s.context.error?.code ?? null,
          ],
    ),
};
