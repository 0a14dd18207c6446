import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type AssetKind, type ImageFacts, imageProblem, imageRuleHint } from '#domain/assets';
import type { StorefrontJson } from '#domain/catalog';
import type { StorefrontCategory, StorefrontTheme } from '#domain/enums';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import type { CreateStorefrontInput } from '#domain/ports/catalog';
import { STOREFRONT_BIO } from '#domain/schemas/storefronts';
import { storefrontFieldError } from '#domain/storefronts';
import type { ImageJobFile } from './imageJob';
import { type ImageUpload, type ImageUploadsOutput, imageUploadsMachine } from './imageUploads';

/**
 * The storefront creation wizard: landing, name, bio, category, logo, banner, theme, email with
 * Launch, then a loading screen while the logo and banner upload (the imageUploads child: optimized
 * first, plain on failure) and the storefront is created. Each step checks its own field before
 * Continue: the name and bio with the server's schemas, a chosen logo or banner (read in the
 * browser: format, bytes, width and height) with the server's image rules of its kind
 * (domain/assets.ts), at once and again on Continue. Logo, banner, category and theme can be
 * skipped ("Skip for now"). A failure after Launch goes back to the step it is about (the name, an
 * image), else to the last step.
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
  /** What the browser read of the chosen logo and banner (null: none chosen, or not read yet). */
  logoFacts: ImageFacts | null;
  bannerFacts: ImageFacts | null;
  /** Set while the storefront is being created (the loading screen). */
  creating: boolean;
  error: ApiErrorBody | null;
}
export type WizardField = 'name' | 'description' | 'contactEmail';
export type WizardImage = 'logo' | 'banner';
export type StorefrontWizardEvent =
  | { type: 'wizard.next' }
  | { type: 'wizard.back' }
  | { type: 'wizard.skip' }
  | { type: 'wizard.change'; field: WizardField; value: string }
  | { type: 'wizard.category'; value: StorefrontCategory }
  | { type: 'wizard.theme'; value: StorefrontTheme }
  | { type: 'wizard.file'; field: WizardImage; file: WizardFile | null }
  | { type: 'wizard.launch' };

const goBack = (target: string) => ({ target, actions: 'clearError' as const });

/** The asset kind whose rules each image of the wizard follows (the server's, on upload). */
export const wizardImageKinds: Record<WizardImage, AssetKind> = {
  logo: 'storefrontLogo',
  banner: 'storefrontBanner',
};
/** What the browser knows of a file it could not read as an image: only its size. */
export const unreadableImage = (file: WizardFile): ImageFacts => ({
  format: undefined,
  bytes: file.size,
  width: undefined,
  height: undefined,
});
/**
 * The first image rule the chosen logo or banner breaks, as the server would answer it on upload
 * ("This image is 80 × 80 pixels: it must be at least 100 × 100."), about that field; null when
 * it passes, or when none is chosen or it is not read yet.
 */
export function wizardImageError(field: WizardImage, facts: ImageFacts | null): ApiErrorBody | null {
  const problem = facts && imageProblem(wizardImageKinds[field], facts);
  return problem ? { ...problem, field, message: errorMessage({ ...problem, field }) } : null;
}
const factsOf = (c: StorefrontWizardContext, field: WizardImage) =>
  field === 'logo' ? c.logoFacts : c.bannerFacts;

/**
 * The storefront's new images for the imageUploads child, logo first, each tried optimized first
 * (an image already uploaded, by an earlier try, is not sent again).
 */
export function storefrontUploads(
  files: { logo: ImageJobFile | null; banner: ImageJobFile | null },
  urls: { logoUrl: string | null; bannerUrl: string | null } = { logoUrl: null, bannerUrl: null },
): ImageUpload[] {
  const uploads: ImageUpload[] = [];
  if (files.logo && !urls.logoUrl)
    uploads.push({ field: 'logo', file: files.logo, assetKind: 'storefrontLogo', optimize: true });
  if (files.banner && !urls.bannerUrl)
    uploads.push({ field: 'banner', file: files.banner, assetKind: 'storefrontBanner', optimize: true });
  return uploads;
}

