import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '#domain/errors';
import type { LinkActionContext } from '../machines/linkAction';
import { LinkActionView } from '../src/views/account/LinkActionPage';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { LINKS, linkActionModel, linkOf } from './linkAction.model';
import { renderWithRouter } from './router';

/**
 * Paths through the pages of emailed links (/confirm-email, /unsubscribe). The user's only event is
 * "Try again": a step that needs it fails when the page shows no such button. Actor outcomes are
 * the harness's to settle.
 */
async function perform(step: PathStep) {
  return step.event.type === 'link.retry' ? clickFirst('Try again') : false;
}

function check(expected: AnyMachineSnapshot) {
  const context = expected.context as LinkActionContext;
  const rules = LINKS[linkOf(context)];
  const heading = screen.getByRole('heading', { level: 1 }).textContent;
  if (expected.hasTag('busy')) {
    expect(heading).toBe(rules.working);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByRole('link', { name: rules.next })).toBeNull();
    return;
  }
  expect(screen.getByRole('link', { name: rules.next })).toBeTruthy();
  if (expected.status === 'done') {
    expect(heading).toBe(rules.done);
    expect(screen.getByText(rules.doneText)).toBeTruthy();
    return;
  }
  expect(heading).toBe(rules.failed);
  expect(screen.getByRole('alert').textContent).toBe(errorMessage(context.error));
  const retry = screen.queryByRole('button', { name: 'Try again' });
  expect(!!retry).toBe(context.error?.code === 'NETWORK_FAILURE');
}

describe('emailed links’ paths through their page', () => {
  for (const path of coveringPaths(linkActionModel)) {
    it(path.description, () =>
      runPath(linkActionModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <LinkActionView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
