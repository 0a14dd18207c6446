import { act, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectKyc } from '../machines/kyc';
import { KycRowView } from '../src/views/settings/KycRow';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst, typeInto } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { kycModel } from './kyc.model';
import { renderWithRouter } from './router';

const row = () => screen.getByRole('heading', { name: 'Identity verification' }).closest('section')!;
const kycButton = () => within(row()).getAllByRole('button')[0]!;
const dialog = () => screen.queryByRole('dialog');

/**
 * KYC paths through the Account row and its modals: the row's button, the name fields, "Continue to
 * Veriff", and Cancel or Close. A step whose control is missing or disabled fails.
 */
async function perform(step: PathStep) {
  const e = step.event as { type: string; value?: string };
  switch (e.type) {
    case 'kyc.start':
      return clickControl(kycButton(), 'The KYC button');
    case 'kyc.close':
      return clickFirst('Cancel', 'Close');
    case 'kyc.firstName.change':
      return typeInto(screen.queryByLabelText<HTMLInputElement>('First name'), e.value!, 'First name');
    case 'kyc.lastName.change':
      return typeInto(screen.queryByLabelText<HTMLInputElement>('Last name'), e.value!, 'Last name');
    case 'kyc.submit':
      return clickFirst('Continue to Veriff');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const view = connectKyc(expected as never, () => {});
  expect(kycButton().textContent).toBe(view.label);
  expect(within(row()).queryByRole('status')?.textContent ?? null).toBe(view.awaiting);
  expect((kycButton() as HTMLButtonElement).disabled).toBe(!view.canStart || view.panel === 'redirecting');
  const open = dialog();
  switch (view.panel) {
    case 'blocked':
      expect(within(open!).getByRole('heading').textContent).toBe('Collect first');
      expect(open!.textContent).toContain('Collect an NFT first');
      expect(within(open!).getByRole('link', { name: 'Explore the marketplace' }).getAttribute('href')).toBe(
        '/marketplace',
      );
      return;
    case 'name': {
      expect(within(open!).getByRole('heading').textContent).toBe('Verify your identity');
      const first = screen.getByLabelText<HTMLInputElement>('First name');
      const last = screen.getByLabelText<HTMLInputElement>('Last name');
      expect([first.value, last.value]).toEqual([view.firstName, view.lastName]);
      const alerts = within(open!)
        .queryAllByRole('alert')
        .map((a) => a.textContent);
      expect(alerts).toEqual(
        [view.fieldErrors.firstName, view.fieldErrors.lastName, view.error].filter(
          (t) => t !== undefined && t !== null,
        ),
      );
      expect(screen.getByRole('button', { name: 'Continue to Veriff' }).getAttribute('aria-busy')).toBe(
        view.busy ? 'true' : null,
      );
      return;
    }
    default:
      expect(open).toBeNull();
  }
}

describe('kyc paths through the Account row', () => {
  for (const path of coveringPaths(kycModel)) {
    it(path.description, () =>
      runPath(kycModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <KycRowView actor={actor as never} />),
        perform,
        viewless: [
          {
            event: 'kyc.update',
            reason:
              'KycRow sends it when the signed-in account changes (a fresh profile); no control raises it',
          },
        ],
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
