import { afterAll, describe, expect, it } from 'vitest';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { listForSaleModel } from './listForSale.model';

describe('listForSale machine paths', () => {
  const paths = generatePaths(listForSaleModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(listForSaleModel, path));
  afterAll(() => flushCoverage('machine'));
});
