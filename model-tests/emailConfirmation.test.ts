import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { connectEmailConfirmation, emailConfirmationMachine } from '../machines/emailConfirmation';
import { flushCoverage } from './coverage-store';
import { CONFIRM_TOKEN, emailConfirmationModel, NEW_EMAIL } from './emailConfirmation.model';
import { generatePaths, runPath } from './harness';

describe('emailConfirmation machine paths', () => {
  const paths = generatePaths(emailConfirmationModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(3));
  for (const path of paths) it(path.description, () => runPath(emailConfirmationModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('emailConfirmation', () => {
  it('sends the token once, tells the session and outputs the new email', async () => {
    const sent: unknown[] = [];
    const announced: unknown[] = [];
    const actor = createActor(
      emailConfirmationMachine.provide({
        actors: {
          confirmEmail: fromPromise(async ({ input }) => {
            sent.push(input);
            return { email: NEW_EMAIL };
          }),
        },
        actions: { announceConfirmed: (_, params) => announced.push(params) },
      }),
      { input: { token: CONFIRM_TOKEN } },
    ).start();
    await waitFor(actor, (s) => s.status === 'done');
    expect(sent).toEqual([{ token: CONFIRM_TOKEN }]);
    expect(announced).toEqual([{ email: NEW_EMAIL }]);
    expect(actor.getSnapshot().output).toEqual({ email: NEW_EMAIL });
  });

  it('Try again (its prop getter) confirms once more after a lost connection', async () => {
    let calls = 0;
    const actor = createActor(
      emailConfirmationMachine.provide({
        actors: {
          confirmEmail: fromPromise(async (): Promise<{ email: string }> => {
            calls++;
            throw { status: 0, body: { code: 'NETWORK_FAILURE', message: '' } };
          }),
        },
      }),
      { input: { token: CONFIRM_TOKEN } },
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    const view = connectEmailConfirmation(actor.getSnapshot(), (event) => actor.send(event));
    expect(view.canRetry).toBe(true);
    const retry = view.getRetryButtonProps();
    expect(retry).toMatchObject({ type: 'button', disabled: false, 'data-state': 'idle' });
    retry.onClick!();
    await waitFor(actor, (s) => s.matches('failed') && !s.hasTag('busy'));
    expect(calls).toBe(2);
  });
});
