import { afterAll, describe, expect, it } from 'vitest';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { walletLinkModel } from './walletLink.model';

describe('wallet link machine paths', () => {
  const paths = generatePaths(walletLinkModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(2));
  for (const path of paths) it(path.description, () => runPath(walletLinkModel, path));
  afterAll(() => flushCoverage('machine'));
});
