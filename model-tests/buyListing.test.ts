import { afterAll, describe, expect, it } from 'vitest';
import { buyListingModel } from './buyListing.model';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';

describe('buyListing machine paths', () => {
  const paths = generatePaths(buyListingModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(buyListingModel, path));
  afterAll(() => flushCoverage('machine'));
});
