import { afterAll, describe, expect, it } from 'vitest';
import { collectionSelectionModel } from './collectionSelection.model';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';

describe('collectionSelection machine paths', () => {
  const paths = generatePaths(collectionSelectionModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(collectionSelectionModel, path));
  afterAll(() => flushCoverage('machine'));
});
