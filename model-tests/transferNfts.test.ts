import { afterAll, describe, expect, it } from 'vitest';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { transferNftsModel } from './transferNfts.model';

describe('transferNfts machine paths', () => {
  const paths = generatePaths(transferNftsModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(transferNftsModel, path));
  afterAll(() => flushCoverage('machine'));
});
