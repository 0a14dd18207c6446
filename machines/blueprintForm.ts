import * as v from 'valibot';
import { assign, fromPromise, setup } from 'xstate';
import type { BlueprintJson } from '#domain/catalog';
import { type ApiErrorBody, toErrorBody } from '#domain/errors';
import {
  type BlueprintCreateInput,
  BlueprintFormCheck,
  type BlueprintPatchInput,
  priceCents,
} from '#domain/schemas/blueprints';
import { fieldErrors } from '#domain/validation';
import type { ImageJobFile } from './imageJob';

/**
 * The add and edit form of a product (SPEC §5 "Blueprint form", §7 POST/PATCH blueprints): title,
 * description, price in USD (stored as cents), quantity, royalty, a preview image and the asset
 * (required: preview_required, asset_required), each with an "optimize" checkbox. On save the form
 * is checked with the server's own schema; new files are uploaded first (through the
 * optimization job when ticked), then the blueprint is created or updated. Cancel with unsaved
 * changes asks to confirm.
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
export interface UploadInput {
  file: ImageJobFile;
  assetKind: 'blueprintPreviewImage' | 'blueprintAsset';
  optimize: boolean;
}
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

export const blueprintFormMachine = setup({
  types: {
    context: {} as BlueprintFormContext,
    events: {} as BlueprintFormEvent,
    input: {} as BlueprintFormInput,
    output: {} as BlueprintFormOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** An upload (optimized first when asked, then plain): the file's URL. */
    uploadFile: fromPromise<{ url: string }, UploadInput>(async () => {
      throw new Error('uploadFile not provided');
    }),
    /** POST blueprints (id null) or PATCH blueprints/{id}. */
    saveBlueprint: fromPromise<BlueprintJson, SaveBlueprintInput>(async () => {
      throw new Error('saveBlueprint not provided');
    }),
  },
  guards: {
    valid: ({ context }) => check(context).success,
    dirty: ({ context }) => dirty(context),
    previewToUpload: ({ context }) => !!context.files.preview,
    assetToUpload: ({ context }) => !!context.files.asset,
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
      initial: 'preview',
      states: {
        preview: {
          always: [{ guard: 'previewToUpload', target: 'uploadingPreview' }, { target: 'asset' }],
        },
        uploadingPreview: {
          invoke: {
            id: 'uploadFile',
            src: 'uploadFile',
            input: ({ context }) => ({
              file: context.files.preview!,
              assetKind: 'blueprintPreviewImage' as const,
              optimize: context.values.optimizePreview && optimizable(context.files.preview!),
            }),
            onDone: {
              target: 'asset',
              actions: assign({
                urls: ({ context, event }) => ({ ...context.urls, previewImageUrl: event.output.url }),
                files: ({ context }) => ({ ...context.files, preview: null }),
              }),
            },
            onError: {
              target: '#blueprintForm.editing',
              actions: assign({
                errors: ({ event }) => ({ previewImageUrl: toErrorBody(event.error) }),
              }),
            },
          },
        },
        asset: {
          always: [{ guard: 'assetToUpload', target: 'uploadingAsset' }, { target: 'submitting' }],
        },
        uploadingAsset: {
          invoke: {
            id: 'uploadFile',
            src: 'uploadFile',
            input: ({ context }) => ({
              file: context.files.asset!,
              assetKind: 'blueprintAsset' as const,
              optimize: context.values.optimizeAsset && optimizable(context.files.asset!),
            }),
            onDone: {
              target: 'submitting',
              actions: assign({
                urls: ({ context, event }) => ({ ...context.urls, assetUrl: event.output.url }),
                files: ({ context }) => ({ ...context.files, asset: null }),
              }),
            },
            onError: {
              target: '#blueprintForm.editing',
              actions: assign({ errors: ({ event }) => ({ assetUrl: toErrorBody(event.error) }) }),
            },
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
