import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { connectFusdBalance, fusdBalanceMachine } from '../machines/fusdBalance';
import { flushCoverage } from './coverage-store';
import { fusdBalanceModel, WALLET } from './fusdBalance.model';
import { generatePaths, runPath } from './harness';

describe('FUSD balance machine paths', () => {
  const paths = generatePaths(fusdBalanceModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(3));
  for (const path of paths) it(path.description, () => runPath(fusdBalanceModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('the FUSD balance', () => {
  it('reads the wallet’s balance, keeps it shown while Refresh reads it again, and says why a read failed', async () => {
    const answers: Array<number | Error> = [2500, 4000, new Error('unreachable')];
    const addresses: string[] = [];
    const actor = createActor(
      fusdBalanceMachine.provide({
        actors: {
          readBalance: fromPromise(async ({ input }: { input: { address: string } }) => {
            addresses.push(input.address);
            const answer = answers.shift()!;
            if (answer instanceof Error) throw { status: 0, body: { code: 'NETWORK_FAILURE', message: '' } };
            return answer;
          }),
        },
      }),
      { input: { address: WALLET } },
    ).start();
    const view = () => connectFusdBalance(actor.getSnapshot(), actor.send);
    expect(view()).toMatchObject({ label: 'FUSD balance', value: 'Reading…', busy: true, canRefresh: false });
    await waitFor(actor, (s) => s.matches('shown'));
    expect(view()).toMatchObject({ value: '$25 FUSD', busy: false, canRefresh: true, error: null });
    view().refresh();
    expect(view()).toMatchObject({ value: '$25 FUSD', busy: true });
    await waitFor(actor, (s) => s.matches('shown'));
    expect(view().value).toBe('$40 FUSD');
    view().refresh();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(view()).toMatchObject({ value: '$40 FUSD', canRefresh: true });
    expect(view().error).toMatch(/connection/i);
    expect(addresses).toEqual([WALLET, WALLET, WALLET]);
  });
});
