import { expect } from 'vitest';
import { kycLabel } from '#domain/kyc';
import { connectKyc, kycMachine } from '../machines/kyc';
import { after, expectNotCalled, expectOutput, expectWorking } from './expect';
import { makeUser } from './fixtures';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof kycMachine>;
const view = (o: O) => connectKyc(o.snapshot, () => {});

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
  expect: {
    // Back from the provider with no decision yet: the status is read again every few seconds.
    awaitingDecision: (o) => {
      expect(view(o).awaiting).toBe('Waiting for Veriff’s decision…');
      expect(o.snapshot.context).toMatchObject({ returned: true, status: 'created' });
      expect(o.snapshot.context.polls).toBeLessThanOrEqual(MODEL_MAX_POLLS);
    },
    'awaitingDecision.waiting': (o) => {
      if (o.event.type === 'xstate.init') expect(o.snapshot.context.polls).toBe(0);
      if (after(o, 'done', 'readStatus')) expect(o.snapshot.context.polls).toBe(o.before.context.polls);
    },
    'awaitingDecision.reading': (o) => {
      expect(o.event.type).toBe('xstate.after.decisionPoll.kyc.awaitingDecision.waiting');
      expectWorking(o, 'readStatus');
      expect(o.snapshot.context.polls).toBe(o.before.context.polls + 1);
    },
    // The row's button: its label by status, and whether it starts or resumes a verification.
    idle: (o) => {
      const v = view(o);
      expect(v).toMatchObject({ awaiting: null, panel: 'none', label: kycLabel(o.snapshot.context.status) });
      if (o.snapshot.context.status === 'approved' || o.snapshot.context.status === 'review')
        expect(v.canStart).toBe(false);
      if (o.event.type === 'kyc.update') expect(o.snapshot.context.status).toBe(o.event.status);
      if (after(o, 'done', 'readStatus')) expect(o.snapshot.context.status).toBe('approved');
      // Out of reads: the button shows the status as last known.
      if (o.event.type.startsWith('xstate.after.decisionPoll'))
        expect(o.before.context.polls).toBe(MODEL_MAX_POLLS);
    },
    // An account without collectibles cannot be verified: the blocking modal says so.
    blocked: (o) => {
      expect(o.snapshot.context.ownsNfts).toBe(false);
      expect(view(o).panel).toBe('blocked');
    },
    // The legal name, checked with the shared rules before anything is sent.
    naming: (o) => {
      const v = view(o);
      expect(v.panel).toBe('name');
      expect(o.snapshot.context.ownsNfts).toBe(true);
      expect(['unknown', 'expired', 'abandoned']).toContain(o.snapshot.context.status);
      if (o.event.type === 'kyc.firstName.change')
        expect(v).toMatchObject({ firstName: o.event.value, error: null });
      if (o.event.type === 'kyc.firstName.change') expect(v.fieldErrors.firstName).toBeUndefined();
      if (o.event.type === 'kyc.lastName.change')
        expect(v).toMatchObject({ lastName: o.event.value, error: null });
      if (o.event.type === 'kyc.lastName.change') expect(v.fieldErrors.lastName).toBeUndefined();
      if (o.event.type === 'kyc.submit') {
        expect(o.snapshot.context.firstName.length < 3 || o.snapshot.context.lastName === '').toBe(true);
        expect(v.fieldErrors.firstName ?? v.fieldErrors.lastName).toBeTruthy();
      }
      if (after(o, 'error', 'createSession')) expect(v.error).toBeTruthy();
    },
    creating: (o) => {
      expect(o.event.type).toBe('kyc.submit');
      const { firstName, lastName } = o.snapshot.context;
      expectWorking(o, 'createSession', { firstName, lastName });
      expect(view(o)).toMatchObject({ panel: 'name', busy: true });
    },
    // Off to the provider: a new session's URL, or the open one resumed (never a new one).
    redirecting: (o) => {
      if (o.event.type === 'kyc.start') {
        expect(o.snapshot.context.status).toBe('created');
        expectNotCalled(o, 'createSession');
        expectOutput(o, { url: KYC_URL });
      } else {
        expect(o.event.type).toBe('xstate.done.actor.createSession');
        expectOutput(o, { url: KYC_URL });
      }
    },
  },
};
