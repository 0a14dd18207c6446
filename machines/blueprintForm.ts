import * as v from 'valibot';
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type AssetKind, type ImageFacts, imageProblem, imageRuleHint } from '#domain/assets';
import type { BlueprintJson } from '#domain/catalog';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import {
  type BlueprintCreateInput,
  BlueprintFormCheck,
  type BlueprintPatchInput,
  priceCents,
} from '#domain/schemas/blueprints';
import { fieldErrors } from '#domain/validation';
import type { ImageJobFile } from './imageJob';
import { type ImageUpload, type ImageUploadsOutput, imageUploadsMachine } from './imageUploads';

/**
 * The add and edit form of a product (POST blueprints, PATCH blueprints/{id}): title, description,
 * price in USD (stored as cents), quantity, royalty, a preview image and the asset (both required:
 * preview_required, asset_required), each with an "optimize" checkbox. A chosen file is read in the
 * browser at once (format, bytes, width, height) and checked with the server's image rules of its
 * kind (domain/assets.ts): its first broken rule shows at its field. On save the form is checked
 * with the server's own schema and the image rules; new files are uploaded first (the imageUploads child, through the
 * optimization job when ticked), then the blueprint is created or updated. Cancel with unsaved
 * changes asks to confirm. The machine ends saved (its output is the blueprint) or canceled (null).
 *
 * A save keeps the form's values and its files' URLs (not a file still to upload) in the tab's
 * storage until it is saved: a save refused because the session ended elsewhere (401) keeps them,
 * the creator signs in again (back to the same dialog) and the form opens with them (input
 * `draft`). Saved, canceled or any other refusal of the save forgets them.
 */
export interface BlueprintFormValues {
  title: string;
  description: string;
  /** Dollars, as typed ("12.50"). */
  price: string;
  quantity: string;
  royaltyPercent: string;
  optimizePreview: boolean;
  optimizeAsset: boolean;
}
export type BlueprintFileField = 'preview' | 'asset';
export interface BlueprintFormInput {
  /** The draft being edited; null adds a new product. */
  blueprint: BlueprintJson | null;
  /** What the tab kept of a save the session's end interrupted: the form opens with it. */
  draft?: Record<string, unknown> | null;
}
export interface BlueprintFormContext extends BlueprintFormInput {
  values: BlueprintFormValues;
  initial: BlueprintFormValues;
  files: Record<BlueprintFileField, ImageJobFile | null>;
  /** What the browser read of each chosen file (null: none chosen, or not read yet). */
  facts: Record<BlueprintFileField, ImageFacts | null>;
  /** Uploaded (or existing) URLs. */
  urls: { previewImageUrl: string | null; assetUrl: string | null };
  errors: Record<string, ApiErrorBody>;
  error: ApiErrorBody | null;
  saved: BlueprintJson | null;
}
export type BlueprintFormEvent =
  | { type: 'form.change'; field: keyof BlueprintFormValues; value: string | boolean }
  | { type: 'form.file'; field: BlueprintFileField; file: ImageJobFile | null }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'form.cancel.confirm' }
  | { type: 'form.cancel.dismiss' };
export type SaveBlueprintInput =
  | { id: null; body: v.InferInput<typeof BlueprintCreateInput> }
  | { id: string; body: BlueprintPatchInput };
export interface BlueprintFormOutput {
  blueprint: BlueprintJson | null;
}