/**
 * An image step (logo, banner): a chosen file is read at once (inspecting) and its first broken
 * rule shows at the field; Continue goes on only when no image is chosen or the chosen one passes,
 * else shows that rule again. Choosing another file while one is read reads the new one.
 */
function imageStep(field: WizardImage, steps: { back: string; next: string }) {
  return {
    initial: 'ready',
    on: {
      'wizard.back': goBack(steps.back),
      'wizard.file': [
        {
          guard: { type: 'ownImageChosen', params: { field } },
          target: '.inspecting',
          reenter: true,
          actions: { type: 'takeImage', params: { field } },
        },
        {
          guard: { type: 'ownImageRemoved', params: { field } },
          target: '.ready',
          actions: { type: 'takeImage', params: { field } },
        },
      ],
      'wizard.skip': {
        target: steps.next,
        actions: { type: 'forgetImage', params: { field } },
      },
    },
    states: {
      ready: {
        on: {
          'wizard.next': [
            {
              guard: { type: 'imageFits', params: { field } },
              target: `#storefrontWizard.${steps.next}`,
              actions: 'clearError',
            },
            { actions: { type: 'showImageError', params: { field } } },
          ],
        },
      },
      inspecting: {
        tags: ['checking'],
        invoke: {
          id: 'inspectImage',
          src: 'inspectImage',
          input: ({ context }: { context: StorefrontWizardContext }) => ({ file: context[field]! }),
          onDone: {
            target: 'ready',
            actions: {
              type: 'takeFacts',
              params: ({ event }: { event: { output: ImageFacts } }) => ({ field, facts: event.output }),
            },
          },
          // A file the browser cannot decode is not an image of an accepted format.
          onError: {
            target: 'ready',
            actions: {
              type: 'takeFacts',
              params: ({ context }: { context: StorefrontWizardContext }) => ({
                field,
                facts: unreadableImage(context[field]!),
              }),
            },
          },
        },
      },
    },
  } as const;
}

