import { assign, emit, fromPromise, setup } from 'xstate';
import { type AssetKind, assetRules, type ImageFormat, imageProblem } from '#domain/assets';
import type { StorefrontJson } from '#domain/catalog';
import {
  type StorefrontCategory,
  type StorefrontTheme,
  storefrontCategories,
  storefrontThemes,
} from '#domain/enums';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import type { StorefrontPatchInput } from '#domain/schemas/storefronts';
import { storefrontFieldError } from '#domain/storefronts';
import { type ImageUploadsOutput, imageUploadsMachine } from './imageUploads';
import { storefrontUploads, type WizardFile } from './storefrontWizard';

/**
 * Dashboard → Account: edit the owner's storefront (name, bio, category, theme, logo, banner,
 * contact email, vanity URL), save only when something changed, checking name, description, email
 * and vanity URL in that order and stopping at the first error; new images upload first (the
 * imageUploads child, as in the creation wizard), then PATCH storefronts/{id} with the changed
 * fields. Enabling or disabling (which hides or shows the storefront and its items) is its own
 * PATCH. Every storefront the server answers is emitted (`account.changed`). Leaving with unsaved
 * changes asks first. Without a storefront the panel offers to create one.
 *
 * A save keeps the draft's values (not a newly chosen file) in the tab's storage until it is saved:
 * a save refused because the session ended elsewhere (401) keeps it, the owner signs in again, and
 * the panel opens with those values over the storefront (input `draft`). Saved, discarded (also on
 * leaving) or any other refusal of the PATCH forgets it.
 */
/** A chosen image file (a browser `File` fits). */
export type AccountFile = WizardFile;
/** The editable values of a storefront, as the form holds them. */
export interface AccountValues {
  name: string;
  description: string;
  category: StorefrontCategory | null;
  theme: StorefrontTheme;
  contactEmail: string;
  vanityUrl: string;
  logoUrl: string | null;
  bannerUrl: string | null;
}
export type AccountTextField = 'name' | 'description' | 'contactEmail' | 'vanityUrl';
/** The order in which a save checks the text fields; the first invalid one stops it. */
export const accountFieldOrder: readonly AccountTextField[] = [
  'name',
  'description',
  'contactEmail',
  'vanityUrl',
];
export type AccountImageField = 'logo' | 'banner';
export const imageKinds: Record<AccountImageField, AssetKind> = {
  logo: 'storefrontLogo',
  banner: 'storefrontBanner',
};

export interface DashboardAccountContext {
  /** The storefront as the server last answered it (null: the user has none). */
  storefront: StorefrontJson | null;
  saved: AccountValues;
  draft: AccountValues;
  /** Newly chosen images, uploaded when saving. */
  logo: AccountFile | null;
  banner: AccountFile | null;
  /** The draft differs from the saved storefront (Save and Discard are enabled). */
  dirty: boolean;
  /** The first problem: a field's (name, description, contactEmail, vanityUrl, logo, banner) or the form's. */
  error: ApiErrorBody | null;
}

type EditableField = Exclude<keyof AccountValues, 'logoUrl' | 'bannerUrl'>;
export type AccountChangeEvent = {
  [K in EditableField]: { type: 'account.change'; field: K; value: AccountValues[K] };
}[EditableField];
export type DashboardAccountEvent =
  | AccountChangeEvent
  /** A chosen image (null removes the image); width and height when the browser could read them. */
  | {
      type: 'account.file';
      field: AccountImageField;
      file: AccountFile | null;
      width?: number;
      height?: number;
    }
  | { type: 'account.save' }
  | { type: 'account.discard' }
  | { type: 'account.enabled.toggle' }
  /** Navigation away was asked for: allowed when nothing is unsaved, else a confirmation. */
  | { type: 'account.leave' }
  | { type: 'account.leave.confirm' }
  | { type: 'account.leave.cancel' };

/** The storefront the server answered to a save or to enabling or disabling. */
export type DashboardAccountEmitted = { type: 'account.changed'; storefront: StorefrontJson };

export interface DashboardAccountInput {
  storefront: StorefrontJson | null;
  /** What the tab kept of a save the session's end interrupted: the panel opens with it. */
  draft?: Record<string, unknown> | null;
}

