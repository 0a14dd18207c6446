import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { connectSettingsForm, settingsFormMachine } from '../machines/settingsForm';
import { after, expectWorking } from './expect';
import { fakeToken, makeUser } from './fixtures';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof settingsFormMachine>;
const view = (o: O) => connectSettingsForm(o.snapshot, () => {});

export const account = {
  email: 'ada@example.com',
  username: 'ada-l',
  firstName: 'Ada',
  lastName: 'Lovelace',
  oldPassword: '',
};
/** The account values a tab kept of an interrupted save (never a password). */
export const restoredDraft = {
  email: 'ada@example.com',
  username: 'ada-l',
  firstName: 'Augusta',
  lastName: 'King',
};
export const password = { oldPassword: 'old-password', newPassword: 'new-password', confirm: 'new-password' };

export const settingsModel: MachineModel<typeof settingsFormMachine> = {
  machine: settingsFormMachine,
  fakes: ['save'],
  scenarios: [
    { name: 'account', input: { kind: 'account' } },
    { name: 'password', input: { kind: 'password' } },
    // A save the session's end interrupted: the tab kept its values (and a stray password it drops).
    {
      name: 'account with a kept draft',
      input: { kind: 'account', draft: { ...restoredDraft, oldPassword: 'secret', extra: 1 } },
    },
  ],
  events: (s) => [
    { type: 'settings.edit' },
    { type: 'settings.cancel' },
    { type: 'settings.submit', values: s.context.kind === 'account' ? account : password },
    {
      type: 'settings.submit',
      values: s.context.kind === 'account' ? { ...account, username: 'a' } : { ...password, confirm: 'nope' },
    },
    {
      type: 'settings.submit',
      values:
        s.context.kind === 'account'
          ? { ...account, firstName: '' }
          : { ...password, newPassword: 'old-password', confirm: 'old-password' },
    },
    { type: 'xstate.done.actor.save', output: { user: makeUser(), authToken: fakeToken({ userId: 'u1' }) } },
    {
      type: 'xstate.error.actor.save',
      error: {
        status: 400,
        body: { code: 'USERNAME_EXISTS', field: 'username', message: 'This username is taken.' },
      },
    },
    { type: 'xstate.error.actor.save', error: { code: 'NETWORK_FAILURE' } },
    {
      type: 'xstate.error.actor.save',
      error: {
        status: 401,
        body: { code: 'UNAUTHORIZED', message: 'Your session has expired. Please log in again.' },
      },
    },
  ],
  serializeState: (s: AnyMachineSnapshot) =>
    JSON.stringify([
      s.value,
      s.context.kind,
      s.context.values,
      Object.keys(s.context.errors),
      s.context.error?.code ?? null,
    ]),
  expect: {
    // Read-only with Edit; nothing typed is kept (a tab's draft opens the form instead).
    viewing: (o) => {
      expect(view(o)).toMatchObject({ mode: 'viewing', canEdit: true, busy: false });
      expect(view(o).values).toEqual({});
      expect(view(o).fieldErrors).toEqual({});
      if (after(o, 'done', 'save')) expect(o.before.value).toBe('saving');
    },
    editing: (o) => {
      const v = view(o);
      expect(v).toMatchObject({ mode: 'editing', canEdit: false, canCancel: true, busy: false });
      // A kept draft reopens the form with its account values, never a password.
      if (o.event.type === 'xstate.init') expect(v.values).toEqual(restoredDraft);
      if (o.event.type === 'settings.edit') {
        expect(v.values).toEqual({});
        expect(v.fieldErrors).toEqual({});
        expect(v.error).toBeNull();
      }
      // An invalid form stays, with what was typed and its errors.
      if (o.event.type === 'settings.submit') {
        expect(v.values).toEqual(o.event.values);
        expect(Object.keys(v.fieldErrors).length > 0 || v.required !== null).toBe(true);
      }
      if (after(o, 'error', 'save')) {
        const submitted = o.history.filter((e) => e.type === 'settings.submit').at(-1)!;
        expect(v.values).toEqual(submitted.values);
        const body = (o.event.error as { body?: { code: string; message: string } }).body;
        // A refusal naming a field of this form shows under it; any other as the form's error.
        if (body?.code === 'USERNAME_EXISTS' && o.snapshot.context.kind === 'account')
          expect(v.fieldErrors).toEqual({ username: 'This username is taken.' });
        else if (body?.code === 'UNAUTHORIZED') expect(v.error).toBeNull();
        else expect(v.error).toBeTruthy();
      }
    },
    // A valid form is sent as typed, without the confirmation field.
    saving: (o) => {
      expect(o.event.type).toBe('settings.submit');
      const sent = { ...(o.event.values as Record<string, string>) };
      delete sent.confirm;
      expectWorking(o, 'save');
      const input = o.calls.at(-1)!.input as { kind: string; values: Record<string, string> };
      expect(input.kind).toBe(o.snapshot.context.kind);
      expect(input.values).toMatchObject(
        Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== '')),
      );
      expect(input.values).not.toHaveProperty('confirm');
      expect(view(o).busy).toBe(true);
    },
  },
};
