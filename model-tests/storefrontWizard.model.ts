import { expect } from 'vitest';
import {
  connectStorefrontWizard,
  type StorefrontWizardContext,
  storefrontUploads,
  storefrontWizardMachine,
  wizardImageError,
} from '../machines/storefrontWizard';
import { after, entered, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof storefrontWizardMachine>;
const view = (o: O) => connectStorefrontWizard(o.snapshot, () => {});
/** The wizard's steps in order; Continue (or Skip) goes one forward, Back one back. */
const order = ['landing', 'name', 'bio', 'category', 'logo', 'banner', 'theme', 'email'];
const topOf = (value: unknown) => (typeof value === 'string' ? value : Object.keys(value as object)[0]!);
/** Which step a failure of the launch returns to: the one whose field it concerns, else the email step. */
const failureStep = (field: string | undefined) =>
  field === 'name' ? 'name' : field === 'logo' ? 'logo' : field === 'banner' ? 'banner' : 'email';

function step(o: O, name: string) {
  const v = view(o);
  const index = order.indexOf(name);
  expect(v.step).toBe(name);
  expect(v.progress).toBe(index > 0 ? `Step ${index} of 7` : null);
  if (!entered(o, name)) return;
  const from = topOf(o.before.value);
  if (o.event.type === 'wizard.next' || o.event.type === 'wizard.skip') expect(from).toBe(order[index - 1]);
  else if (o.event.type === 'wizard.back') expect(from).toBe(order[index + 1]);
  else {
    // A launch that failed comes back to the step its error concerns, which shows it.
    expect(from).toBe('creating');
    expect(failureStep(o.snapshot.context.error?.field)).toBe(name);
    expect(v.fieldError ?? v.formError).toBeTruthy();
  }
}
/** Continue refused on a step: the field's error shows and the step stays. */
function refused(o: O, name: string) {
  if (o.event.type === 'wizard.next' || o.event.type === 'wizard.launch')
    if (!entered(o, name)) expect(view(o).fieldError).toBeTruthy();
}
/** What the launch sends: the files chosen and not yet uploaded, then the storefront. */
const chosenFile = (o: O, field: 'logo' | 'banner') =>
  nameOf(o.history.filter((e) => e.type === 'wizard.file' && e.field === field).at(-1)?.file);
/** Files are compared by name: in a view run the browser makes its own File of the choice. */
const nameOf = (file: unknown) => (file as { name: string } | null | undefined)?.name ?? null;

const storefront = { id: 's1', name: 'Night Loops', vanityUrl: 'Night-Loops-ab12c' };

const urls = { logo: '/media/uploads/u/logo.png', banner: '/media/uploads/u/banner.jpg' };
/**
 * What the imageUploads child can answer for the images the wizard sends it: all uploaded, the logo
 * refused, or the banner refused after the logo went up.
 */
function uploadOutcomes(c: StorefrontWizardContext) {
  const sent = storefrontUploads(c, c).map((u) => u.field as 'logo' | 'banner');
  const done = (fields: Array<'logo' | 'banner'>) => Object.fromEntries(fields.map((f) => [f, urls[f]]));
  const outcomes = [{ urls: done(sent), error: null }];
  if (sent[0] === 'logo')
    outcomes.push({
      urls: {},
      error: { code: 'FILE_TYPE', field: 'logo', message: 'This file is not an image we can read.' },
    } as never);
  if (sent.includes('banner'))
    outcomes.push({
      urls: done(sent.filter((f) => f === 'logo')),
      error: { code: 'FILE_EXISTS', field: 'banner', message: 'exists' },
    } as never);
  return outcomes.map((output) => ({ type: 'xstate.done.actor.uploadImages', output }));
}

/** What the browser can read of a chosen image: one that passes both images' rules, one too small (80 × 80). */
export const fittingImage = { format: 'png', bytes: 2048, width: 1500, height: 300 };
export const smallImage = { format: 'png', bytes: 2048, width: 80, height: 80 };

export const storefrontWizardModel: MachineModel<typeof storefrontWizardMachine> = {
  machine: storefrontWizardMachine,
  fakes: ['uploadImages', 'createStorefront', 'inspectImage'],
  scenarios: [{ name: 'a signed-in creator', input: undefined }],
  events: (s) => [
    { type: 'wizard.next' },
    { type: 'wizard.back' },
    { type: 'wizard.skip' },
    { type: 'wizard.change', field: 'name', value: 'Night Loops' },
    { type: 'wizard.change', field: 'name', value: 'x' },
    { type: 'wizard.change', field: 'description', value: 'Loops recorded at night.' },
    { type: 'wizard.change', field: 'contactEmail', value: 'hello@example.com' },
    { type: 'wizard.category', value: 'music' },
    { type: 'wizard.theme', value: 'dark' },
    {
      type: 'wizard.file',
      field: 'logo',
      file: new File([new Uint8Array(2048)], 'logo.png', { type: 'image/png' }),
    },
    { type: 'wizard.file', field: 'logo', file: null },
    {
      type: 'wizard.file',
      field: 'banner',
      file: new File([new Uint8Array(4096)], 'banner.jpg', { type: 'image/jpeg' }),
    },
    { type: 'wizard.file', field: 'banner', file: null },
    { type: 'xstate.done.actor.inspectImage', output: fittingImage },
    { type: 'xstate.done.actor.inspectImage', output: smallImage },
    { type: 'xstate.error.actor.inspectImage', error: new Error('The image cannot be decoded') },
    { type: 'wizard.launch' },
    ...uploadOutcomes(s.context),
    { type: 'xstate.done.actor.createStorefront', output: storefront },
    {
      type: 'xstate.error.actor.createStorefront',
      error: { body: { code: 'STOREFRONT_NAME_EXISTS', field: 'name', message: 'taken' } },
    },
    {
      type: 'xstate.error.actor.createStorefront',
      error: { body: { code: 'NETWORK_FAILURE', message: 'x' } },
    },
  ],
  // What the guards read: which texts are valid, which files wait for upload, whether
  // the image of the step on screen passes its rules, the field of the error (whichever rule it is).
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.name.trim().length >= 2,
      s.context.description.trim().length >= 2,
      s.context.contactEmail.includes('@'),
      !!s.context.logo && !s.context.logoUrl,
      s.matches('logo') ? wizardImageError('logo', s.context.logoFacts) === null : null,
      !!s.context.banner && !s.context.bannerUrl,
      s.matches('banner') ? wizardImageError('banner', s.context.bannerFacts) === null : null,
      s.context.error?.field ?? (s.context.error ? 'form' : null),
    ]),
  expect: {
    landing: (o) => {
      step(o, 'landing');
      expect(view(o).submitLabel).toBe('Get started');
    },
    // The same field rules as the API: a name and a bio of at least 2 characters.
    name: (o) => {
      step(o, 'name');
      refused(o, 'name');
      if (o.event.type === 'wizard.change' && o.event.field === 'name')
        expect(view(o).name).toBe(o.event.value);
    },
    bio: (o) => {
      step(o, 'bio');
      refused(o, 'bio');
      if (o.event.type === 'wizard.next' && entered(o, 'bio'))
        expect(o.snapshot.context.name.trim().length).toBeGreaterThanOrEqual(2);
    },
    category: (o) => {
      step(o, 'category');
      if (o.event.type === 'wizard.next' && entered(o, 'category'))
        expect(o.snapshot.context.description.trim().length).toBeGreaterThanOrEqual(2);
      if (o.event.type === 'wizard.category') expect(view(o).category).toBe(o.event.value);
    },
    // An image step: the chosen image is read in the browser and checked with its kind's rules;
    // Continue waits until it passes. Skip forgets it.
    logo: (o) => {
      step(o, 'logo');
      if (o.event.type === 'wizard.skip' && entered(o, 'logo')) expect(view(o).category).toBeNull();
    },
    banner: (o) => {
      step(o, 'banner');
      if (o.event.type === 'wizard.skip' && entered(o, 'banner')) expect(o.snapshot.context.logo).toBeNull();
      if (o.event.type === 'wizard.next' && entered(o, 'banner'))
        expect(
          !o.snapshot.context.logo || wizardImageError('logo', o.snapshot.context.logoFacts) === null,
        ).toBe(true);
    },
    'logo.ready': (o) => {
      expect(view(o).checking).toBeNull();
      if (o.event.type === 'wizard.next' && !entered(o, 'logo')) expect(view(o).fieldError).toBeTruthy();
    },
    'banner.ready': (o) => {
      expect(view(o).checking).toBeNull();
      if (o.event.type === 'wizard.next' && !entered(o, 'banner')) expect(view(o).fieldError).toBeTruthy();
    },
    'logo.inspecting': (o) => {
      expect(o.event).toMatchObject({ type: 'wizard.file', field: 'logo' });
      expectWorking(o, 'inspectImage');
      expect(nameOf((o.calls.at(-1)!.input as { file: unknown }).file)).toBe(nameOf(o.event.file));
      expect(view(o)).toMatchObject({ checking: 'Checking the image…', canSubmit: false });
    },
    'banner.inspecting': (o) => {
      expect(o.event).toMatchObject({ type: 'wizard.file', field: 'banner' });
      expectWorking(o, 'inspectImage');
      expect(nameOf((o.calls.at(-1)!.input as { file: unknown }).file)).toBe(nameOf(o.event.file));
      expect(view(o)).toMatchObject({ checking: 'Checking the image…', canSubmit: false });
    },
    theme: (o) => {
      step(o, 'theme');
      if (o.event.type === 'wizard.next' && entered(o, 'theme'))
        expect(
          !o.snapshot.context.banner || wizardImageError('banner', o.snapshot.context.bannerFacts) === null,
        ).toBe(true);
      if (o.event.type === 'wizard.skip') expect(o.snapshot.context.banner).toBeNull();
      if (o.event.type === 'wizard.theme') expect(view(o).theme).toBe(o.event.value);
    },
    email: (o) => {
      step(o, 'email');
      refused(o, 'email');
      expect(view(o).submitLabel).toBe('Launch');
      if (o.event.type === 'wizard.skip' && entered(o, 'email')) expect(view(o).theme).toBe('light');
    },
    creating: (o) => {
      expect(view(o)).toMatchObject({
        step: 'creating',
        launching: `Launching ${o.snapshot.context.name.trim()}…`,
      });
      if (o.event.type === 'wizard.launch') expect(o.snapshot.context.contactEmail).toContain('@');
    },
    // The images go up first (those not uploaded yet), then POST storefronts with their URLs.
    'creating.uploading': (o) => {
      expect(o.event.type).toBe('wizard.launch');
      const uploads = [
        ...(o.snapshot.context.logo && !o.snapshot.context.logoUrl
          ? [{ field: 'logo', file: chosenFile(o, 'logo') }]
          : []),
        ...(o.snapshot.context.banner && !o.snapshot.context.bannerUrl
          ? [{ field: 'banner', file: chosenFile(o, 'banner') }]
          : []),
      ];
      expectWorking(o, 'uploadImages');
      const sent = (o.calls.at(-1)!.input as { uploads: Array<{ field: string; file: unknown }> }).uploads;
      expect(sent.map((u) => ({ field: u.field, file: nameOf(u.file) }))).toEqual(uploads);
    },
    'creating.saving': (o) => {
      const c = o.snapshot.context;
      const uploaded = o.history
        .filter((e) => e.type === 'xstate.done.actor.uploadImages')
        .map((e) => (e.output as { urls: Record<string, string> }).urls);
      const url = (field: 'logo' | 'banner') =>
        c[field] ? (uploaded.findLast((u) => u[field])?.[field] ?? null) : null;
      expectWorking(o, 'createStorefront', {
        name: c.name.trim(),
        description: c.description.trim(),
        contactEmail: c.contactEmail.trim(),
        category: c.category,
        theme: c.theme,
        logoUrl: url('logo'),
        bannerUrl: url('banner'),
      });
      if (after(o, 'done', 'uploadImages')) expect(o.event.output).toMatchObject({ error: null });
    },
    created: (o) => {
      expect(o.event).toMatchObject({ type: 'xstate.done.actor.createStorefront', output: storefront });
      expect(o.snapshot.status).toBe('done');
    },
  },
};
