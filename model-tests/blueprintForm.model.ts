import { expect } from 'vitest';
import { SESSION_EXPIRED_TEXT } from '#domain/apiError';
import type { ImageFacts } from '#domain/assets';
import {
  type BlueprintFormContext,
  blueprintFormMachine,
  blueprintUploads,
  connectBlueprintForm,
} from '../machines/blueprintForm';
import { after, expectOutput, expectWorking } from './expect';
import { makeBlueprint } from './fixtures';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof blueprintFormMachine>;
const view = (o: O) => connectBlueprintForm(o.snapshot, () => {});
/** Unsaved changes: a title other than the saved one (none for a new product) or a file chosen. */
const dirty = (o: O) => {
  const c = o.snapshot.context;
  return c.values.title !== (c.blueprint ? editedDraft.title : '') || !!c.files.preview || !!c.files.asset;
};
/** Files are compared by name: in a view run the browser makes its own File of the choice. */
const nameOf = (file: unknown) => (file as { name: string } | null | undefined)?.name ?? null;
/** The name of the file chosen last for a field (null once removed). */
const chosen = (o: O, field: string) =>
  nameOf(o.history.filter((e) => e.type === 'form.file' && e.field === field).at(-1)?.file);

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
  expect: {
    editing: (o) => {
      const v = view(o);
      expect(v).toMatchObject({ panel: 'form', busy: false, canCancel: true });
      expect(v.title).toBe(o.snapshot.context.blueprint ? 'Edit product' : 'Add product');
      // A save the session's end refused comes back with its values.
      if (o.event.type === 'xstate.init' && o.history.length === 1)
        expect(v.values.title).toBe(
          o.snapshot.context.blueprint || o.snapshot.context.values.title ? 'Night Loop' : '',
        );
      if (o.event.type === 'form.change') {
        expect(v.values[o.event.field as 'title']).toBe(o.event.value);
        expect(v.fieldErrors[o.event.field as string]).toBeUndefined();
      }
      // (Files are compared by name: in a view run the browser makes its own File of the choice.)
      if (o.event.type === 'form.file')
        expect(v.files[o.event.field as 'preview']?.name ?? null).toBe(
          (o.event.file as { name: string } | null)?.name ?? null,
        );
      if (o.event.type === 'form.cancel.dismiss') expect(dirty(o)).toBe(true);
      if (after(o, 'error', 'saveBlueprint')) {
        const body = (o.event.error as { body: { code: string } }).body;
        expect(v.values.title).toBe(o.before.context.values.title);
        if (body.code === 'UNAUTHORIZED') expect(v.error).toBeNull();
        else expect(v.error).toBeTruthy();
      }
      if (after(o, 'done', 'uploadImages')) {
        const field = (o.event.output as { error: { field: string } }).error.field;
        expect(v.fieldErrors[field]).toBeDefined();
      }
    },
    // Each chosen file is read in the browser and checked with its kind's rules at once.
    'editing.inspecting': (o) => {
      const field =
        o.snapshot.context.files.preview && !o.snapshot.context.facts.preview ? 'preview' : 'asset';
      expectWorking(o, 'inspectImage');
      expect(nameOf((o.calls.at(-1)!.input as { file: unknown }).file)).toBe(chosen(o, field));
      expect(view(o).status).toBe('Checking the image…');
    },
    'editing.idle': (o) => {
      expect(view(o).status).toBeNull();
      // Save refused by the server's schema: the fields say why, nothing is sent.
      if (o.event.type === 'form.submit') expect(Object.keys(view(o).fieldErrors).length).toBeGreaterThan(0);
    },
    // Cancel with unsaved changes asks first.
    confirmingCancel: (o) => {
      expect(o.event.type).toBe('form.cancel');
      expect(dirty(o)).toBe(true);
      expect(view(o).panel).toBe('confirmingCancel');
    },
    canceled: (o) => {
      if (o.event.type === 'form.cancel') expect(dirty(o)).toBe(false);
      else expect(o.event.type).toBe('form.cancel.confirm');
      expectOutput(o, { blueprint: null });
    },
    saving: (o) => expect(view(o).busy).toBe(true),
    // Files first (each chosen file), then POST or PATCH with the uploaded URLs.
    'saving.uploading': (o) => {
      expect(o.event.type).toBe('form.submit');
      expectWorking(o, 'uploadImages');
      const sent = (o.calls.at(-1)!.input as { uploads: Array<{ field: string; file: unknown }> }).uploads;
      const expected = [
        ...(chosen(o, 'preview') ? [{ field: 'previewImageUrl', file: chosen(o, 'preview') }] : []),
        ...(chosen(o, 'asset') ? [{ field: 'assetUrl', file: chosen(o, 'asset') }] : []),
      ];
      expect(sent.map((u) => ({ field: u.field, file: nameOf(u.file) }))).toEqual(expected);
      expect(view(o).status).toBe('Uploading the files…');
    },
    'saving.submitting': (o) => {
      expect(o.event.type).toBe('xstate.done.actor.uploadImages');
      const urls = (o.event.output as { urls: Record<string, string> }).urls;
      const c = o.snapshot.context;
      expectWorking(o, 'saveBlueprint');
      const input = o.calls.at(-1)!.input as { id: string | null; body: Record<string, unknown> };
      expect(input.id).toBe(c.blueprint ? editedDraft.id : null);
      expect(input.body).toMatchObject({
        title: c.values.title,
        price: editedDraft.price,
        quantity: editedDraft.quantity,
        royaltyPercent: editedDraft.royaltyPercent,
        previewImageUrl: urls.previewImageUrl ?? editedDraft.previewImageUrl,
        assetUrl: urls.assetUrl ?? editedDraft.assetUrl,
      });
      expect(view(o).status).toBe('Saving…');
    },
    saved: (o) => {
      expect(o.event.type).toBe('xstate.done.actor.saveBlueprint');
      expectOutput(o, { blueprint: o.event.output });
    },
  },
};
