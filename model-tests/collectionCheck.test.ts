import { afterAll, describe, expect, it } from 'vitest';
import { collectionCheckModel } from './collectionCheck.model';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';

describe('collection check machine paths', () => {
  const paths = generatePaths(collectionCheckModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(3));
  for (const path of paths) it(path.description, () => runPath(collectionCheckModel, path));
  afterAll(() => flushCoverage('machine'));
});
