import { afterAll, describe, expect, it } from 'vitest';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { storefrontWizardModel } from './storefrontWizard.model';

describe('storefront wizard machine paths', () => {
  const paths = generatePaths(storefrontWizardModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(storefrontWizardModel, path));
  afterAll(() => flushCoverage('machine'));
});
