import { afterEach, describe, expect, it, vi } from 'vitest';
import { inspectorWanted } from '../../src/services/inspector';

const production = { DEV: false };
const development = { DEV: true };

describe('inspectorWanted', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('ignores ?inspect=1 in a production build without VITE_INSPECT', () => {
    expect(inspectorWanted('?inspect=1', production)).toBe(false);
    expect(inspectorWanted('?inspect=1', { ...production, VITE_INSPECT: '' })).toBe(false);
    expect(inspectorWanted('?inspect=1', { ...production, VITE_INSPECT: 'yes' })).toBe(false);
    expect(inspectorWanted('', production)).toBe(false);
  });

  it('honours ?inspect=1 in a development build', () => {
    expect(inspectorWanted('?inspect=1', development)).toBe(true);
    expect(inspectorWanted('?page=2&inspect=1', development)).toBe(true);
    expect(inspectorWanted('', development)).toBe(false);
    expect(inspectorWanted('?inspect=0', development)).toBe(false);
  });

  it('honours ?inspect=1 in a production build made with VITE_INSPECT=allow', () => {
    const allowed = { ...production, VITE_INSPECT: 'allow' };
    expect(inspectorWanted('?inspect=1', allowed)).toBe(true);
    expect(inspectorWanted('', allowed)).toBe(false);
    expect(inspectorWanted('?inspect=true', allowed)).toBe(false);
  });

  it('is always on in a build made with VITE_INSPECT=1', () => {
    expect(inspectorWanted('', { ...production, VITE_INSPECT: '1' })).toBe(true);
    expect(inspectorWanted('', { ...development, VITE_INSPECT: '1' })).toBe(true);
  });

  it("reads the build's settings from import.meta.env by default", () => {
    vi.stubEnv('DEV', false);
    vi.stubEnv('VITE_INSPECT', undefined);
    expect(inspectorWanted('?inspect=1')).toBe(false);
    vi.stubEnv('VITE_INSPECT', 'allow');
    expect(inspectorWanted('?inspect=1')).toBe(true);
    vi.stubEnv('DEV', true);
    vi.stubEnv('VITE_INSPECT', undefined);
    expect(inspectorWanted('?inspect=1')).toBe(true);
  });
});