/** Where a product form's draft is kept (see src/services/drafts.ts): by product, or "new". */
export const blueprintDraftKey = (blueprint: { id: string } | null) => `blueprint.${blueprint?.id ?? 'new'}`;
/** What a draft keeps: the values and the files' URLs. */
export interface BlueprintDraft extends BlueprintFormValues {
  previewImageUrl: string | null;
  assetUrl: string | null;
}
const UPLOAD_URL = /^\/media\/uploads\/[0-9a-f-]{36}\/[\w-][\w.-]*$/;
/** The form's values and URLs with what the tab kept over them (only values of the right kind). */
function restored(input: BlueprintFormInput) {
  const values = valuesOf(input.blueprint);
  const urls = {
    previewImageUrl: input.blueprint?.previewImageUrl ?? null,
    assetUrl: input.blueprint?.assetUrl ?? null,
  };
  const kept = input.draft;
  if (!kept) return { values, urls };
  for (const key of Object.keys(values) as (keyof BlueprintFormValues)[]) {
    if (typeof kept[key] === typeof values[key])
      (values as unknown as Record<string, unknown>)[key] = kept[key];
  }
  for (const key of ['previewImageUrl', 'assetUrl'] as const) {
    const url = kept[key];
    if (url === null || (typeof url === 'string' && UPLOAD_URL.test(url))) urls[key] = url;
  }
  return { values, urls };
}

const centsToDollars = (cents: number) => (cents / 100).toFixed(2);
const valuesOf = (b: BlueprintJson | null): BlueprintFormValues => ({
  title: b?.title ?? '',
  description: b?.description ?? '',
  price: b ? centsToDollars(b.price) : '',
  quantity: b ? String(b.quantity) : '',
  royaltyPercent: String(b?.royaltyPercent ?? 10),
  optimizePreview: true,
  optimizeAsset: true,
});

/** The request body the form stands for (files not uploaded yet count as present). */
function body(context: BlueprintFormContext) {
  const { values, files, urls } = context;
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  return {
    title: values.title,
    description: values.description,
    price: priceCents(values.price) ?? Number.NaN,
    quantity: number(values.quantity),
    royaltyPercent: number(values.royaltyPercent),
    type: 'standalone' as const,
    drop: false as const,
    previewImageUrl: files.preview ? files.preview.name : urls.previewImageUrl,
    assetUrl: files.asset ? files.asset.name : urls.assetUrl,
    optimizePreview: values.optimizePreview,
    optimizeAsset: values.optimizeAsset,
  };
}
const check = (context: BlueprintFormContext) => v.safeParse(BlueprintFormCheck, body(context));

/** The asset kind whose rules each file follows, and the URL field its errors are about. */
export const blueprintFileKinds: Record<BlueprintFileField, { kind: AssetKind; urlField: string }> = {
  preview: { kind: 'blueprintPreviewImage', urlField: 'previewImageUrl' },
  asset: { kind: 'blueprintAsset', urlField: 'assetUrl' },
};
const fileFields: readonly BlueprintFileField[] = ['preview', 'asset'];
/**
 * The first image rule each chosen file breaks, as the server would answer it on upload, by its URL
 * field ("This image is 120 × 120 pixels: it must be at least 200 × 200.").
 */
export function imageErrors(
  context: Pick<BlueprintFormContext, 'files' | 'facts'>,
): Record<string, ApiErrorBody> {
  const out: Record<string, ApiErrorBody> = {};
  for (const field of fileFields) {
    const facts = context.files[field] && context.facts[field];
    const problem = facts && imageProblem(blueprintFileKinds[field].kind, facts);
    if (!problem) continue;
    const urlField = blueprintFileKinds[field].urlField;
    out[urlField] = { ...problem, field: urlField, message: errorMessage({ ...problem, field: urlField }) };
  }
  return out;
}
/** The first chosen file the browser has not read yet. */
const unread = (context: BlueprintFormContext) =>
  fileFields.find((f) => context.files[f] !== null && context.facts[f] === null) ?? null;
/** What the browser knows of a file it could not read as an image: only its size. */
const unreadable = (file: ImageJobFile): ImageFacts => ({
  format: undefined,
  bytes: file.size,
  width: undefined,
  height: undefined,
});
const dirty = (context: BlueprintFormContext) =>
  !!context.files.preview ||
  !!context.files.asset ||
  (Object.keys(context.values) as (keyof BlueprintFormValues)[]).some(
    (k) => context.values[k] !== context.initial[k],
  );
