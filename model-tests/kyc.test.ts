import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '#domain/errors';
import type { KycSession, KycSessionInput } from '#domain/schemas/kyc';
import { connectKyc, kycMachine } from '../machines/kyc';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { KYC_URL, kycModel } from './kyc.model';

describe('kyc machine paths', () => {
  const paths = generatePaths(kycModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(10));
  for (const path of paths) it(path.description, () => runPath(kycModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('kyc', () => {
  const input = {
    status: 'unknown',
    url: null,
    ownsNfts: true,
    firstName: 'Grace',
    lastName: 'Hopper',
  } as const;

  it('asks for the name, opens a session with the trimmed name and sends the browser to its URL', async () => {
    const asked: unknown[] = [];
    const opened: string[] = [];
    const actor = createActor(
      kycMachine.provide({
        actors: {
          createSession: fromPromise(async ({ input }) => {
            asked.push(input);
            return { url: KYC_URL };
          }),
        },
        actions: { openVerification: (_, { url }) => opened.push(url) },
      }),
      { input },
    ).start();
    // Through the row's and the modal's controls, as KycRow does.
    const view = () => connectKyc(actor.getSnapshot(), (event) => actor.send(event));
    expect(view()).toMatchObject({ label: 'Begin KYC', canStart: true, panel: 'none' });
    expect(view().getStartButtonProps()).toMatchObject({ disabled: false, 'data-state': 'idle' });
    view().getStartButtonProps().onClick!();
    expect(view().panel).toBe('name');
    view().setLastName('  Hopper ');
    let prevented = false;
    view()
      .getFormProps()
      .onSubmit({ preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    await waitFor(actor, (s) => s.status === 'done');
    expect(asked).toEqual([{ firstName: 'Grace', lastName: 'Hopper' }]);
    expect(opened).toEqual([KYC_URL]);
    expect(actor.getSnapshot().output).toEqual({ url: KYC_URL });
  });

  it('shows the field errors of the shared rules and the provider’s errors in the name modal', async () => {
    const actor = createActor(
      kycMachine.provide({
        actors: {
          createSession: fromPromise<KycSession, KycSessionInput>(async () => {
            throw new ApiError(502, { code: 'VERIFF_UNREACHABLE', message: '' });
          }),
        },
      }),
      { input },
    ).start();
    actor.send({ type: 'kyc.start' });
    actor.send({ type: 'kyc.firstName.change', value: 'Al' });
    actor.send({ type: 'kyc.lastName.change', value: '' });
    actor.send({ type: 'kyc.submit' });
    expect(connectKyc(actor.getSnapshot(), () => {}).fieldErrors).toEqual({
      firstName: 'First name must be 3–100 characters.',
      lastName: 'Please enter a last name',
    });
    actor.send({ type: 'kyc.firstName.change', value: 'Grace' });
    actor.send({ type: 'kyc.lastName.change', value: 'Hopper' });
    actor.send({ type: 'kyc.submit' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(connectKyc(actor.getSnapshot(), () => {}).error).toMatch(/^Unable to reach Veriff/);
  });

  it('labels every status and offers the button only where it does something', () => {
    const expected = {
      created: ['Continue KYC', true],
      approved: ['Verified', false],
      resubmission_requested: ['Unverified, Retry KYC', true],
      declined: ['Rejected', false],
      review: ['Pending', false],
      expired: ['Restart KYC', true],
      abandoned: ['Canceled, Restart KYC', true],
      unknown: ['Begin KYC', true],
    } as const;
    for (const [status, [label, canStart]] of Object.entries(expected)) {
      const actor = createActor(kycMachine, {
        input: { ...input, status: status as never, url: KYC_URL },
      }).start();
      expect([
        status,
        connectKyc(actor.getSnapshot(), () => {}).label,
        connectKyc(actor.getSnapshot(), () => {}).canStart,
      ]).toEqual([status, label, canStart]);
    }
  });

  it('Cancel (its props) closes the name modal', () => {
    const actor = createActor(kycMachine, { input }).start();
    const view = () => connectKyc(actor.getSnapshot(), (event) => actor.send(event));
    view().getStartButtonProps().onClick!();
    expect(view().getCloseButtonProps()).toMatchObject({ disabled: false, 'data-state': 'idle' });
    view().getCloseButtonProps().onClick!();
    expect(view().panel).toBe('none');
  });
});
