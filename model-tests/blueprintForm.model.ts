import { blueprintFormMachine } from '../machines/blueprintForm';
import { makeBlueprint } from './fixtures';
import type { MachineModel } from './harness';

export const editedDraft = makeBlueprint();
export const PREVIEW_FILE = { name: 'preview.png', type: 'image/png', size: 200_000 };
export const ASSET_FILE = { name: 'asset.gif', type: 'image/gif', size: 900_000 };
export const UPLOADED_PREVIEW = '/media/uploads/u1/blueprintPreviewImage-new.png';
export const UPLOADED_ASSET = '/media/uploads/u1/blueprintAsset-new.gif';

/**
 * Editing a draft takes every transition (its fields start valid); adding a product is explored
 * with the title only (cancel, and a submit the form refuses), which keeps the graph small.
 */
export const blueprintFormModel: MachineModel<typeof blueprintFormMachine> = {
  machine: blueprintFormMachine,
  fakes: ['uploadFile', 'saveBlueprint'],
  scenarios: [
    { name: 'editing a draft', input: { blueprint: editedDraft } },
    { name: 'adding a product', input: { blueprint: null } },
  ],
  events: (s) => [
    { type: 'form.change', field: 'title', value: '' },
    { type: 'form.change', field: 'title', value: editedDraft.title },
    { type: 'form.submit' },
    { type: 'form.cancel' },
    { type: 'form.cancel.confirm' },
    { type: 'form.cancel.dismiss' },
    ...(s.context.blueprint
      ? [
          { type: 'form.file', field: 'preview', file: PREVIEW_FILE },
          { type: 'form.file', field: 'preview', file: null },
          { type: 'form.file', field: 'asset', file: ASSET_FILE },
          {
            type: 'xstate.done.actor.uploadFile',
            output: { url: s.matches({ saving: 'uploadingAsset' }) ? UPLOADED_ASSET : UPLOADED_PREVIEW },
          },
          {
            type: 'xstate.error.actor.uploadFile',
            error: { status: 400, body: { code: 'IMAGE_MIN_WIDTH', field: 'file', message: '' } },
          },
          {
            type: 'xstate.done.actor.saveBlueprint',
            output: { ...editedDraft, title: s.context.values.title },
          },
          {
            type: 'xstate.error.actor.saveBlueprint',
            error: { status: 400, body: { code: 'BLUEPRINT_LOCKED', message: '' } },
          },
        ]
      : []),
  ],
  serializeState: (s) =>
    JSON.stringify(
      s.status === 'done'
        ? [s.value]
        : [
            s.value,
            s.context.values.title,
            !!s.context.files.preview,
            !!s.context.files.asset,
            s.context.urls,
            Object.keys(s.context.errors).sort(),
            s.context.error?.code ?? null,
          ],
    ),
};
