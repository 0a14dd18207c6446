import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { SESSION_EXPIRED_TEXT } from '#domain/apiError';
import {
  connectSettingsForm,
  type SaveResult,
  settingsDraftKey,
  settingsFormMachine,
} from '../machines/settingsForm';
import { flushCoverage } from './coverage-store';
import { makeUser } from './fixtures';
import { generatePaths, runPath } from './harness';
import { account, restoredDraft, settingsModel } from './settingsForm.model';

describe('settings form machine paths', () => {
  const paths = generatePaths(settingsModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
  for (const path of paths) it(path.description, () => runPath(settingsModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('a save the session’s end interrupts', () => {
  /** The account form with a tab storage of its own and a save that answers `answer`. */
  function form(answer: () => Promise<SaveResult>, draft: Record<string, unknown> | null = null) {
    const kept = new Map<string, Record<string, string>>();
    const actor = createActor(
      settingsFormMachine.provide({
        actors: { save: fromPromise(answer) },
        actions: {
          stashDraft: (_, { key, values }) => void kept.set(key, values),
          forgetDraft: (_, { key }) => void kept.delete(key),
        },
      }),
      { input: { kind: 'account', draft } },
    ).start();
    return { actor, kept, view: () => connectSettingsForm(actor.getSnapshot(), actor.send) };
  }
  const expired = { status: 401, body: { code: 'UNAUTHORIZED', message: SESSION_EXPIRED_TEXT } };

  it('keeps the edited values (never the password) when the server answers 401', async () => {
    const { actor, kept, view } = form(() => Promise.reject(expired));
    actor.send({ type: 'settings.edit' });
    actor.send({ type: 'settings.submit', values: { ...account, firstName: 'Augusta', oldPassword: 'pw' } });
    await waitFor(actor, (s) => !s.hasTag('busy'));
    expect(kept.get(settingsDraftKey('account'))).toEqual({ ...restoredDraft, lastName: 'Lovelace' });
    // The page leaves for sign-in: no "Invalid email or password" on the form meanwhile.
    expect(view()).toMatchObject({ mode: 'editing', error: null });
  });

  it('opens in edit mode with a kept draft, and forgets it once saved', async () => {
    const { actor, kept, view } = form(
      async () => ({ user: makeUser({ firstName: 'Augusta' }) }),
      restoredDraft,
    );
    kept.set(settingsDraftKey('account'), restoredDraft);
    expect(view()).toMatchObject({ mode: 'editing', values: restoredDraft });
    actor.send({ type: 'settings.submit', values: { ...restoredDraft, oldPassword: '' } });
    await waitFor(actor, (s) => s.matches('viewing'));
    expect(kept.size).toBe(0);
  });

  it('forgets the draft on Cancel and on any other refusal', async () => {
    const refused = form(() =>
      Promise.reject({ status: 400, body: { code: 'USERNAME_EXISTS', field: 'username', message: '' } }),
    );
    refused.actor.send({ type: 'settings.edit' });
    refused.actor.send({ type: 'settings.submit', values: account });
    await waitFor(refused.actor, (s) => !s.hasTag('busy'));
    expect(refused.kept.size).toBe(0);
    const canceled = form(() => new Promise(() => {}), restoredDraft);
    canceled.kept.set(settingsDraftKey('account'), restoredDraft);
    canceled.actor.send({ type: 'settings.cancel' });
    expect(canceled.kept.size).toBe(0);
    expect(canceled.view().mode).toBe('viewing');
  });
});
