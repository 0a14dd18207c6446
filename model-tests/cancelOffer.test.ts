import { afterAll, describe, expect, it } from 'vitest';
import { cancelOfferModel } from './cancelOffer.model';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';

describe('cancelOffer machine paths', () => {
  const paths = generatePaths(cancelOfferModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(cancelOfferModel, path));
  afterAll(() => flushCoverage('machine'));
});