/** Where a storefront's draft is kept (see src/services/drafts.ts). */
export const storefrontDraftKey = (id: string) => `storefront.${id}`;
/** The storefront's values with what the tab kept over them (only values of the right kind). */
export function restoredValues(
  storefront: StorefrontJson | null,
  kept: Record<string, unknown> | null | undefined,
): AccountValues {
  const values = accountValues(storefront);
  if (!storefront || !kept) return values;
  const text = (key: AccountTextField) =>
    typeof kept[key] === 'string' ? (kept[key] as string) : values[key];
  const url = (key: 'logoUrl' | 'bannerUrl') =>
    typeof kept[key] === 'string' || kept[key] === null ? (kept[key] as string | null) : values[key];
  return {
    name: text('name'),
    description: text('description'),
    contactEmail: text('contactEmail'),
    vanityUrl: text('vanityUrl'),
    category:
      kept.category === null || storefrontCategories.includes(kept.category as StorefrontCategory)
        ? (kept.category as StorefrontCategory | null)
        : values.category,
    theme: storefrontThemes.includes(kept.theme as StorefrontTheme)
      ? (kept.theme as StorefrontTheme)
      : values.theme,
    logoUrl: url('logoUrl'),
    bannerUrl: url('bannerUrl'),
  };
}
export interface SaveStorefrontInput {
  id: string;
  patch: StorefrontPatchInput;
}

const emptyValues: AccountValues = {
  name: '',
  description: '',
  category: null,
  theme: 'light',
  contactEmail: '',
  vanityUrl: '',
  logoUrl: null,
  bannerUrl: null,
};
/** The form's values of a storefront. */
export function accountValues(s: StorefrontJson | null): AccountValues {
  if (!s) return emptyValues;
  return {
    name: s.name,
    description: s.description,
    category: s.category,
    theme: s.theme,
    contactEmail: s.contactEmail ?? '',
    vanityUrl: s.vanityUrl,
    logoUrl: s.logoUrl,
    bannerUrl: s.bannerUrl,
  };
}

const valueKeys = Object.keys(emptyValues) as Array<keyof AccountValues>;
const textFields = new Set<keyof AccountValues>(accountFieldOrder);
const clean = <K extends keyof AccountValues>(key: K, value: AccountValues[K]) =>
  (textFields.has(key) ? (value as string).trim() : value) as AccountValues[K];

/** The fields of the draft that differ from the saved storefront (the PATCH body). */
export function changedFields(saved: AccountValues, draft: AccountValues): StorefrontPatchInput {
  const patch: Record<string, unknown> = {};
  for (const key of valueKeys) {
    const value = clean(key, draft[key]);
    if (value !== saved[key]) patch[key] = value;
  }
  return patch as StorefrontPatchInput;
}
const isDirty = (c: Pick<DashboardAccountContext, 'saved' | 'draft' | 'logo' | 'banner'>) =>
  !!c.logo || !!c.banner || Object.keys(changedFields(c.saved, c.draft)).length > 0;

const formats: Record<string, ImageFormat> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif' };
/**
 * The image rules for a chosen logo or banner: format, bytes and least width and height (sizes the
 * browser could not read are left to the server), the error naming the rule's limits.
 */
export function fileError(
  field: AccountImageField,
  file: AccountFile | null,
  width?: number,
  height?: number,
): ApiErrorBody | null {
  if (!file) return null;
  const kind = imageKinds[field];
  const rule = assetRules[kind];
  const problem = imageProblem(kind, {
    format: formats[file.type],
    bytes: file.size,
    width: width ?? rule.minWidth,
    height: height ?? rule.minHeight,
  });
  return problem ? { ...problem, field, message: errorMessage({ ...problem, field }) } : null;
}

const recomputed = <C extends DashboardAccountContext>(c: C): C => ({ ...c, dirty: isDirty(c) });

const stashDraft = {
  type: 'stashDraft',
  params: ({ context }: { context: DashboardAccountContext }) => ({
    key: storefrontDraftKey(context.storefront!.id),
    values: context.draft,
  }),
} as const;
const forgetDraft = {
  type: 'forgetDraft',
  params: ({ context }: { context: DashboardAccountContext }) => ({
    key: storefrontDraftKey(context.storefront!.id),
  }),
} as const;