/** Optimization jobs make PNG or JPEG; a GIF is uploaded as it is. */
const optimizable = (file: ImageJobFile) => file.type === 'image/png' || file.type === 'image/jpeg';
/** The new files for the imageUploads child, by the URL field each fills: preview, then asset. */
export function blueprintUploads({
  files,
  values,
}: Pick<BlueprintFormContext, 'files' | 'values'>): ImageUpload[] {
  const uploads: ImageUpload[] = [];
  if (files.preview)
    uploads.push({
      field: 'previewImageUrl',
      file: files.preview,
      assetKind: 'blueprintPreviewImage',
      optimize: values.optimizePreview && optimizable(files.preview),
    });
  if (files.asset)
    uploads.push({
      field: 'assetUrl',
      file: files.asset,
      assetKind: 'blueprintAsset',
      optimize: values.optimizeAsset && optimizable(files.asset),
    });
  return uploads;
}
/** A file as read: its facts kept, and its first broken rule, if any, shown at its field. */
function takeFacts(context: BlueprintFormContext, field: BlueprintFileField, facts: ImageFacts) {
  const next = { ...context, facts: { ...context.facts, [field]: facts } };
  const urlField = blueprintFileKinds[field].urlField;
  const { [urlField]: _, ...errors } = context.errors;
  const problem = imageErrors(next)[urlField];
  return { facts: next.facts, errors: problem ? { ...errors, [urlField]: problem } : errors };
}

/** The uploaded files' URLs taken, and those files no longer waiting. */
const takeUploads = (context: BlueprintFormContext, { urls }: ImageUploadsOutput) => ({
  urls: {
    previewImageUrl: urls.previewImageUrl ?? context.urls.previewImageUrl,
    assetUrl: urls.assetUrl ?? context.urls.assetUrl,
  },
  files: {
    preview: urls.previewImageUrl ? null : context.files.preview,
    asset: urls.assetUrl ? null : context.files.asset,
  },
  facts: {
    preview: urls.previewImageUrl ? null : context.facts.preview,
    asset: urls.assetUrl ? null : context.facts.asset,
  },
});

const stashDraft = {
  type: 'stashDraft',
  params: ({ context }: { context: BlueprintFormContext }) => ({
    key: blueprintDraftKey(context.blueprint),
    values: { ...context.values, ...context.urls },
  }),
} as const;
const forgetDraft = {
  type: 'forgetDraft',
  params: ({ context }: { context: BlueprintFormContext }) => ({ key: blueprintDraftKey(context.blueprint) }),
} as const;

