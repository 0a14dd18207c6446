import { afterAll, describe, expect, it } from 'vitest';
import { acceptOfferModel } from './acceptOffer.model';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';

describe('acceptOffer machine paths', () => {
  const paths = generatePaths(acceptOfferModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(acceptOfferModel, path));
  afterAll(() => flushCoverage('machine'));
});
