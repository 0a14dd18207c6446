import * as v from 'valibot';
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import type { BlueprintJson } from '#domain/catalog';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
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
 * preview_required, asset_required), each with an "optimize" checkbox. On save the form is checked
 * with the server's own schema; new files are uploaded first (the imageUploads child, through the
 * optimization job when ticked), then the blueprint is created or updated. Cancel with unsaved
 * changes asks to confirm. The machine ends saved (its output is the blueprint) or canceled (null).
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
}
export interface BlueprintFormContext extends BlueprintFormInput {
  values: BlueprintFormValues;
  initial: BlueprintFormValues;
  files: Record<BlueprintFileField, ImageJobFile | null>;
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
});

export const blueprintFormMachine = setup({
  types: {
    context: {} as BlueprintFormContext,
    events: {} as BlueprintFormEvent,
    input: {} as BlueprintFormInput,
    output: {} as BlueprintFormOutput,
    /** busy while saving; uploading while the files go up. */
    tags: {} as 'busy' | 'uploading',
  },
  actors: {
    /** The new files, uploaded one after the other (optimized first when asked, then plain). */
    uploadImages: imageUploadsMachine,
    /** POST blueprints (id null) or PATCH blueprints/{id}. */
    saveBlueprint: fromPromise<BlueprintJson, SaveBlueprintInput>(async () => {
      throw new Error('saveBlueprint not provided');
    }),
  },
  guards: {
    valid: ({ context }) => check(context).success,
    dirty: ({ context }) => dirty(context),
    uploadFailed: (_, output: ImageUploadsOutput) => output.error !== null,
  },
  actions: {
    /** Tells the page the product was saved (toast, list refresh). */
    announceSaved: () => {},
  },
}).createMachine({
  id: 'blueprintForm',
  context: ({ input }) => ({
    ...input,
    values: valuesOf(input.blueprint),
    initial: valuesOf(input.blueprint),
    files: { preview: null, asset: null },
    urls: {
      previewImageUrl: input.blueprint?.previewImageUrl ?? null,
      assetUrl: input.blueprint?.assetUrl ?? null,
    },
    errors: {},
    error: null,
    saved: null,
  }),
  initial: 'editing',
  states: {
    editing: {
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
        'form.file': {
          actions: assign({
            files: ({ context, event }) => ({ ...context.files, [event.field]: event.file }),
            errors: ({ context, event }) => {
              const key = event.field === 'preview' ? 'previewImageUrl' : 'assetUrl';
              const { [key]: _, ...rest } = context.errors;
              return rest;
            },
          }),
        },
        'form.submit': [
          { guard: 'valid', target: 'saving' },
          {
            actions: assign({
              errors: ({ context }) => {
                const result = check(context);
                return result.success ? {} : fieldErrors(result.issues);
              },
            }),
          },
        ],
        'form.cancel': [{ guard: 'dirty', target: 'confirmingCancel' }, { target: 'canceled' }],
      },
    },
    confirmingCancel: {
      on: {
        'form.cancel.confirm': 'canceled',
        'form.cancel.dismiss': 'editing',
      },
    },
    saving: {
      tags: 'busy',
      entry: assign({ errors: {}, error: null }),
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
                actions: assign(({ context, event }) => takeUploads(context, event.output)),
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
              actions: [assign({ saved: ({ event }) => event.output }), 'announceSaved'],
            },
            onError: {
              target: '#blueprintForm.editing',
              actions: assign(({ event }) => {
                const error = toErrorBody(event.error);
                return error.field ? { errors: { [error.field]: error }, error: null } : { error };
              }),
            },
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
  /** "Uploading the files…", then "Saving…". */
  status: string | null;
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
    status: snapshot.hasTag('uploading') ? 'Uploading the files…' : busy ? 'Saving…' : null,
    canCancel: snapshot.can({ type: 'form.cancel' }),
    change: (field, value) => send({ type: 'form.change', field, value }),
    chooseFile: (field, file) => send({ type: 'form.file', field, file }),
    submit: () => send({ type: 'form.submit' }),
    cancel: () => send({ type: 'form.cancel' }),
    confirmCancel: () => send({ type: 'form.cancel.confirm' }),
    dismissCancel: () => send({ type: 'form.cancel.dismiss' }),
  };
}
