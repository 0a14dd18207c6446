import { act, fireEvent, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { categoryLabels } from '#domain/catalog';
import { connectStorefrontWizard } from '../machines/storefrontWizard';
import { StorefrontWizardView } from '../src/views/storefront/StorefrontWizard';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst, typeInto } from './dom';
import { coveringPaths, type PathStep, runPath, unusedViewless, type ViewlessEvent } from './harness';
import { renderWithRouter } from './router';
import { storefrontWizardModel } from './storefrontWizard.model';

/** Wizard paths through its screens: typing, choosing, attaching files and pressing the buttons. */
const labels = { name: 'Storefront name', description: 'Bio', contactEmail: 'Contact email' } as const;
type TextField = keyof typeof labels;
/** The step whose screen shows each text field. */
const stepOf: Record<TextField, string> = { name: 'name', description: 'bio', contactEmail: 'email' };

async function perform(step: PathStep) {
  const e = step.event as {
    type: string;
    field?: TextField | 'logo' | 'banner';
    value?: string;
    file?: { name: string; type: string; size: number } | null;
  };
  switch (e.type) {
    case 'wizard.next':
      return clickFirst('Continue', 'Get started');
    case 'wizard.back':
      return clickFirst('Back');
    case 'wizard.skip':
      return clickFirst('Skip for now');
    case 'wizard.launch':
      return clickFirst('Launch');
    case 'wizard.change': {
      const label = labels[e.field as TextField];
      return typeInto(screen.queryByLabelText<HTMLInputElement>(label), e.value!, label);
    }
    case 'wizard.category': {
      const name = categoryLabels[e.value as keyof typeof categoryLabels];
      return clickControl(screen.queryByRole('radio', { name }), `The category "${name}"`);
    }
    case 'wizard.theme':
      return clickControl(
        screen.queryByRole('radio', { name: e.value === 'dark' ? /^Dark/ : /^Light/ }),
        `The ${e.value} theme`,
      );
    case 'wizard.file': {
      const shown = document.querySelector<HTMLElement>('[data-step]')?.dataset.step;
      if (shown !== e.field) throw new Error(`The ${e.field} picker is not on screen (step ${shown})`);
      if (!e.file) return clickFirst('Remove');
      const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
      const file = new File([new Uint8Array(e.file.size)], e.file.name, { type: e.file.type });
      fireEvent.change(input, { target: { files: [file] } });
      return true;
    }
    default:
      return false;
  }
}

/** User events the wizard has no control for (the harness sends them; see docs/testing.md). */
const viewless: ViewlessEvent[] = [
  {
    event: 'wizard.change',
    when: (e, before) =>
      connectStorefrontWizard(before as never, () => {}).step !== stepOf[e.field as TextField],
    reason:
      'the name, bio and email steps take a change of any text field, but each screen shows only its ' +
      'own field: another step’s field has no control here; the graph explores it',
  },
];

function check(expected: AnyMachineSnapshot, actor: AnyActorRef) {
  const view = connectStorefrontWizard(expected as never, () => {});
  // The graph keeps only whether each text is valid: the texts themselves are the live actor's.
  const live = connectStorefrontWizard(actor.getSnapshot(), () => {});
  const shown = document.querySelector<HTMLElement>('[data-step]')!;
  expect(shown.dataset.step).toBe(view.step === 'created' ? 'creating' : view.step);
  if (view.step === 'creating' || view.step === 'created') {
    expect(shown.textContent).toContain(view.launching);
    return;
  }
  const alerts = screen.queryAllByRole('alert').map((a) => a.textContent);
  expect(alerts).toEqual([view.fieldError, view.formError].filter((t) => t !== null));
  if (view.progress) expect(shown.textContent).toContain(view.progress);
  const buttons = screen.queryAllByRole('button').map((b) => b.textContent);
  expect(buttons.includes('Back')).toBe(view.canBack);
  expect(buttons.includes('Skip for now')).toBe(view.canSkip);
  expect(buttons).toContain(view.submitLabel);
  if (view.step === 'name')
    expect(screen.getByLabelText<HTMLInputElement>('Storefront name').value).toBe(live.name);
  if (view.step === 'email')
    expect(screen.getByLabelText<HTMLInputElement>('Contact email').value).toBe(live.contactEmail);
  if (live.file) expect(shown.textContent).toContain(live.file.name);
  // An image step states its rule under the picker, and says when it reads the chosen image.
  if (view.imageRule) expect(shown.textContent).toContain(view.imageRule);
  expect(screen.queryByRole('status')?.textContent ?? null).toBe(view.checking);
  expect(screen.getByRole('button', { name: view.submitLabel }).hasAttribute('disabled')).toBe(
    !view.canSubmit,
  );
}

describe('storefront wizard paths through its screens', () => {
  for (const path of coveringPaths(storefrontWizardModel)) {
    it(path.description, () =>
      runPath(storefrontWizardModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => <StorefrontWizardView actor={actor as never} />),
        perform,
        viewless,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  it('has no unused viewless events', () => expect(unusedViewless(viewless)).toEqual([]));
  afterAll(() => flushCoverage('view'));
});
