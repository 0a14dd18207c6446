import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage, errorTexts } from '#domain/errors';
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
  const editing = !expected.matches('viewing');
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent ?? '');
  if (expected.context.kind === 'account') {
    expect(screen.getByLabelText('Email', { selector: 'input' }).closest('fieldset')!.disabled).toBe(
      !editing || expected.hasTag('busy'),
    );
    // Errors show for non-empty fields; empty required ones as one "fill in" message.
    for (const [field, err] of Object.entries(
      expected.context.errors as Record<string, { message: string }>,
    )) {
      const value = (expected.context.values as Record<string, string>)[field] ?? '';
      expect(alerts).toContain(value.trim() ? err.message : errorTexts['errors.required']);
    }
  } else {
    expect(!!screen.queryByLabelText('New password', { selector: 'input' })).toBe(editing);
    for (const err of Object.values(expected.context.errors as Record<string, { message: string }>)) {
      expect(alerts).toContain(err.message);
    }
  }
  if (expected.context.error) expect(alerts).toContain(errorMessage(expected.context.error));
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
