import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { storefrontReportMachine } from '../machines/storefrontReport';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { REPORT_STOREFRONT_ID, storefrontReportModel } from './storefrontReport.model';

describe('storefrontReport machine paths', () => {
  const paths = generatePaths(storefrontReportModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(storefrontReportModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('storefrontReport request body', () => {
  it('sends the body the server schema parses: the description trimmed', async () => {
    const calls: unknown[] = [];
    const actor = createActor(
      storefrontReportMachine.provide({
        actors: {
          submitReport: fromPromise(async ({ input }) => {
            calls.push(input);
          }),
        },
      }),
      { input: { storefrontId: REPORT_STOREFRONT_ID } },
    ).start();
    actor.send({ type: 'report.reason.change', value: 'misleading' });
    actor.send({ type: 'report.description.change', value: `  ${'y'.repeat(200)}  ` });
    actor.send({ type: 'report.submit' });
    await waitFor(actor, (s) => s.matches('submitted'));
    expect(calls).toEqual([
      { storefrontId: REPORT_STOREFRONT_ID, reason: 'misleading', description: 'y'.repeat(200) },
    ]);
  });
});
