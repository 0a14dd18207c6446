import {
  type StorefrontWizardContext,
  storefrontUploads,
  storefrontWizardMachine,
  wizardImageError,
} from '../machines/storefrontWizard';
import type { MachineModel } from './harness';

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
};
