import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '#domain/errors';
import { UnsubscribeView } from '../src/views/account/UnsubscribePage';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';
import { saleEmailsOffModel } from './saleEmailsOff.model';

/**
 * Paths through the unsubscribe page. The user's only event is "Try again": a step that needs it
 * fails when the page shows no such button. Actor outcomes are the harness's to settle.
 */
async function perform(step: PathStep) {
  return step.event.type === 'saleEmailsOff.retry' ? clickFirst('Try again') : false;
}

function check(expected: AnyMachineSnapshot) {
  const heading = screen.getByRole('heading', { level: 1 }).textContent;
  const error = expected.context.error as { code: string } | null;
  if (expected.hasTag('busy')) {
    expect(heading).toBe('Turning off sale emails…');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Notifications' })).toBeNull();
    return;
  }
  expect(screen.getByRole('link', { name: 'Notifications' })).toBeTruthy();
  if (expected.status === 'done') {
    expect(heading).toBe('Sale emails are off');
    expect(screen.getByText(/We no longer email you when one of your items sells/)).toBeTruthy();
    return;
  }
  expect(heading).toBe('We could not turn off sale emails');
  expect(screen.getByRole('alert').textContent).toBe(errorMessage(error));
  const retry = screen.queryByRole('button', { name: 'Try again' });
  expect(!!retry).toBe(error?.code === 'NETWORK_FAILURE');
}

describe('saleEmailsOff paths through the page', () => {
  for (const path of coveringPaths(saleEmailsOffModel)) {
    it(path.description, () =>
      runPath(saleEmailsOffModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <UnsubscribeView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