export const dashboardAccountMachine = setup({
  types: {
    context: {} as DashboardAccountContext,
    events: {} as DashboardAccountEvent,
    input: {} as DashboardAccountInput,
    emitted: {} as DashboardAccountEmitted,
    /** busy while anything runs; saving or toggling says which. */
    tags: {} as 'busy' | 'saving' | 'toggling',
  },
  actors: {
    /** The new logo and banner, uploaded one after the other. */
    uploadImages: imageUploadsMachine,
    /** PATCH storefronts/{id} with the changed fields. */
    saveStorefront: fromPromise<StorefrontJson, SaveStorefrontInput>(async () => {
      throw new Error('saveStorefront not provided');
    }),
    /** PATCH storefronts/{id} with { enabled }. */
    setEnabled: fromPromise<StorefrontJson, { id: string; enabled: boolean }>(async () => {
      throw new Error('setEnabled not provided');
    }),
  },
  guards: {
    hasStorefront: ({ context }) => context.storefront !== null,
    dirty: ({ context }) => context.dirty,
    fieldInvalid: ({ context }, { field }: { field: AccountTextField }) =>
      storefrontFieldError(field, context.draft[field]) !== null,
    fileAcceptable: ({ event }) =>
      event.type === 'account.file' && !fileError(event.field, event.file, event.width, event.height),
    uploadFailed: (_, output: ImageUploadsOutput) => output.error !== null,
    /** The session ended (401): the owner signs in again and the draft comes back. */
    signedOut: (_, { error }: { error: unknown }) => toErrorBody(error).code === ErrorCode.UNAUTHORIZED,
  },
  actions: {
    clearError: assign({ error: null }),
    change: assign(({ context, event }) => {
      if (event.type !== 'account.change') return context;
      return recomputed({ ...context, draft: { ...context.draft, [event.field]: event.value }, error: null });
    }),
    /** A chosen image waits for the save; removing one clears the image. */
    takeFile: assign(({ context, event }) => {
      if (event.type !== 'account.file') return context;
      const url = event.field === 'logo' ? 'logoUrl' : 'bannerUrl';
      const draft = event.file ? context.draft : { ...context.draft, [url]: null };
      return recomputed({ ...context, [event.field]: event.file, draft, error: null });
    }),
    rejectFile: assign({
      error: ({ event }) =>
        event.type === 'account.file' ? fileError(event.field, event.file, event.width, event.height) : null,
    }),
    discard: assign(({ context }) => ({
      draft: context.saved,
      logo: null,
      banner: null,
      dirty: false,
      error: null,
    })),
    /** Keeps the draft's values in the tab's storage (until saved or dropped). */
    stashDraft: (_, _params: { key: string; values: AccountValues }) => {},
    forgetDraft: (_, _params: { key: string }) => {},
    showFieldError: assign({
      error: ({ context }, { field }: { field: AccountTextField }) =>
        storefrontFieldError(field, context.draft[field]),
    }),
    /** The server's storefront becomes the saved and the drafted values. */
    takeSaved: assign((_, { storefront }: { storefront: StorefrontJson }) => ({
      storefront,
      saved: accountValues(storefront),
      draft: accountValues(storefront),
      logo: null,
      banner: null,
      dirty: false,
      error: null,
    })),
    /** Enabled or disabled: the storefront changes, the draft stays as it is. */
    takeEnabled: assign(({ context }, { storefront }: { storefront: StorefrontJson }) =>
      recomputed({ ...context, storefront, saved: accountValues(storefront), error: null }),
    ),
    setError: assign({ error: (_, { error }: { error: unknown }) => toErrorBody(error) }),
    /** Takes the URLs of the images uploaded (the files are sent no more). */
    takeUploads: assign(({ context }, { urls }: { urls: Record<string, string> }) => ({
      draft: {
        ...context.draft,
        logoUrl: urls.logo ?? context.draft.logoUrl,
        bannerUrl: urls.banner ?? context.draft.bannerUrl,
      },
      logo: urls.logo ? null : context.logo,
      banner: urls.banner ? null : context.banner,
    })),
    /** Tells whoever listens that the server has a new storefront. */
    emitChanged: emit((_, { storefront }: { storefront: StorefrontJson }) => ({
      type: 'account.changed' as const,
      storefront,
    })),
    /** "Saved" (a toast). */
    announceSaved: (_, _params: { storefront: StorefrontJson }) => {},
    /** "Storefront enabled" / "Storefront disabled". */
    announceEnabled: (_, _params: { storefront: StorefrontJson }) => {},
  },
}).createMachine({
  id: 'dashboardAccount',
  context: ({ input }) =>
    recomputed({
      storefront: input.storefront,
      saved: accountValues(input.storefront),
      draft: restoredValues(input.storefront, input.draft),
      logo: null,
      banner: null,
      dirty: false,
      error: null,
    }),
  initial: 'start',
  states: {
    start: { always: [{ guard: 'hasStorefront', target: 'editing' }, { target: 'noStorefront' }] },
    /** "Create storefront" (the view goes to /create-storefront). */
    noStorefront: {},
    editing: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'account.change': { actions: 'change' },
            'account.file': [{ guard: 'fileAcceptable', actions: 'takeFile' }, { actions: 'rejectFile' }],
            'account.save': { guard: 'dirty', target: 'validating' },
            'account.discard': { guard: 'dirty', actions: ['discard', forgetDraft] },
            'account.enabled.toggle': { target: 'toggling', actions: 'clearError' },
            'account.leave': { guard: 'dirty', target: 'confirmingLeave' },
          },
        },
        /** "You have unsaved changes. Leave without saving?" */
        confirmingLeave: {
          on: {
            'account.leave.confirm': { target: 'idle', actions: ['discard', forgetDraft] },
            'account.leave.cancel': 'idle',
          },
        },
        /** Name, description, email, vanity URL: the first error stops the save. */
        validating: {
          always: [
            ...accountFieldOrder.map((field) => ({
              guard: { type: 'fieldInvalid' as const, params: { field } },
              target: 'idle' as const,
              actions: { type: 'showFieldError' as const, params: { field } },
            })),
            { target: 'saving', actions: ['clearError', stashDraft] },
          ],
        },
        saving: {
          tags: ['busy', 'saving'],
          initial: 'uploading',
          states: {
            uploading: {
              invoke: {
                id: 'uploadImages',
                src: 'uploadImages',
                input: ({ context }) => ({ uploads: storefrontUploads(context) }),
                onDone: [
                  {
                    guard: { type: 'uploadFailed', params: ({ event }) => event.output },
                    target: '#dashboardAccount.editing.idle',
                    actions: [
                      { type: 'takeUploads', params: ({ event }) => event.output },
                      assign({ error: ({ event }) => event.output.error }),
                    ],
                  },
                  {
                    target: 'patching',
                    actions: [{ type: 'takeUploads', params: ({ event }) => event.output }, stashDraft],
                  },
                ],
              },
            },
            patching: {
              invoke: {
                id: 'saveStorefront',
                src: 'saveStorefront',
                input: ({ context }) => ({
                  id: context.storefront!.id,
                  patch: changedFields(context.saved, context.draft),
                }),
                onDone: {
                  target: '#dashboardAccount.editing.idle',
                  actions: [
                    forgetDraft,
                    { type: 'takeSaved', params: ({ event }) => ({ storefront: event.output }) },
                    { type: 'emitChanged', params: ({ event }) => ({ storefront: event.output }) },
                    { type: 'announceSaved', params: ({ event }) => ({ storefront: event.output }) },
                  ],
                },
                onError: [
                  // The page goes to sign in (the session's 401 handling); the draft waits for the owner.
                  {
                    guard: { type: 'signedOut', params: ({ event }) => ({ error: event.error }) },
                    target: '#dashboardAccount.editing.idle',
                  },
                  {
                    target: '#dashboardAccount.editing.idle',
                    actions: [
                      { type: 'setError', params: ({ event }) => ({ error: event.error }) },
                      forgetDraft,
                    ],
                  },
                ],
              },
            },
          },
        },
        toggling: {
          tags: ['busy', 'toggling'],
          invoke: {
            id: 'setEnabled',
            src: 'setEnabled',
            input: ({ context }) => ({ id: context.storefront!.id, enabled: !context.storefront!.enabled }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'takeEnabled', params: ({ event }) => ({ storefront: event.output }) },
                { type: 'emitChanged', params: ({ event }) => ({ storefront: event.output }) },
                { type: 'announceEnabled', params: ({ event }) => ({ storefront: event.output }) },
              ],
            },
            onError: {
              target: 'idle',
              actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
  },
});