export const storefrontWizardMachine = setup({
  types: {
    context: {} as StorefrontWizardContext,
    events: {} as StorefrontWizardEvent,
    /** busy while creating; checking while a chosen image is read. */
    tags: {} as 'busy' | 'checking',
  },
  actors: {
    /** The logo and banner, uploaded one after the other. */
    uploadImages: imageUploadsMachine,
    /** Reads a chosen image's format, bytes, width and height in the browser. */
    inspectImage: fromPromise<ImageFacts, { file: WizardFile }>(async () => {
      throw new Error('inspectImage not provided');
    }),
    /** POST storefronts. */
    createStorefront: fromPromise<StorefrontJson, CreateStorefrontInput>(async () => {
      throw new Error('createStorefront not provided');
    }),
  },
  guards: {
    nameValid: ({ context }) => !storefrontFieldError('name', context.name),
    bioValid: ({ context }) => !storefrontFieldError('description', context.description),
    emailValid: ({ context }) => !storefrontFieldError('contactEmail', context.contactEmail),
    /** A file chosen for this step's own image (each image step has its own picker). */
    ownImageChosen: ({ event }, { field }: { field: WizardImage }) =>
      event.type === 'wizard.file' && event.field === field && event.file !== null,
    /** This step's chosen image removed (there is one to remove). */
    ownImageRemoved: ({ context, event }, { field }: { field: WizardImage }) =>
      event.type === 'wizard.file' && event.field === field && event.file === null && context[field] !== null,
    /** No image chosen, or the chosen one passes its kind's rules. */
    imageFits: ({ context }, { field }: { field: WizardImage }) =>
      wizardImageError(field, factsOf(context, field)) === null,
    uploadFailed: (_, output: ImageUploadsOutput) => output.error !== null,
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
    /** A newly chosen image waits to be read; removing it forgets it. */
    takeImage: assign(({ context, event }, { field }: { field: WizardImage }) => {
      if (event.type !== 'wizard.file') return context;
      return { ...context, [field]: event.file, [`${field}Url`]: null, [`${field}Facts`]: null, error: null };
    }),
    /** "Skip for now": no image. */
    forgetImage: assign(({ context }, { field }: { field: WizardImage }) => ({
      ...context,
      [field]: null,
      [`${field}Url`]: null,
      [`${field}Facts`]: null,
      error: null,
    })),
    /** The image as read: its first broken rule, if any, shows at the field. */
    takeFacts: assign(({ context }, { field, facts }: { field: WizardImage; facts: ImageFacts }) => ({
      ...context,
      [`${field}Facts`]: facts,
      error: wizardImageError(field, facts),
    })),
    showImageError: assign({
      error: ({ context }, { field }: { field: WizardImage }) =>
        wizardImageError(field, factsOf(context, field)),
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
    logoFacts: null,
    bannerFacts: null,
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
          { actions: assign({ error: ({ context }) => storefrontFieldError('name', context.name) }) },
        ],
      },
    },
    bio: {
      on: {
        'wizard.change': { actions: 'change' },
        'wizard.back': goBack('name'),
        'wizard.next': [
          { guard: 'bioValid', target: 'category', actions: 'clearError' },
          {
            actions: assign({
              error: ({ context }) => storefrontFieldError('description', context.description),
            }),
          },
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
    logo: imageStep('logo', { back: 'category', next: 'banner' }),
    banner: imageStep('banner', { back: 'logo', next: 'theme' }),
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
          {
            actions: assign({
              error: ({ context }) => storefrontFieldError('contactEmail', context.contactEmail),
            }),
          },
        ],
      },
    },
    /** The loading screen: uploads first, then the storefront. */
    creating: {
      tags: ['busy'],
      entry: assign({ creating: true }),
      exit: assign({ creating: false }),
      initial: 'uploading',
      states: {
        uploading: {
          invoke: {
            id: 'uploadImages',
            src: 'uploadImages',
            input: ({ context }) => ({ uploads: storefrontUploads(context, context) }),
            onDone: [
              {
                guard: { type: 'uploadFailed', params: ({ event }) => event.output },
                target: '#storefrontWizard.failed',
                actions: assign(({ context, event }) => ({
                  logoUrl: event.output.urls.logo ?? context.logoUrl,
                  bannerUrl: event.output.urls.banner ?? context.bannerUrl,
                  error: event.output.error,
                })),
              },
              {
                target: 'saving',
                actions: assign(({ context, event }) => ({
                  logoUrl: event.output.urls.logo ?? context.logoUrl,
                  bannerUrl: event.output.urls.banner ?? context.bannerUrl,
                })),
              },
            ],
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

export const wizardSteps = [
  'landing',
  'name',
  'bio',
  'category',
  'logo',
  'banner',
  'theme',
  'email',
] as const;
export type WizardStep = (typeof wizardSteps)[number];
/** The text field each step shows, and the error it shows beside it. */
const stepField: Partial<Record<WizardStep, string>> = {
  name: 'name',
  bio: 'description',
  logo: 'logo',
  banner: 'banner',
  email: 'contactEmail',
};
const fieldsWithAStep = new Set(Object.values(stepField));
/** What looks best on a storefront, beyond the rule an image must pass. */
const imageAdvice: Record<WizardImage, string> = {
  logo: 'A square (1:1) image of 300 × 300 pixels or more looks best.',
  banner: 'A wide (5:1) image of 1440 × 280 pixels or more looks best.',
};

/** What the wizard shows: one screen per step, then the loading screen while creating. */
export interface StorefrontWizardView {
  step: WizardStep | 'creating' | 'created';
  /** "Step 3 of 7" (none on the landing screen). */
  progress: string | null;
  name: string;
  description: string;
  /** "12/2000" under the bio. */
  bioCount: string;
  category: StorefrontCategory | null;
  theme: StorefrontTheme;
  contactEmail: string;
  /** The file chosen on the logo or banner step. */
  file: WizardFile | null;
  /** The image step's rule in words, under its picker ("PNG or JPG, at least 100 × 100 pixels, up to 1 MB."). */
  imageRule: string | null;
  /** "Checking the image…" while a chosen image is read (Continue waits). */
  checking: string | null;
  /** The submit button works (not while an image is read). */
  canSubmit: boolean;
  /** The error about this step's field. */
  fieldError: string | null;
  /** An error about no field (the last step shows it). */
  formError: string | null;
  /** "Launching Night Loops…" on the loading screen. */
  launching: string;
  canBack: boolean;
  canSkip: boolean;
  /** The submit button: Get started, Continue or Launch. */
  submitLabel: string;
  submit: () => void;
  back: () => void;
  skip: () => void;
  change: (field: WizardField, value: string) => void;
  chooseCategory: (value: StorefrontCategory) => void;
  chooseTheme: (value: StorefrontTheme) => void;
  chooseFile: (file: WizardFile | null) => void;
}

export function connectStorefrontWizard(
  snapshot: SnapshotFrom<typeof storefrontWizardMachine>,
  send: (event: StorefrontWizardEvent) => void,
): StorefrontWizardView {
  const c = snapshot.context;
  const value = snapshot.value;
  // The image steps have substates (ready, inspecting): their step is the top state.
  const top = typeof value === 'string' ? value : Object.keys(value)[0]!;
  const step: StorefrontWizardView['step'] = (wizardSteps as readonly string[]).includes(top)
    ? (top as WizardStep)
    : top === 'created'
      ? 'created'
      : 'creating';
  const index = (wizardSteps as readonly string[]).indexOf(step);
  const field = stepField[step as WizardStep];
  const error = c.error ? errorMessage(c.error) : null;
  const launch = snapshot.can({ type: 'wizard.launch' });
  const onImageStep = step === 'logo' || step === 'banner';
  return {
    step,
    progress: index > 0 ? `Step ${index} of ${wizardSteps.length - 1}` : null,
    name: c.name,
    description: c.description,
    bioCount: `${c.description.length}/${STOREFRONT_BIO.max}`,
    category: c.category,
    theme: c.theme,
    contactEmail: c.contactEmail,
    file: step === 'logo' ? c.logo : step === 'banner' ? c.banner : null,
    imageRule: onImageStep ? `${imageRuleHint(wizardImageKinds[step])} ${imageAdvice[step]}` : null,
    checking: snapshot.hasTag('checking') ? 'Checking the image…' : null,
    canSubmit: snapshot.can({ type: 'wizard.next' }) || launch,
    fieldError: field && c.error?.field === field ? error : null,
    formError: step === 'email' && c.error && !fieldsWithAStep.has(c.error.field ?? '') ? error : null,
    launching: `Launching ${c.name.trim()}…`,
    canBack: snapshot.can({ type: 'wizard.back' }),
    canSkip: snapshot.can({ type: 'wizard.skip' }),
    submitLabel: step === 'landing' ? 'Get started' : launch ? 'Launch' : 'Continue',
    submit: () => send({ type: launch ? 'wizard.launch' : 'wizard.next' }),
    back: () => send({ type: 'wizard.back' }),
    skip: () => send({ type: 'wizard.skip' }),
    change: (f, text) => send({ type: 'wizard.change', field: f, value: text }),
    chooseCategory: (category) => send({ type: 'wizard.category', value: category }),
    chooseTheme: (theme) => send({ type: 'wizard.theme', value: theme }),
    chooseFile: (file) => {
      if (onImageStep) send({ type: 'wizard.file', field: step, file });
    },
  };
}
