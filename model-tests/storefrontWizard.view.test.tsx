import { act, fireEvent, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '../src/domain/errors';
import { StorefrontWizardView, wizardStep } from '../src/views/storefront/StorefrontWizard';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { generatePaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';
import { storefrontWizardModel } from './storefrontWizard.model';

/** Wizard paths through its screens: typing, choosing, attaching files and pressing the buttons. */
const labels = { name: 'Storefront name', description: 'Bio', contactEmail: 'Contact email' } as const;

async function perform(step: PathStep) {
  const e = step.event as {
    type: string;
    field?: keyof typeof labels | 'logo' | 'banner';
    value?: string;
    file?: { name: string; type: string; size: number };
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
      const input = screen.queryByLabelText<HTMLInputElement>(labels[e.field as keyof typeof labels]);
      if (!input || input.value === e.value) return false;
      fireEvent.change(input, { target: { value: e.value } });
      return true;
    }
    case 'wizard.category':
    case 'wizard.theme': {
      const name = e.type === 'wizard.category' ? 'Music' : /^Dark/;
      const radio = screen.queryByRole<HTMLInputElement>('radio', { name });
      if (!radio || radio.checked) return false;
      fireEvent.click(radio);
      return true;
    }
    case 'wizard.file': {
      const input = document.querySelector<HTMLInputElement>('input[type="file"]');
      const heading = screen.queryByRole('heading', { level: 1 })?.textContent ?? '';
      if (!input || !heading.toLowerCase().includes(e.field!)) return false;
      const file = new File([new Uint8Array(e.file!.size)], e.file!.name, { type: e.file!.type });
      fireEvent.change(input, { target: { files: [file] } });
      return true;
    }
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot, actor: AnyActorRef) {
  const shown = document.querySelector<HTMLElement>('[data-step]')?.dataset.step;
  const step = wizardStep(expected.value);
  expect(shown).toBe(step === 'created' ? 'creating' : step);
  const error = expected.context.error;
  if (error && step !== 'creating' && step !== 'created')
    expect(document.body.textContent).toContain(errorMessage(error));
  if (step === 'name')
    expect(screen.getByLabelText<HTMLInputElement>('Storefront name').value).toBe(
      actor.getSnapshot().context.name,
    );
}

describe('storefront wizard paths through its screens', () => {
  for (const path of generatePaths(storefrontWizardModel)) {
    it(path.description, () =>
      runPath(storefrontWizardModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => <StorefrontWizardView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