export const blueprintFormMachine = setup({
  types: {
    context: {} as BlueprintFormContext,
    events: {} as BlueprintFormEvent,
    input: {} as BlueprintFormInput,
    output: {} as BlueprintFormOutput,
    /** busy while saving; uploading while the files go up; checking while a chosen file is read. */
    tags: {} as 'busy' | 'uploading' | 'checking',
  },
  actors: {
    /** Reads a chosen file's format, bytes, width and height in the browser. */
    inspectImage: fromPromise<ImageFacts, { file: ImageJobFile }>(async () => {
      throw new Error('inspectImage not provided');
    }),
    /** The new files, uploaded one after the other (optimized first when asked, then plain). */
    uploadImages: imageUploadsMachine,
    /** POST blueprints (id null) or PATCH blueprints/{id}. */
    saveBlueprint: fromPromise<BlueprintJson, SaveBlueprintInput>(async () => {
      throw new Error('saveBlueprint not provided');
    }),
  },
  guards: {
    valid: ({ context }) => check(context).success && Object.keys(imageErrors(context)).length === 0,
    fileUnread: ({ context }) => unread(context) !== null,
    dirty: ({ context }) => dirty(context),
    uploadFailed: (_, output: ImageUploadsOutput) => output.error !== null,
    /** The session ended (401): the creator signs in again and the draft comes back. */
    signedOut: (_, { error }: { error: unknown }) => toErrorBody(error).code === ErrorCode.UNAUTHORIZED,
  },
  actions: {
    /** Tells the page the product was saved (toast, list refresh). */
    announceSaved: () => {},
    /** Keeps the form's values and URLs in the tab's storage (until saved or dropped). */
    stashDraft: (_, _params: { key: string; values: BlueprintDraft }) => {},
    forgetDraft: (_, _params: { key: string }) => {},
  },
}).createMachine({
  id: 'blueprintForm',
  context: ({ input }) => ({
    blueprint: input.blueprint,
    ...restored(input),
    initial: valuesOf(input.blueprint),
    files: { preview: null, asset: null },
    facts: { preview: null, asset: null },
    errors: {},
    error: null,
    saved: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      initial: 'reading',
      on: {
        'form.change': {
          actions: assign({
            values: ({ context, event }) => ({ ...context.values, [event.field]: event.value }),
            errors: ({ context, event }) => {
              const { [event.field]: _, ...rest } = context.errors;
              return rest;
            },
          }),
        },
        // A chosen file is read before anything else (one chosen while another is read waits for it).
        'form.file': {
          target: '.reading',
          actions: assign({
            files: ({ context, event }) => ({ ...context.files, [event.field]: event.file }),
            facts: ({ context, event }) => ({ ...context.facts, [event.field]: null }),
            errors: ({ context, event }) => {
              const { [blueprintFileKinds[event.field].urlField]: _, ...rest } = context.errors;
              return rest;
            },
          }),
        },
        'form.cancel': [
          { guard: 'dirty', target: 'confirmingCancel' },
          { target: 'canceled', actions: forgetDraft },
        ],
      },
      states: {
        /** Reads the next chosen file not read yet, if any. */
        reading: {
          always: [{ guard: 'fileUnread', target: 'inspecting' }, { target: 'idle' }],
        },
        inspecting: {
          tags: 'checking',
          invoke: {
            id: 'inspectImage',
            src: 'inspectImage',
            input: ({ context }) => ({ file: context.files[unread(context)!]! }),
            onDone: {
              target: 'reading',
              actions: assign(({ context, event }) => takeFacts(context, unread(context)!, event.output)),
            },
            // A file the browser cannot decode is not an image of an accepted format.
            onError: {
              target: 'reading',
              actions: assign(({ context }) => {
                const field = unread(context)!;
                return takeFacts(context, field, unreadable(context.files[field]!));
              }),
            },
          },
        },
        idle: {
          on: {
            'form.submit': [
              { guard: 'valid', target: '#blueprintForm.saving' },
              {
                actions: assign({
                  errors: ({ context }) => {
                    const result = check(context);
                    return { ...(result.success ? {} : fieldErrors(result.issues)), ...imageErrors(context) };
                  },
                }),
              },
            ],
          },
        },
      },
    },
    confirmingCancel: {
      on: {
        'form.cancel.confirm': { target: 'canceled', actions: forgetDraft },
        'form.cancel.dismiss': 'editing',
      },
    },
    saving: {
      tags: 'busy',
      entry: [assign({ errors: {}, error: null }), stashDraft],
      initial: 'uploading',
      states: {
        uploading: {
          tags: 'uploading',
          invoke: {
            id: 'uploadImages',
            src: 'uploadImages',
            input: ({ context }) => ({ uploads: blueprintUploads(context) }),
            onDone: [
              {
                guard: { type: 'uploadFailed', params: ({ event }) => event.output },
                target: '#blueprintForm.editing',
                actions: assign(({ context, event }) => ({
                  ...takeUploads(context, event.output),
                  errors: { [event.output.error!.field!]: event.output.error! },
                })),
              },
              {
                target: 'submitting',
                actions: [assign(({ context, event }) => takeUploads(context, event.output)), stashDraft],
              },
            ],
          },
        },
        submitting: {
          invoke: {
            id: 'saveBlueprint',
            src: 'saveBlueprint',
            input: ({ context }): SaveBlueprintInput => {
              const b = body(context);
              const fields = {
                title: b.title,
                description: b.description,
                price: b.price,
                quantity: b.quantity,
                royaltyPercent: b.royaltyPercent,
                previewImageUrl: context.urls.previewImageUrl!,
                assetUrl: context.urls.assetUrl!,
                optimizePreview: b.optimizePreview,
                optimizeAsset: b.optimizeAsset,
              };
              return context.blueprint
                ? { id: context.blueprint.id, body: fields }
                : { id: null, body: { ...fields, type: 'standalone', drop: false } };
            },
            onDone: {
              target: '#blueprintForm.saved',
              actions: [assign({ saved: ({ event }) => event.output }), forgetDraft, 'announceSaved'],
            },
            onError: [
              // The page goes to sign in (the session's 401 handling); the draft waits for the creator.
              {
                guard: { type: 'signedOut', params: ({ event }) => ({ error: event.error }) },
                target: '#blueprintForm.editing',
              },
              {
                target: '#blueprintForm.editing',
                actions: [
                  assign(({ event }) => {
                    const error = toErrorBody(event.error);
                    return error.field ? { errors: { [error.field]: error }, error: null } : { error };
                  }),
                  forgetDraft,
                ],
              },
            ],
          },
        },
      },
    },
    saved: { type: 'final' },
    canceled: { type: 'final' },
  },
  output: ({ context }) => ({ blueprint: context.saved }),
});

