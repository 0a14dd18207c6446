import { afterAll, describe, expect, it } from 'vitest';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { settingsModel } from './settingsForm.model';

describe('settings form machine paths', () => {
  const paths = generatePaths(settingsModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
  for (const path of paths) it(path.description, () => runPath(settingsModel, path));
  afterAll(() => flushCoverage('machine'));
});
