import * as v from 'valibot';
import { assign, fromPromise, setup } from 'xstate';
import type { StorefrontJson } from '#domain/catalog';
import type { StorefrontCategory, StorefrontTheme } from '#domain/enums';
import { type ApiErrorBody, toErrorBody } from '#domain/errors';
import { Email } from '#domain/schemas/accounts';
import { StorefrontBio, StorefrontName } from '#domain/schemas/storefronts';
import { issueToError } from '#domain/validation';
import type { ImageJobFile } from './imageJob';

/**
 * The storefront creation wizard (SPEC §2 "Storefront creation wizard", §4 "Storefront creation"):
 * landing, name, bio, category, logo, banner, theme, email with Launch, then a loading screen while
 * the logo and banner upload (optimized first, plain on failure) and the storefront is created.
 * Logo, banner, category and theme can be skipped ("Skip for now").
 */
/** A chosen image file (a browser `File` fits). */
export type WizardFile = ImageJobFile;
export interface StorefrontWizardContext {
  name: string;
  description: string;
  category: StorefrontCategory | null;
  theme: StorefrontTheme;
  contactEmail: string;
  logo: WizardFile | null;
  banner: WizardFile | null;
  logoUrl: string | null;
  bannerUrl: string | null;
  /** SPEC §4 "creating flag". */
  creating: boolean;
  error: ApiErrorBody | null;
}
export type WizardField = 'name' | 'description' | 'contactEmail';
export type StorefrontWizardEvent =
  | { type: 'wizard.next' }
  | { type: 'wizard.back' }
  | { type: 'wizard.skip' }
  | { type: 'wizard.change'; field: WizardField; value: string }
  | { type: 'wizard.category'; value: StorefrontCategory }
  | { type: 'wizard.theme'; value: StorefrontTheme }
  | { type: 'wizard.file'; field: 'logo' | 'banner'; file: WizardFile | null }
  | { type: 'wizard.launch' };

export interface CreateStorefrontInput {
  name: string;
  description: string;
  contactEmail: string;
  category: StorefrontCategory | null;
  theme: StorefrontTheme;
  logoUrl: string | null;
  bannerUrl: string | null;
}

const schemas = { name: StorefrontName, description: StorefrontBio, contactEmail: Email } as const;
/** The first problem of a text field, as the server would report it. */
function fieldError(field: WizardField, value: string): ApiErrorBody | null {
  const r = v.safeParse(schemas[field], value);
  return r.success ? null : issueToError({ ...r.issues[0], path: [{ key: field }] } as never);
}

const goBack = (target: string) => ({ target, actions: 'clearError' as const });

/** The storefront's two images, uploaded through the imageJob flow (optimized first, plain on failure). */
export const storefrontImageUploads = {
  /** Uploads the logo. */
  uploadLogo: fromPromise<{ url: string }, { file: WizardFile }>(async () => {
    throw new Error('uploadLogo not provided');
  }),
  /** Uploads the banner. */
  uploadBanner: fromPromise<{ url: string }, { file: WizardFile }>(async () => {
    throw new Error('uploadBanner not provided');
  }),
};

