import { afterAll, describe, expect, it } from 'vitest';
import { authModel } from './auth.model';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';

describe('auth machine paths', () => {
  const paths = generatePaths(authModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(20));
  for (const path of paths) it(path.description, () => runPath(authModel, path));
  afterAll(() => flushCoverage('machine'));
});
