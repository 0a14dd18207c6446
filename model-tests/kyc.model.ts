import { kycMachine } from '../machines/kyc';
import type { MachineModel } from './harness';

export const KYC_URL = 'http://127.0.0.1:8793/v/eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl';
const account = { firstName: 'Grace', lastName: 'Hopper' };

export const kycModel: MachineModel<typeof kycMachine> = {
  machine: kycMachine,
  fakes: ['createSession'],
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
    {
      name: 'a resubmission asked without a URL',
      input: { status: 'resubmission_requested', url: null, ownsNfts: true, firstName: 'Al', lastName: '' },
    },
    { name: 'verified', input: { status: 'approved', url: null, ownsNfts: true, ...account } },
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
    { type: 'kyc.update', status: 'expired', url: KYC_URL, ownsNfts: true },
    { type: 'xstate.done.actor.createSession', output: { url: KYC_URL } },
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
            s.context.firstName,
            s.context.lastName,
            s.context.fieldErrors.firstName?.code ?? null,
            s.context.fieldErrors.lastName?.code ?? null,
            s.context.error?.code ?? null,
          ],
    ),
};
