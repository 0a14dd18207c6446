import { SESSION_EXPIRED_TEXT } from '#domain/apiError';
import type { ImageFacts } from '#domain/assets';
import { type BlueprintFormContext, blueprintFormMachine, blueprintUploads } from '../machines/blueprintForm';
import { makeBlueprint } from './fixtures';
import type { MachineModel } from './harness';

export const editedDraft = makeBlueprint();
export const PREVIEW_FILE = { name: 'preview.png', type: 'image/png', size: 200_000 };
export const ASSET_FILE = { name: 'asset.gif', type: 'image/gif', size: 900_000 };
/**
 * What the browser can read of a chosen file: an image that passes both files' rules (a file it
 * cannot read, the error outcome, breaks them: FILE_TYPE).
 */
export const FITTING_IMAGE: ImageFacts = { format: 'png', bytes: 200_000, width: 800, height: 800 };
export const UPLOADED_PREVIEW = '/media/uploads/u1/blueprintPreviewImage-new.png';
export const UPLOADED_ASSET = '/media/uploads/u1/blueprintAsset-new.gif';

const uploaded: Record<string, string> = { previewImageUrl: UPLOADED_PREVIEW, assetUrl: UPLOADED_ASSET };
/**
 * What the imageUploads child can answer for the files the form sends it: all uploaded, or the
 * last one refused after those before it went up.
 */
function uploadOutcomes(c: BlueprintFormContext) {
  const sent = blueprintUploads(c).map((u) => u.field);
  const urls = (fields: string[]) => Object.fromEntries(fields.map((f) => [f, uploaded[f]]));
  const outcomes: unknown[] = [{ urls: urls(sent), error: null }];
  if (sent.length > 0)
    outcomes.push({
      urls: urls(sent.slice(0, -1)),
      error: { code: 'IMAGE_MIN_WIDTH', field: sent.at(-1), message: '' },
    });
  return outcomes.map((output) => ({ type: 'xstate.done.actor.uploadImages', output }));
}

/**
 * Editing a draft takes every transition (its fields start valid); adding a product is explored
 * with the title only (cancel, and a submit the form refuses), which keeps the graph small.
 */
export const blueprintFormModel: MachineModel<typeof blueprintFormMachine> = {
  machine: blueprintFormMachine,
  fakes: ['uploadImages', 'saveBlueprint', 'inspectImage'],
  scenarios: [
    { name: 'editing a draft', input: { blueprint: editedDraft } },
    { name: 'adding a product', input: { blueprint: null } },
    // A new product's save the session's end interrupted: the tab kept its title.
    { name: 'adding a product, a draft kept', input: { blueprint: null, draft: { title: 'Night Loop' } } },
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
          { type: 'xstate.done.actor.inspectImage', output: FITTING_IMAGE },
          { type: 'xstate.error.actor.inspectImage', error: new Error('The image cannot be decoded') },
          ...uploadOutcomes(s.context),
          {
            type: 'xstate.done.actor.saveBlueprint',
            output: { ...editedDraft, title: s.context.values.title },
          },
          {
            type: 'xstate.error.actor.saveBlueprint',
            error: { status: 400, body: { code: 'BLUEPRINT_LOCKED', message: '' } },
          },
          {
            type: 'xstate.error.actor.saveBlueprint',
            error: { status: 401, body: { code: 'UNAUTHORIZED', message: SESSION_EXPIRED_TEXT } },
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
            // Whether each file has a URL (what the schema checks), not which one.
            !!s.context.urls.previewImageUrl,
            !!s.context.urls.assetUrl,
            Object.keys(s.context.errors).sort(),
            s.context.error?.code ?? null,
          ],
    ),
};
