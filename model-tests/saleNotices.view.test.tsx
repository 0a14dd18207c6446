import { act, fireEvent, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectSaleNotices } from '../machines/saleNotices';
import { NotificationsView } from '../src/views/dashboard/NotificationsPanel';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';
import { saleNoticesModel } from './saleNotices.model';

const emailSwitch = () =>
  screen.getByRole<HTMLInputElement>('checkbox', { name: 'Email me when one of my items sells' });
const favoriteSwitch = () =>
  screen.getByRole<HTMLInputElement>('checkbox', {
    name: 'Email me when an item I saved drops in price or goes on sale',
  });

/** Notification paths through the panel: "Mark all read", the email switch and "Try again". */
async function perform(step: PathStep) {
  switch (step.event.type) {
    case 'notices.read':
      return clickFirst('Mark all read');
    case 'notices.retry':
      return clickFirst('Try again');
    case 'notices.emails.toggle': {
      const control =
        (step.event as { list?: string }).list === 'favorite' ? favoriteSwitch() : emailSwitch();
      if (control.disabled) throw new Error('The email switch is disabled');
      fireEvent.click(control);
      return true;
    }
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const view = connectSaleNotices(expected as never, () => {});
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
    `Notifications${view.unread > 0 ? ` (${view.unread} new)` : ''}`,
  );
  expect(emailSwitch().checked).toBe(view.emailsOn);
  expect(emailSwitch().disabled).toBe(!view.canToggleEmails);
  expect(favoriteSwitch().checked).toBe(view.getFavoriteEmailsToggleProps().checked);
  expect(favoriteSwitch().disabled).toBe(!view.canToggleEmails);
  expect((screen.getByRole('button', { name: 'Mark all read' }) as HTMLButtonElement).disabled).toBe(
    !view.canMarkRead,
  );
  const items = screen.queryAllByRole('listitem').map((li) => li.textContent);
  expect(items).toEqual(view.rows.map((r) => `${r.text}${r.unread ? 'New' : ''}${r.detail}${r.when}`));
  expect(screen.queryAllByRole('alert').map((a) => a.textContent)).toEqual(view.error ? [view.error] : []);
  expect(!!screen.queryByRole('button', { name: 'Try again' })).toBe(view.canRetry);
}

describe('notification paths through the panel', () => {
  for (const path of coveringPaths(saleNoticesModel)) {
    it(path.description, () =>
      runPath(saleNoticesModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <NotificationsView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
