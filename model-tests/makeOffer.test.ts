import { afterAll, describe, expect, it } from 'vitest';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { makeOfferModel } from './makeOffer.model';

describe('makeOffer machine paths', () => {
  const paths = generatePaths(makeOfferModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(makeOfferModel, path));
  afterAll(() => flushCoverage('machine'));
});
