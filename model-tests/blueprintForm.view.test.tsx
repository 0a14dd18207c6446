import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, fromPromise } from 'xstate';
import { blueprintFormMachine, connectBlueprintForm } from '../machines/blueprintForm';
import { type AppActors, AppContext } from '../src/views/AppContext';
import { BlueprintFormDialog, BlueprintFormView } from '../src/views/dashboard/BlueprintFormDialog';
import { blueprintFormModel, editedDraft } from './blueprintForm.model';
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

/** The dialog as the view model says; its end reaches the page through useFlowActor (BlueprintFormDialog). */
function check(expected: AnyMachineSnapshot) {
  const view = connectBlueprintForm(expected as never, () => {});
  if (view.panel === 'ended') {
    expect(screen.queryByRole('dialog')).toBeNull();
    return;
  }
  if (view.panel === 'confirmingCancel') {
    expect(screen.getByText('You have unsaved changes. Leave without saving?')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Title' })).toBeNull();
    return;
  }
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(view.title);
  expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Title' }).value).toBe(view.values.title);
  const save = screen.getByRole('button', { name: view.saveLabel });
  expect(save.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  const alerts = screen.queryAllByRole('alert').map((a) => a.textContent);
  for (const text of Object.values(view.fieldErrors)) expect(alerts).toContain(text);
  if (view.error) expect(alerts).toContain(view.error);
  for (const field of ['preview', 'asset'] as const) {
    const chosen = view.files[field];
    if (chosen) expect(upload(field)!.textContent).toContain(chosen.name);
  }
  expect(screen.queryByRole('status')?.textContent ?? null).toBe(view.status);
}

describe('blueprint form paths through the dialog', () => {
  for (const path of coveringPaths(blueprintFormModel)) {
    it(path.description, () => {
      return runPath(blueprintFormModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <BlueprintFormView actor={actor as never} />),
        perform,
        check: async (expected) => {
          await act(() => Promise.resolve());
          check(expected);
        },
        wrap: (fn) => act(fn),
      });
    });
  }
  afterAll(() => flushCoverage('view'));
});

describe('how the form dialog ends, as the products list hears it', () => {
  const mount = (machine: typeof blueprintFormMachine, done: boolean[]) =>
    render(
      <AppContext.Provider value={{ drafts: { read: () => null } } as unknown as AppActors}>
        <BlueprintFormDialog machine={machine} blueprint={editedDraft} onDone={(saved) => done.push(saved)} />
      </AppContext.Provider>,
    );

  it('is saved: true once the product is saved', async () => {
    const done: boolean[] = [];
    mount(
      blueprintFormMachine.provide({ actors: { saveBlueprint: fromPromise(async () => editedDraft) } }),
      done,
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
    await waitFor(() => expect(done).toEqual([true]));
  });

  it('is saved: false when canceled without changes', async () => {
    const done: boolean[] = [];
    mount(blueprintFormMachine, done);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Cancel' })));
    expect(done).toEqual([false]);
  });
});
