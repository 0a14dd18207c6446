import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectSettingsForm } from '../machines/settingsForm';
import { AccountSettingsView } from '../src/views/settings/AccountSettings';
import { SecuritySettingsView } from '../src/views/settings/SecuritySettings';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { makeUser } from './fixtures';
import { coveringPaths, type PathStep, runPath } from './harness';
import { settingsModel } from './settingsForm.model';

/** Settings paths through the Account and Security views. */
const labels: Record<string, string> = {
  email: 'Email',
  username: 'Username',
  firstName: 'First name',
  lastName: 'Last name',
  oldPassword: 'Current password',
  newPassword: 'New password',
  confirm: 'Confirm new password',
};

async function perform(step: PathStep) {
  const e = step.event as { type: string; values?: Record<string, string> };
  const password = !!screen.queryByRole('heading', { name: 'Password' });
  switch (e.type) {
    case 'settings.edit':
      return clickFirst(password ? 'Change password' : 'Edit');
    case 'settings.cancel':
      return clickFirst('Cancel');
    case 'settings.submit':
      for (const [field, value] of Object.entries(e.values!)) {
        fireEvent.change(screen.getByLabelText(labels[field]!, { selector: 'input' }), { target: { value } });
      }
      return clickFirst(password ? 'Save password' : 'Save');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const view = connectSettingsForm(expected as never, () => {});
  const editing = view.mode === 'editing';
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent ?? '');
  if (expected.context.kind === 'account') {
    expect(screen.getByLabelText('Email', { selector: 'input' }).closest('fieldset')!.disabled).toBe(
      !editing || view.busy,
    );
    expect(!!screen.queryByRole('button', { name: 'Edit' })).toBe(!editing);
    // In edit mode the fields hold the form's values (a restored draft), else the account's.
    const user = makeUser();
    for (const field of ['email', 'username', 'firstName', 'lastName'] as const) {
      const shown = (editing ? view.values[field] : undefined) ?? user[field] ?? '';
      expect(screen.getByLabelText<HTMLInputElement>(labels[field]!, { selector: 'input' }).value).toBe(
        shown,
      );
    }
  } else {
    expect(!!screen.queryByLabelText('New password', { selector: 'input' })).toBe(editing);
    expect(!!screen.queryByRole('button', { name: 'Change password' })).toBe(!editing);
  }
  // Each field's message, the one "fill in" message for empty required fields, the form's error.
  expect(alerts.sort()).toEqual(
    [...Object.values(view.fieldErrors), view.required, view.error]
      .filter((t): t is string => t !== null)
      .sort(),
  );
  const cancel = screen.queryByRole('button', { name: 'Cancel' }) as HTMLButtonElement | null;
  expect(!!cancel).toBe(editing);
  if (cancel) expect(cancel.disabled).toBe(!view.canCancel);
}

describe('settings paths through the views', () => {
  for (const path of coveringPaths(settingsModel)) {
    it(path.description, () =>
      runPath(settingsModel, path, {
        mount: (actor: AnyActorRef) => {
          const kind = path.scenario.input as { kind: string };
          render(
            kind.kind === 'account' ? (
              <AccountSettingsView actor={actor as never} user={makeUser()} />
            ) : (
              <SecuritySettingsView actor={actor as never} />
            ),
          );
        },
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
