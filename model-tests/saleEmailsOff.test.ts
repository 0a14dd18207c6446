import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { EmailsOff } from '#domain/ports/accounts';
import { connectSaleEmailsOff, saleEmailsOffMachine } from '../machines/saleEmailsOff';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { OFF_TOKEN, saleEmailsOffModel, USER_ID } from './saleEmailsOff.model';

describe('saleEmailsOff machine paths', () => {
  const paths = generatePaths(saleEmailsOffModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(3));
  for (const path of paths) it(path.description, () => runPath(saleEmailsOffModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('saleEmailsOff', () => {
  it('sends the token once and tells the session whose sale emails are off', async () => {
    const sent: unknown[] = [];
    const announced: unknown[] = [];
    const actor = createActor(
      saleEmailsOffMachine.provide({
        actors: {
          turnOff: fromPromise(async ({ input }) => {
            sent.push(input);
            return { userId: USER_ID, saleEmails: false as const };
          }),
        },
        actions: { announceOff: (_, params) => announced.push(params) },
      }),
      { input: { token: OFF_TOKEN } },
    ).start();
    await waitFor(actor, (s) => s.status === 'done');
    expect(sent).toEqual([{ token: OFF_TOKEN }]);
    expect(announced).toEqual([{ userId: USER_ID, saleEmails: false }]);
  });

  it('a favorites link turns favorite emails off and says so', async () => {
    const announced: unknown[] = [];
    const actor = createActor(
      saleEmailsOffMachine.provide({
        actors: {
          turnOff: fromPromise(async (): Promise<EmailsOff> => ({ userId: USER_ID, favoriteEmails: false })),
        },
        actions: { announceOff: (_, params) => announced.push(params) },
      }),
      { input: { token: `favorites.${OFF_TOKEN}` } },
    ).start();
    await waitFor(actor, (s) => s.status === 'done');
    expect(announced).toEqual([{ userId: USER_ID, favoriteEmails: false }]);
    expect(connectSaleEmailsOff(actor.getSnapshot(), () => {}).title).toBe('Favorite emails are off');
  });

  it('Try again (its prop getter) turns them off once more after a lost connection', async () => {
    let calls = 0;
    const actor = createActor(
      saleEmailsOffMachine.provide({
        actors: {
          turnOff: fromPromise(async (): Promise<EmailsOff> => {
            calls++;
            throw { status: 0, body: { code: 'NETWORK_FAILURE', message: '' } };
          }),
        },
      }),
      { input: { token: OFF_TOKEN } },
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    const view = connectSaleEmailsOff(actor.getSnapshot(), (event) => actor.send(event));
    expect(view.canRetry).toBe(true);
    const retry = view.getRetryButtonProps();
    expect(retry).toMatchObject({ type: 'button', disabled: false, 'data-state': 'idle' });
    retry.onClick!();
    await waitFor(actor, (s) => s.matches('failed') && !s.hasTag('busy'));
    expect(calls).toBe(2);
  });
});
