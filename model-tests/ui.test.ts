import { afterAll, describe, expect, it } from 'vitest';
import { connectUi, uiMachine } from '../machines/ui';
import { flushCoverage } from './coverage-store';
import { generatePaths, recordMicrosteps, runPath } from './harness';
import { toastModel } from './toast.model';
import { uiModel } from './ui.model';

describe('ui machine paths', () => {
  const paths = generatePaths(uiModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(10));
  for (const path of paths) it(path.description, () => runPath(uiModel, path));
});

describe('toast machine paths', () => {
  const paths = generatePaths(toastModel);
  for (const path of paths) it(path.description, () => runPath(toastModel, path));
});

describe('the sign-in prompt', () => {
  it('remembers where signing in leads back to, when the action names it', async () => {
    const { createActor } = await import('xstate');
    const ui = createActor(uiMachine, { input: {} }).start();
    const view = () => connectUi(ui.getSnapshot(), ui.send);
    ui.send({ type: 'ui.signup.show', returnTo: '/nft/7?buy=now' });
    expect(view()).toMatchObject({ showSignup: true, signInReturn: '/nft/7?buy=now' });
    ui.send({ type: 'ui.signup.hide' });
    ui.send({ type: 'ui.signup.show' });
    expect(view()).toMatchObject({ showSignup: true, signInReturn: null });
  });
});

describe('toasts inside the ui machine', () => {
  it('removes a timed toast after its duration and deduplicates by id', async () => {
    const { createActor, SimulatedClock } = await import('xstate');
    const clock = new SimulatedClock();
    const ui = createActor(uiMachine, { input: {}, clock, inspect: recordMicrosteps }).start();
    ui.send({ type: 'ui.toast.show', id: 'copied', text: 'Link copied', duration: 3500 });
    ui.send({ type: 'ui.toast.show', id: 'copied', text: 'Link copied', duration: 3500 });
    expect(ui.getSnapshot().context.toasts.map((t) => t.id)).toEqual(['copied']);
    clock.increment(3499);
    expect(ui.getSnapshot().context.toasts).toHaveLength(1);
    clock.increment(1);
    expect(ui.getSnapshot().context.toasts).toHaveLength(0);
  });
});

afterAll(() => flushCoverage('machine'));