export const storefrontWizardMachine = setup({
  types: {
    context: {} as StorefrontWizardContext,
    events: {} as StorefrontWizardEvent,
    tags: {} as 'busy',
  },
  actors: {
    ...storefrontImageUploads,
    /** POST storefronts. */
    createStorefront: fromPromise<StorefrontJson, CreateStorefrontInput>(async () => {
      throw new Error('createStorefront not provided');
    }),
  },
  guards: {
    nameValid: ({ context }) => !fieldError('name', context.name),
    bioValid: ({ context }) => !fieldError('description', context.description),
    emailValid: ({ context }) => !fieldError('contactEmail', context.contactEmail),
    hasLogo: ({ context }) => !!context.logo && !context.logoUrl,
    hasBanner: ({ context }) => !!context.banner && !context.bannerUrl,
    failedOnName: ({ context }) => context.error?.field === 'name',
    failedOnLogo: ({ context }) => context.error?.field === 'logo',
    failedOnBanner: ({ context }) => context.error?.field === 'banner',
  },
  actions: {
    clearError: assign({ error: null }),
    /** A text field of the current step changed. */
    change: assign(({ context, event }) => {
      if (event.type !== 'wizard.change') return context;
      return { ...context, [event.field]: event.value, error: null };
    }),
    /** Tells the app the storefront exists (the view goes to the dashboard). */
    announceCreated: (_, _params: { storefront: StorefrontJson }) => {},
  },
}).createMachine({
  id: 'storefrontWizard',
  context: {
    name: '',
    description: '',
    category: null,
    theme: 'light',
    contactEmail: '',
    logo: null,
    banner: null,
    logoUrl: null,
    bannerUrl: null,
    creating: false,
    error: null,
  },
  initial: 'landing',
  states: {
    landing: { on: { 'wizard.next': 'name' } },
    name: {
      on: {
        'wizard.change': { actions: 'change' },
        'wizard.back': goBack('landing'),
        'wizard.next': [
          { guard: 'nameValid', target: 'bio', actions: 'clearError' },
          { actions: assign({ error: ({ context }) => fieldError('name', context.name) }) },
        ],
      },
    },
    bio: {
      on: {
        'wizard.change': { actions: 'change' },
        'wizard.back': goBack('name'),
        'wizard.next': [
          { guard: 'bioValid', target: 'category', actions: 'clearError' },
          { actions: assign({ error: ({ context }) => fieldError('description', context.description) }) },
        ],
      },
    },
    category: {
      on: {
        'wizard.back': goBack('bio'),
        'wizard.category': { actions: assign({ category: ({ event }) => event.value }) },
        'wizard.next': 'logo',
        'wizard.skip': { target: 'logo', actions: assign({ category: null }) },
      },
    },
    logo: {
      on: {
        'wizard.back': goBack('category'),
        'wizard.file': { actions: assign({ logo: ({ event }) => event.file, logoUrl: null, error: null }) },
        'wizard.next': { target: 'banner', actions: 'clearError' },
        'wizard.skip': { target: 'banner', actions: assign({ logo: null, logoUrl: null, error: null }) },
      },
    },
    banner: {
      on: {
        'wizard.back': goBack('logo'),
        'wizard.file': {
          actions: assign({ banner: ({ event }) => event.file, bannerUrl: null, error: null }),
        },
        'wizard.next': { target: 'theme', actions: 'clearError' },
        'wizard.skip': { target: 'theme', actions: assign({ banner: null, bannerUrl: null, error: null }) },
      },
    },
    theme: {
      on: {
        'wizard.back': goBack('banner'),
        'wizard.theme': { actions: assign({ theme: ({ event }) => event.value }) },
        'wizard.next': 'email',
        'wizard.skip': { target: 'email', actions: assign({ theme: 'light' }) },
      },
    },
    email: {
      on: {
        'wizard.change': { actions: 'change' },
        'wizard.back': goBack('theme'),
        'wizard.launch': [
          { guard: 'emailValid', target: 'creating', actions: 'clearError' },
          { actions: assign({ error: ({ context }) => fieldError('contactEmail', context.contactEmail) }) },
        ],
      },
    },
    /** The loading screen: uploads first, then the storefront. */
    creating: {
      tags: ['busy'],
      entry: assign({ creating: true }),
      exit: assign({ creating: false }),
      initial: 'logo',
      states: {
        logo: { always: [{ guard: 'hasLogo', target: 'uploadingLogo' }, { target: 'banner' }] },
        uploadingLogo: {
          invoke: {
            id: 'uploadLogo',
            src: 'uploadLogo',
            input: ({ context }) => ({ file: context.logo! }),
            onDone: { target: 'banner', actions: assign({ logoUrl: ({ event }) => event.output.url }) },
            onError: {
              target: '#storefrontWizard.failed',
              actions: assign({ error: ({ event }) => ({ ...toErrorBody(event.error), field: 'logo' }) }),
            },
          },
        },
        banner: { always: [{ guard: 'hasBanner', target: 'uploadingBanner' }, { target: 'saving' }] },
        uploadingBanner: {
          invoke: {
            id: 'uploadBanner',
            src: 'uploadBanner',
            input: ({ context }) => ({ file: context.banner! }),
            onDone: { target: 'saving', actions: assign({ bannerUrl: ({ event }) => event.output.url }) },
            onError: {
              target: '#storefrontWizard.failed',
              actions: assign({ error: ({ event }) => ({ ...toErrorBody(event.error), field: 'banner' }) }),
            },
          },
        },
        saving: {
          invoke: {
            id: 'createStorefront',
            src: 'createStorefront',
            input: ({ context }) => ({
              name: context.name.trim(),
              description: context.description.trim(),
              contactEmail: context.contactEmail.trim(),
              category: context.category,
              theme: context.theme,
              logoUrl: context.logoUrl,
              bannerUrl: context.bannerUrl,
            }),
            onDone: {
              target: '#storefrontWizard.created',
              actions: { type: 'announceCreated', params: ({ event }) => ({ storefront: event.output }) },
            },
            onError: {
              target: '#storefrontWizard.failed',
              actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
            },
          },
        },
      },
    },
    /** Back to the step the error is about (the name, a file), else the last step. */
    failed: {
      always: [
        { guard: 'failedOnName', target: 'name' },
        { guard: 'failedOnLogo', target: 'logo' },
        { guard: 'failedOnBanner', target: 'banner' },
        { target: 'email' },
      ],
    },
    created: { type: 'final' },
  },
});