/** What the product dialog shows: the form with its values, errors and files, or the discard question. */
export interface BlueprintFormView {
  panel: 'form' | 'confirmingCancel' | 'ended';
  title: string;
  saveLabel: string;
  busy: boolean;
  values: BlueprintFormValues;
  files: Record<BlueprintFileField, ImageJobFile | null>;
  /** The URL already there for each file (its preview). */
  urls: { previewImageUrl: string | null; assetUrl: string | null };
  /** Each field's message, by the field's name (the files' by their URL field). */
  fieldErrors: Record<string, string>;
  error: string | null;
  /** "Checking the image…" while a chosen file is read; "Uploading the files…", then "Saving…". */
  status: string | null;
  /** Each file's rule in words, under its picker ("JPG, PNG or GIF, at least 200 × 200 pixels, up to 1 MB."). */
  fileRules: Record<BlueprintFileField, string>;
  /** Save works (not while a chosen file is read or the form saves). */
  canSubmit: boolean;
  canCancel: boolean;
  change: (field: keyof BlueprintFormValues, value: string | boolean) => void;
  chooseFile: (field: BlueprintFileField, file: ImageJobFile | null) => void;
  submit: () => void;
  cancel: () => void;
  confirmCancel: () => void;
  dismissCancel: () => void;
}

export function connectBlueprintForm(
  snapshot: SnapshotFrom<typeof blueprintFormMachine>,
  send: (event: BlueprintFormEvent) => void,
): BlueprintFormView {
  const c = snapshot.context;
  const busy = snapshot.hasTag('busy');
  return {
    panel:
      snapshot.status === 'done'
        ? 'ended'
        : snapshot.can({ type: 'form.cancel.confirm' })
          ? 'confirmingCancel'
          : 'form',
    title: c.blueprint ? 'Edit product' : 'Add product',
    saveLabel: c.blueprint ? 'Save changes' : 'Save draft',
    busy,
    values: c.values,
    files: c.files,
    urls: c.urls,
    fieldErrors: Object.fromEntries(Object.entries(c.errors).map(([field, e]) => [field, errorMessage(e)])),
    error: c.error ? errorMessage(c.error) : null,
    status: snapshot.hasTag('uploading')
      ? 'Uploading the files…'
      : busy
        ? 'Saving…'
        : snapshot.hasTag('checking')
          ? 'Checking the image…'
          : null,
    fileRules: {
      preview: imageRuleHint(blueprintFileKinds.preview.kind),
      asset: imageRuleHint(blueprintFileKinds.asset.kind),
    },
    canSubmit: snapshot.can({ type: 'form.submit' }),
    canCancel: snapshot.can({ type: 'form.cancel' }),
    change: (field, value) => send({ type: 'form.change', field, value }),
    chooseFile: (field, file) => send({ type: 'form.file', field, file }),
    submit: () => send({ type: 'form.submit' }),
    cancel: () => send({ type: 'form.cancel' }),
    confirmCancel: () => send({ type: 'form.cancel.confirm' }),
    dismissCancel: () => send({ type: 'form.cancel.dismiss' }),
  };
}
