import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '#domain/errors';
import { ConfirmEmailView } from '../src/views/account/ConfirmEmailPage';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { emailConfirmationModel, NEW_EMAIL } from './emailConfirmation.model';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';

/**
 * Confirmation paths through the page. The user's only event is "Try again": a step that needs it
 * fails when the page shows no such button. Actor outcomes are the harness's to settle.
 */
async function perform(step: PathStep) {
  return step.event.type === 'confirmation.retry' ? clickFirst('Try again') : false;
}

function check(expected: AnyMachineSnapshot) {
  const heading = screen.getByRole('heading', { level: 1 }).textContent;
  const error = expected.context.error as { code: string } | null;
  if (expected.hasTag('busy')) {
    expect(heading).toBe('Confirming your email…');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    return;
  }
  if (expected.status === 'done') {
    expect(heading).toBe('Email confirmed');
    expect(screen.getByText(new RegExp(`${NEW_EMAIL} is now the email`))).toBeTruthy();
    return;
  }
  expect(heading).toBe('We could not confirm your email');
  expect(screen.getByRole('alert').textContent).toBe(errorMessage(error));
  const retry = screen.queryByRole('button', { name: 'Try again' });
  expect(!!retry).toBe(error?.code === 'NETWORK_FAILURE');
  expect(screen.getByRole('link', { name: 'Account settings' })).toBeTruthy();
}

describe('emailConfirmation paths through the page', () => {
  for (const path of coveringPaths(emailConfirmationModel)) {
    it(path.description, () =>
      runPath(emailConfirmationModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <ConfirmEmailView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
