import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot, EventObject } from 'xstate';
import { connectAuth } from '../machines/authView';
import { AuthScreen } from '../src/views/auth/AuthScreen';
import { authModel } from './auth.model';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';

/** The auth paths again, performed through the React view: typing, clicking, reading the screen. */
type Values = Record<string, string>;

function fill(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label, { selector: 'input' }), { target: { value } });
}
const click = (name: string) => clickFirst(name);

const performers: Record<string, (e: EventObject & Values) => void> = {
  'auth.connect.submit': (e) => {
    fill('Email', e.email!);
    click('Continue');
  },
  'auth.wallet.connect': () => click('Connect wallet'),
  'auth.walletEmail.submit': (e) => {
    fill('Email', e.email!);
    click('Continue');
  },
  'auth.signup.submit': (e) => {
    fill(/^Password$/, e.password!);
    fill('Confirm password', e.confirm!);
    click('Continue');
  },
  'auth.name.submit': (e) => {
    fill('First name', e.firstName!);
    fill('Last name (optional)', e.lastName!);
    click('Create account');
  },
  'auth.profile.submit': (e) => {
    fill('Username', e.username!);
    fill('First name', e.firstName!);
    fill('Last name', e.lastName!);
    click('Save profile');
  },
  'auth.profile.skip': () => click('Skip for now'),
  'auth.login.submit': (e) => {
    fill(/^Password$/, e.password!);
    click('Sign in');
  },
  'auth.forgot': () => clickFirst('Forgot password?', 'Request a new link'),
  'auth.forgot.submit': (e) => {
    fill('Email', e.email!);
    click('Send reset link');
  },
  'auth.reset.submit': (e) => {
    fill(/^New password$/, e.password!);
    fill('Confirm new password', e.confirm!);
    click('Change password');
  },
  'auth.back': () => clickFirst('Back', 'Back to sign in', 'Sign in'),
};

/** Every user event of the auth flow has a performer; one without fails its step. */
async function perform(step: PathStep) {
  const run = performers[step.event.type];
  if (!run) return false;
  run(step.event as EventObject & Values);
  return true;
}

/** The screen shows the view model's panel, its slide, and every field error and form error. */
function check(expected: AnyMachineSnapshot) {
  const view = connectAuth(expected as never, () => {});
  expect(document.querySelector<HTMLElement>('[data-panel]')?.dataset.panel).toBe(view.panel);
  const card = document.querySelector('.vt-auth__card')!;
  expect(card.classList.contains('vt-swipe-forward')).toBe(view.swipe === 'forward');
  expect(card.classList.contains('vt-swipe-back')).toBe(view.swipe === 'back');
  if (view.finished) {
    expect(screen.getByText('Signing you in…')).toBeTruthy();
    return;
  }
  const alerts = () => screen.queryAllByRole('alert').map((el) => el.textContent ?? '');
  for (const message of Object.values(view.fieldErrors)) expect(alerts()).toContain(message);
  if (view.error) expect(alerts()).toContain(view.error);
  const submit = document.querySelector('form button[type="submit"]');
  if (submit) expect(submit.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
}

describe('auth paths through the view', () => {
  const paths = coveringPaths(authModel);
  for (const path of paths) {
    it(path.description, () =>
      runPath(authModel, path, {
        mount: (actor: AnyActorRef) => {
          render(<AuthScreen actor={actor as never} />);
        },
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
