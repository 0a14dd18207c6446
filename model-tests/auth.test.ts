import { afterAll, describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { authMachine } from '../machines/auth';
import type { AuthMeta } from '../machines/authForms';
import { authEntryFrom } from '../machines/authView';
import { authModel } from './auth.model';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';

describe('auth machine paths', () => {
  const paths = generatePaths(authModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(20));
  for (const path of paths) it(path.description, () => runPath(authModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('auth panels', () => {
  /** Every state of the chart, with its path from the root. */
  const nodes = (node: AnyStateNode): AnyStateNode[] => [
    node,
    ...Object.values(node.states).flatMap((child) => nodes(child)),
  ];
  it('every state names the panel it shows, so its address cannot fall back silently', () => {
    for (const node of nodes(authMachine.root).slice(1))
      expect({ state: node.path.join('.'), panel: (node.meta as AuthMeta | undefined)?.panel }).toEqual({
        state: node.path.join('.'),
        panel: expect.any(String),
      });
  });
  it('an auth address starts the flow at its step', () => {
    expect(authEntryFrom('/auth/reset-password', { t: 'tok' })).toEqual({
      entry: 'reset',
      resetToken: 'tok',
    });
    expect(authEntryFrom('/auth/reset-password', {})).toEqual({ entry: 'reset', resetToken: null });
    expect(authEntryFrom('/auth/forgot-password', { email: 'ada@example.com' })).toEqual({
      entry: 'forgot',
      email: 'ada@example.com',
    });
    expect(authEntryFrom('/auth/signup', {})).toEqual({ entry: 'connect' });
  });
});
