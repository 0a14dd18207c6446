import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '#domain/errors';
import { BlueprintFormView } from '../src/views/dashboard/BlueprintFormDialog';
import { blueprintFormModel } from './blueprintForm.model';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst, typeInto } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';

const upload = (field: string) => document.querySelector<HTMLElement>(`[data-upload="${field}"]`);

/** Form paths through the dialog: typing, choosing and removing files, Save, Cancel, Discard. */
async function perform(step: PathStep) {
  const e = step.event as {
    type: string;
    field?: string;
    value?: string;
    file?: { name: string; type: string; size: number } | null;
  };
  switch (e.type) {
    case 'form.change':
      if (e.field !== 'title') return false;
      return typeInto(screen.queryByRole<HTMLInputElement>('textbox', { name: 'Title' }), e.value!, 'Title');
    case 'form.file': {
      const zone = upload(e.field!);
      if (!zone) throw new Error(`No ${e.field} upload on screen`);
      if (!e.file) return clickControl(within(zone).queryByRole('button', { name: 'Remove' }), 'Remove');
      const input = zone.querySelector<HTMLInputElement>('input[type="file"]')!;
      const file = new File([new Uint8Array(e.file.size)], e.file.name, { type: e.file.type });
      fireEvent.change(input, { target: { files: [file] } });
      return true;
    }
    case 'form.submit':
      return clickFirst('Save changes', 'Save draft');
    case 'form.cancel':
      return clickFirst('Cancel');
    case 'form.cancel.confirm':
      return clickFirst('Discard');
    case 'form.cancel.dismiss':
      return clickFirst('Keep editing');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot, done: boolean[]) {
  const state = expected.value;
  if (state === 'saved' || state === 'canceled') {
    expect(done).toEqual([state === 'saved']);
    return;
  }
  if (state === 'confirmingCancel') {
    expect(screen.getByText('You have unsaved changes. Leave without saving?')).toBeTruthy();
    return;
  }
  const ctx = expected.context;
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
    ctx.blueprint ? 'Edit product' : 'Add product',
  );
  expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Title' }).value).toBe(ctx.values.title);
  const save = screen.getByRole('button', { name: ctx.blueprint ? 'Save changes' : 'Save draft' });
  const saving = typeof state === 'object' && 'saving' in state;
  expect(save.getAttribute('aria-busy')).toBe(saving ? 'true' : null);
  const text = document.body.textContent ?? '';
  for (const error of Object.values(ctx.errors as Record<string, { code: string }>))
    expect(text).toContain(errorMessage(error));
  if (ctx.error) expect(text).toContain(errorMessage(ctx.error));
  for (const field of ['preview', 'asset'] as const) {
    const chosen = ctx.files[field] as { name: string } | null;
    if (chosen) expect(upload(field)!.textContent).toContain(chosen.name);
  }
  if (saving && (state as { saving: string }).saving === 'uploadingPreview')
    expect(screen.getByText('Uploading the preview…')).toBeTruthy();
}

describe('blueprint form paths through the dialog', () => {
  for (const path of coveringPaths(blueprintFormModel)) {
    it(path.description, () => {
      const done: boolean[] = [];
      return runPath(blueprintFormModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => (
            <BlueprintFormView actor={actor as never} onDone={(saved) => done.push(saved)} />
          )),
        perform,
        check: async (expected) => {
          await act(() => Promise.resolve());
          check(expected, done);
        },
        wrap: (fn) => act(fn),
      });
    });
  }
  afterAll(() => flushCoverage('view'));
});
