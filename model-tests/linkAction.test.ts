import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { connectLinkAction, type LinkResult, linkActionMachine } from '../machines/linkAction';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import {
  CONFIRM_TOKEN,
  FAVORITES_OFF_TOKEN,
  linkActionModel,
  NEW_EMAIL,
  OFF_TOKEN,
  USER_ID,
} from './linkAction.model';

describe('linkAction machine paths', () => {
  const paths = generatePaths(linkActionModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(7));
  for (const path of paths) it(path.description, () => runPath(linkActionModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('an emailed link’s action', () => {
  it.each([
    ['confirmEmail', CONFIRM_TOKEN, { email: NEW_EMAIL }],
    ['saleEmailsOff', OFF_TOKEN, { userId: USER_ID, saleEmails: false }],
    ['saleEmailsOff', FAVORITES_OFF_TOKEN, { userId: USER_ID, favoriteEmails: false }],
  ] as const)(
    '%s sends the token once, tells the session and outputs the answer',
    async (action, token, answer) => {
      const sent: unknown[] = [];
      const announced: unknown[] = [];
      const actor = createActor(
        linkActionMachine.provide({
          actors: {
            apply: fromPromise(async ({ input }) => {
              sent.push(input);
              return answer;
            }),
          },
          actions: { announce: (_, params) => announced.push(params) },
        }),
        { input: { action, token } },
      ).start();
      await waitFor(actor, (s) => s.status === 'done');
      expect(sent).toEqual([{ token }]);
      expect(announced).toEqual([answer]);
      expect(actor.getSnapshot().output).toEqual(answer);
    },
  );

  it('a favorite email’s link says favorite emails are off', async () => {
    const actor = createActor(
      linkActionMachine.provide({
        actors: {
          apply: fromPromise(async (): Promise<LinkResult> => ({ userId: USER_ID, favoriteEmails: false })),
        },
      }),
      { input: { action: 'saleEmailsOff', token: FAVORITES_OFF_TOKEN } },
    ).start();
    await waitFor(actor, (s) => s.status === 'done');
    expect(connectLinkAction(actor.getSnapshot(), () => {}).title).toBe('Favorite emails are off');
  });

  it('Try again (its prop getter) sends the token once more after a lost connection', async () => {
    let calls = 0;
    const actor = createActor(
      linkActionMachine.provide({
        actors: {
          apply: fromPromise(async (): Promise<LinkResult> => {
            calls++;
            throw { status: 0, body: { code: 'NETWORK_FAILURE', message: '' } };
          }),
        },
      }),
      { input: { action: 'saleEmailsOff', token: OFF_TOKEN } },
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    const view = connectLinkAction(actor.getSnapshot(), (event) => actor.send(event));
    expect(view.canRetry).toBe(true);
    const retry = view.getRetryButtonProps();
    expect(retry).toMatchObject({ type: 'button', disabled: false, 'data-state': 'idle' });
    retry.onClick!();
    await waitFor(actor, (s) => s.matches('failed') && !s.hasTag('busy'));
    expect(calls).toBe(2);
  });
});
