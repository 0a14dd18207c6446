import { afterAll, describe, expect, it } from 'vitest';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { removeListingModel } from './removeListing.model';

describe('removeListing machine paths', () => {
  const paths = generatePaths(removeListingModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(removeListingModel, path));
  afterAll(() => flushCoverage('machine'));
});
