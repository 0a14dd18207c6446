import * as v from 'valibot';
import { assign, fromPromise, setup } from 'xstate';
import { type AssetKind, assetRules, checkImage, type ImageFormat } from '#domain/assets';
import type { StorefrontJson } from '#domain/catalog';
import type { StorefrontCategory, StorefrontTheme } from '#domain/enums';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import { Email } from '#domain/schemas/accounts';
import {
  StorefrontBio,
  StorefrontName,
  type StorefrontPatchInput,
  VanityUrl,
} from '#domain/schemas/storefronts';
import { issueToError } from '#domain/validation';
import { storefrontImageUploads, type WizardFile } from './storefrontWizard';

/**
 * Dashboard → Account (SPEC §2 Dashboard, §4 "Enable/disable toggles the storefront", §5 Storefront):
 * edit the owner's storefront (name, bio, category, theme, logo, banner, contact email, vanity URL),
 * save only when something changed, checking name, description, email and vanity URL in that order
 * and stopping at the first error; new images upload first (the imageJob flow), then PATCH
 * storefronts/{id} with the changed fields. Enabling or disabling is its own PATCH. Leaving with
 * unsaved changes asks first (dashboard.unsaved). Without a storefront the panel offers to create one.
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
/** The order of SPEC §5: "Dashboard checks in order name, description, email, vanity". */
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

export interface DashboardAccountInput {
  storefront: StorefrontJson | null;
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

const schemas = {
  name: StorefrontName,
  description: StorefrontBio,
  contactEmail: Email,
  vanityUrl: v.pipe(v.string(), v.trim(), VanityUrl),
} as const;
/** The first problem of a text field, as the server would report it. */
export function fieldError(field: AccountTextField, value: string): ApiErrorBody | null {
  const r = v.safeParse(schemas[field], value);
  return r.success ? null : issueToError({ ...r.issues[0], path: [{ key: field }] } as never);
}

const formats: Record<string, ImageFormat> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif' };
/** SPEC §5 image rules for a chosen logo or banner (sizes the browser could not read are left to the server). */
export function fileError(
  field: AccountImageField,
  file: AccountFile | null,
  width?: number,
  height?: number,
): ApiErrorBody | null {
  if (!file) return null;
  const kind = imageKinds[field];
  const rule = assetRules[kind];
  const code = checkImage(kind, {
    format: formats[file.type],
    bytes: file.size,
    width: width ?? rule.minWidth,
    height: height ?? rule.minHeight,
  });
  return code ? { code, field, message: errorMessage({ code, field }) } : null;
}

const recomputed = <C extends DashboardAccountContext>(c: C): C => ({ ...c, dirty: isDirty(c) });

export const dashboardAccountMachine = setup({
  types: {
    context: {} as DashboardAccountContext,
    events: {} as DashboardAccountEvent,
    input: {} as DashboardAccountInput,
    tags: {} as 'busy',
  },
  actors: {
    ...storefrontImageUploads,
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
      fieldError(field, context.draft[field]) !== null,
    fileAcceptable: ({ event }) =>
      event.type === 'account.file' && !fileError(event.field, event.file, event.width, event.height),
    hasLogo: ({ context }) => !!context.logo,
    hasBanner: ({ context }) => !!context.banner,
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
    showFieldError: assign({
      error: ({ context }, { field }: { field: AccountTextField }) => fieldError(field, context.draft[field]),
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
    /** "Saved" (SPEC §9 saved toast 4000 ms). */
    announceSaved: (_, _params: { storefront: StorefrontJson }) => {},
    /** "Storefront enabled" / "Storefront disabled". */
    announceEnabled: (_, _params: { storefront: StorefrontJson }) => {},
  },
}).createMachine({
  id: 'dashboardAccount',
  context: ({ input }) => ({
    storefront: input.storefront,
    saved: accountValues(input.storefront),
    draft: accountValues(input.storefront),
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
            'account.discard': { guard: 'dirty', actions: 'discard' },
            'account.enabled.toggle': { target: 'toggling', actions: 'clearError' },
            'account.leave': { guard: 'dirty', target: 'confirmingLeave' },
          },
        },
        /** "You have unsaved changes. Leave without saving?" */
        confirmingLeave: {
          on: {
            'account.leave.confirm': { target: 'idle', actions: 'discard' },
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
            { target: 'saving', actions: 'clearError' },
          ],
        },
        saving: {
          tags: ['busy'],
          initial: 'logo',
          states: {
            logo: { always: [{ guard: 'hasLogo', target: 'uploadingLogo' }, { target: 'banner' }] },
            uploadingLogo: {
              invoke: {
                id: 'uploadLogo',
                src: 'uploadLogo',
                input: ({ context }) => ({ file: context.logo! }),
                onDone: {
                  target: 'banner',
                  actions: assign(({ context, event }) => ({
                    draft: { ...context.draft, logoUrl: event.output.url },
                    logo: null,
                  })),
                },
                onError: {
                  target: '#dashboardAccount.editing.idle',
                  actions: assign({ error: ({ event }) => ({ ...toErrorBody(event.error), field: 'logo' }) }),
                },
              },
            },
            banner: { always: [{ guard: 'hasBanner', target: 'uploadingBanner' }, { target: 'patching' }] },
            uploadingBanner: {
              invoke: {
                id: 'uploadBanner',
                src: 'uploadBanner',
                input: ({ context }) => ({ file: context.banner! }),
                onDone: {
                  target: 'patching',
                  actions: assign(({ context, event }) => ({
                    draft: { ...context.draft, bannerUrl: event.output.url },
                    banner: null,
                  })),
                },
                onError: {
                  target: '#dashboardAccount.editing.idle',
                  actions: assign({
                    error: ({ event }) => ({ ...toErrorBody(event.error), field: 'banner' }),
                  }),
                },
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
                    { type: 'takeSaved', params: ({ event }) => ({ storefront: event.output }) },
                    { type: 'announceSaved', params: ({ event }) => ({ storefront: event.output }) },
                  ],
                },
                onError: {
                  target: '#dashboardAccount.editing.idle',
                  actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
          },
        },
        toggling: {
          tags: ['busy'],
          invoke: {
            id: 'setEnabled',
            src: 'setEnabled',
            input: ({ context }) => ({ id: context.storefront!.id, enabled: !context.storefront!.enabled }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'takeEnabled', params: ({ event }) => ({ storefront: event.output }) },
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
