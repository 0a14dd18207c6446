import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ledgerExportMachine } from '../machines/ledgerExport';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { LEDGER_STOREFRONT_ID, ledgerExportModel } from './ledgerExport.model';

describe('ledgerExport machine paths', () => {
  const paths = generatePaths(ledgerExportModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(ledgerExportModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('ledger export', () => {
  it('exports the storefront’s ledger and says so', async () => {
    const calls: unknown[] = [];
    let announced = 0;
    const actor = createActor(
      ledgerExportMachine.provide({
        actors: { exportLedger: fromPromise(async ({ input }) => calls.push(input)) },
        actions: { announceExported: () => announced++ },
      }),
      { input: { storefrontId: LEDGER_STOREFRONT_ID } },
    ).start();
    actor.send({ type: 'ledger.export' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(calls).toEqual([{ storefrontId: LEDGER_STOREFRONT_ID }]);
    expect(announced).toBe(1);
  });
});
